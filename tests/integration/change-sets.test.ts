import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPowerDnsClient } from '#server/integrations/powerdns/client.ts'
import { createOutbound } from '#server/platform/core/outbound.ts'
import { CHECK_WAIT, runStage } from '#server/platform/change-sets/rollout.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform, TEST_CONFIG } from '#tests/support/platform.ts'
import { startSmtpCapture, type SmtpCapture } from '#tests/support/smtp.ts'
import { powerDnsInstalled } from '#server/integrations/powerdns/local-server.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'
import { liveZone } from '#tests/support/zones.ts'

// Change sets (issue 33): a DNS change over the zones a filter selects, previewed per zone, rolled
// out in stages with a health check between them, a failing stage rolled back, and a stage run
// again after a crash changing nothing twice. One platform with a real PowerDNS (when installed).
let pdns: PowerDnsServer | undefined
let smtp: SmtpCapture
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let admin: string
let viewer: string
let staff: string
let otherAdmin: string
let acme: string
let globex: string

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

async function zone(name: string, changes: unknown[], live = false) {
  const created = live ? await liveZone(platform.call, acme, admin, staff, name) : await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name } })
  expect(created.status).toBe(201)
  if (changes.length) {
    const applied = await platform.call('POST', `/groups/${acme}/zones/${created.json.id}/changes`, { token: admin, body: { changes } })
    expect(applied.status, JSON.stringify(applied.json)).toBe(200)
  }
  return created.json.id as string
}

const records = async (zoneId: string) =>
  ((await platform.call('GET', `/groups/${acme}/zones/${zoneId}/records?limit=100&sort=name`, { token: admin })).json.data as { name: string; type: string; content: string }[])
    .filter((r) => r.type !== 'SOA')
    .map((r) => `${r.name} ${r.type} ${r.content}`)
    .sort()

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string, ms = 40_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

const getSet = async (id: string) => (await platform.call('GET', `/groups/${acme}/change-sets/${id}`, { token: admin })).json
const objects = async (id: string) => (await platform.call('GET', `/groups/${acme}/change-sets/${id}/objects?limit=100`, { token: admin })).json.data as Record<string, any>[]

beforeAll(async () => {
  if (powerDnsInstalled()) pdns = await startPowerDns()
  smtp = await startSmtpCapture()
  const config = { config: { ...TEST_CONFIG, SMTP_URL: smtp.url, PUBLIC_URL: 'http://portal.test' } }
  platform = await createTestPlatform(pdns ? { ...config, powerdns: pdns.settings, outbound: createOutbound({ resolver: [`127.0.0.1:${pdns.dnsPort}`] }) } : config, {
    seed: { domainsPerAccount: [1, 1] },
  })
  await platform.deps.jobs.start({ work: true })
  admin = await login('admin@acme.example')
  viewer = await login('viewer@acme.example')
  staff = await login('staff@example.com')
  otherAdmin = await login('admin@globex.example')
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', 'like', 'Globex%').executeTakeFirstOrThrow()).id
  CHECK_WAIT.pollSeconds = 1
}, 120_000)
afterAll(async () => {
  await platform?.close()
  await pdns?.stop()
  await smtp?.close()
})

describe('change sets over zones', () => {
  const zones: Record<string, string> = {}

  it('previews a template over the zones a filter selects: changed, unchanged and conflicting zones, per zone', async () => {
    zones.a = await zone('a.mail.cs.test', [
      { action: 'add', name: '@', type: 'MX', content: '10 mx.old.example.' },
      { action: 'add', name: '@', type: 'TXT', content: '"v=spf1 a -all"' },
      { action: 'add', name: '@', type: 'TXT', content: '"google-site-verification=x"' },
    ])
    zones.b = await zone('b.mail.cs.test', [])
    zones.c = await zone('c.mail.cs.test', [
      { action: 'add', name: '@', type: 'MX', content: '1 aspmx.l.google.com.' },
      { action: 'add', name: '@', type: 'MX', content: '5 alt1.aspmx.l.google.com.' },
      { action: 'add', name: '@', type: 'MX', content: '5 alt2.aspmx.l.google.com.' },
      { action: 'add', name: '@', type: 'MX', content: '10 alt3.aspmx.l.google.com.' },
      { action: 'add', name: '@', type: 'MX', content: '10 alt4.aspmx.l.google.com.' },
      { action: 'add', name: '@', type: 'TXT', content: '"v=spf1 include:_spf.google.com ~all"' },
    ])
    zones.other = await zone('other.cs.test', [])

    // A viewer prepares nothing; a bad filter or stage list is refused beside its field.
    const body = { name: 'Move mail to Google', filter: "name ends_with '.mail.cs.test'", change: { kind: 'dns', template: 'google-workspace', operations: [] }, stages: [50, 100] }
    expect((await platform.call('POST', `/groups/${acme}/change-sets`, { token: viewer, body })).status).toBe(403)
    const badFilter = await platform.call('POST', `/groups/${acme}/change-sets`, { token: admin, body: { ...body, filter: "name ends_with '.test" } })
    expect(badFilter.status).toBe(400)
    expect(badFilter.json.errors[0].field).toBe('filter')
    const badStages = await platform.call('POST', `/groups/${acme}/change-sets`, { token: admin, body: { ...body, stages: [50, 20] } })
    expect(badStages.json.errors[0].field).toBe('stages')

    const created = await platform.call('POST', `/groups/${acme}/change-sets`, { token: admin, body })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    expect(created.json).toMatchObject({ state: 'draft', target: 'zones', stages: [50, 100], preview: null })
    expect(created.json.change.operations).toHaveLength(2)
    zones.set = created.json.id

    const preview = await platform.call('POST', `/groups/${acme}/change-sets/${zones.set}/preview`, { token: admin })
    expect(preview.status).toBe(200)
    expect(preview.json).toMatchObject({ objects: 3, changed: 2, unchanged: 1, conflicts: 0 })
    const rows = await objects(zones.set!)
    expect(rows.map((r) => [r.name, r.preview])).toEqual([
      ['a.mail.cs.test', 'change'],
      ['b.mail.cs.test', 'change'],
      ['c.mail.cs.test', 'unchanged'],
    ])
    // a: its MX replaced, its SPF replaced, the other TXT kept.
    expect(rows[0]!.diff).toContain('- a.mail.cs.test MX 10 mx.old.example.')
    expect(rows[0]!.diff).toContain('- a.mail.cs.test TXT "v=spf1 a -all"')
    expect(rows[0]!.diff).toContain('+ a.mail.cs.test TXT "v=spf1 include:_spf.google.com ~all"')
    expect(rows[0]!.diff).not.toContain('google-site-verification')
    expect(rows[0]).toMatchObject({ added: 6, removed: 2 })
    // Nothing was sent.
    expect(await records(zones.a)).toContain('a.mail.cs.test MX 10 mx.old.example.')

    // Another account's set is not found; the viewer reads it.
    expect((await platform.call('GET', `/groups/${globex}/change-sets/${zones.set}`, { token: otherAdmin })).status).toBe(404)
    expect((await platform.call('GET', `/groups/${acme}/change-sets/${zones.set}`, { token: viewer })).status).toBe(200)
    expect((await platform.call('POST', `/groups/${acme}/change-sets/${zones.set}/start`, { token: viewer })).status).toBe(403)
  })

  it('finds a CNAME beside other data as a conflict, never sent', async () => {
    zones.cname = await zone('cname.cs.test', [{ action: 'add', name: 'www', type: 'CNAME', content: 'elsewhere.example.' }])
    const created = await platform.call('POST', `/groups/${acme}/change-sets`, {
      token: admin,
      body: {
        name: 'www address',
        filter: "name equals 'cname.cs.test' and name ends_with '.test'",
        change: { kind: 'dns', operations: [{ op: 'add', name: 'www', type: 'A', content: '192.0.2.7' }] },
      },
    })
    expect(created.status).toBe(201)
    const preview = await platform.call('POST', `/groups/${acme}/change-sets/${created.json.id}/preview`, { token: admin })
    expect(preview.json).toMatchObject({ objects: 1, conflicts: 1, changed: 0 })
    expect((await objects(created.json.id))[0]!.diff).toContain('a CNAME beside other data at www.cname.cs.test')
    const start = await platform.call('POST', `/groups/${acme}/change-sets/${created.json.id}/start`, { token: admin })
    expect(start.status).toBe(409)
    expect(start.json.code).toBe('change_set.nothing_to_change')
  })

  it('rolls out in stages with a check between them, each zone changed once, outcomes kept', async () => {
    const started = await platform.call('POST', `/groups/${acme}/change-sets/${zones.set}/start`, { token: admin })
    expect(started.status, JSON.stringify(started.json)).toBe(200)
    expect(started.json.state).toBe('running')
    const done = await until(
      () => getSet(zones.set!),
      (s) => s.state === 'completed',
      'the rollout',
    )
    expect(done.progress.map((p: any) => [p.stage, p.objects, p.applied])).toEqual([
      [0, 1, 1],
      [1, 1, 1],
    ])
    expect(done.checks).toHaveLength(2)
    expect(done.checks.every((c: any) => c.ok)).toBe(true)
    expect((await objects(zones.set!)).map((r) => [r.name, r.outcome])).toEqual([
      ['a.mail.cs.test', 'applied'],
      ['b.mail.cs.test', 'applied'],
      ['c.mail.cs.test', 'unchanged'],
    ])
    const a = await records(zones.a!)
    expect(a).toContain('a.mail.cs.test MX 1 aspmx.l.google.com.')
    expect(a).toContain('a.mail.cs.test TXT "google-site-verification=x"')
    expect(a).not.toContain('a.mail.cs.test MX 10 mx.old.example.')
    expect((await records(zones.other!)).some((r) => r.includes('aspmx'))).toBe(false)

    // A crash after a zone's change committed, before its item was marked: the stage runs again
    // and finds nothing left to do in that zone (its serial stays, no record twice).
    const stageJob = (await platform.db.selectFrom('change_sets').select('stage_jobs').where('id', '=', zones.set!).executeTakeFirstOrThrow()).stage_jobs[0]!
    const serial = async () => (await platform.db.selectFrom('dns_zones').select('serial').where('id', '=', zones.a!).executeTakeFirstOrThrow()).serial
    const before = await serial()
    await platform.database.pool.query(`UPDATE bulk_job_items SET state = 'pending', ok = NULL, outcome = NULL WHERE job_id = $1`, [stageJob])
    await platform.database.pool.query(`UPDATE bulk_jobs SET state = 'running', done = 0 WHERE id = $1`, [stageJob])
    await runStage(platform.deps, stageJob)
    expect(await serial()).toBe(before)
    expect((await records(zones.a!)).filter((r) => r.includes('MX 1 aspmx'))).toHaveLength(1)
    const item = (await platform.database.pool.query(`SELECT outcome, attempts FROM bulk_job_items WHERE job_id = $1`, [stageJob])).rows[0]
    expect(item).toMatchObject({ outcome: 'applied', attempts: 2 })
  }, 60_000)
})

describe('approval of a change set', () => {
  it("waits for N of the account's approvers (never its author), audited, mailed, started by the last approval or ended by a rejection", async () => {
    const previous = (await platform.call('GET', `/groups/${acme}/material-approvers`, { token: admin })).json.emails as string[]
    // Every set of Acme waits for one approval; the approvers are Legal (no portal user), the viewer and the admin.
    expect((await platform.call('PUT', `/groups/${acme}/change-set-approval-rule`, { token: viewer, body: { required: 1, every_set: true } })).status).toBe(403)
    expect((await platform.call('PUT', `/groups/${acme}/material-approvers`, { token: admin, body: { emails: ['legal@acme.example', 'viewer@acme.example', 'admin@acme.example'] } })).status).toBe(200)
    const rule = await platform.call('PUT', `/groups/${acme}/change-set-approval-rule`, { token: admin, body: { required: 1, every_set: true } })
    expect(rule.json).toMatchObject({ required: 1, every_set: true })
    try {
      const zoneId = await zone('approved.cs.test', [])
      const make = async (name: string, address: string) => {
        const created = await platform.call('POST', `/groups/${acme}/change-sets`, {
          token: admin,
          body: { name, filter: "name equals 'approved.cs.test'", change: { kind: 'dns', operations: [{ op: 'add', name: 'www', type: 'A', content: address }] }, stages: [100] },
        })
        expect(created.status).toBe(201)
        const started = await platform.call('POST', `/groups/${acme}/change-sets/${created.json.id}/start`, { token: admin })
        expect(started.status, JSON.stringify(started.json)).toBe(200)
        return started.json
      }
      const set = await make('Approved address', '192.0.2.44')
      // One request naming the set's objects; the author is not among its approvers; nothing sent.
      expect(set).toMatchObject({ state: 'awaiting_approval', approval: { reason: 'account', required: 1, approvers: ['legal@acme.example', 'viewer@acme.example'], can_decide: false } })
      expect(await records(zoneId)).not.toContain('www.approved.cs.test A 192.0.2.44')
      const mail = await smtp.waitFor((m) => m.envelopeTo.includes('viewer@acme.example') && (m.text ?? '').includes(set.id), 30_000)
      expect(mail.subject).toContain('Approved address')
      const decide = (token: string, id: string, decision: string) => platform.call('POST', `/groups/${acme}/change-sets/${id}/decision`, { token, body: { decision, comment: 'looked at it' } })
      expect((await decide(admin, set.id, 'approve')).json.code).toBe('change_set.own_set')
      expect((await decide(otherAdmin, set.id, 'approve')).status).toBe(404)
      expect((await decide(staff, set.id, 'approve')).json.code).toBe('change_set.not_approver')
      expect((await platform.call('GET', `/groups/${acme}/change-sets/${set.id}`, { token: viewer })).json.approval.can_decide).toBe(true)
      const approved = await decide(viewer, set.id, 'approve')
      expect(approved.status, JSON.stringify(approved.json)).toBe(200)
      expect(approved.json.approval.decisions).toMatchObject([{ email: 'viewer@acme.example', decision: 'approve', comment: 'looked at it' }])
      expect((await decide(viewer, set.id, 'approve')).json.code).toBe('change_set.not_awaiting')
      await until(
        () => getSet(set.id),
        (s) => s.state === 'completed',
        'the approved rollout',
      )
      expect(await records(zoneId)).toContain('www.approved.cs.test A 192.0.2.44')
      const audit = await platform.db.selectFrom('audit_entries').select(['action', 'actor_label']).where('entity_id', '=', set.id).orderBy('occurred_at').execute()
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['request_approval', 'approve', 'start']))

      // Two of three: one approval leaves it waiting; a rejection ends it, nothing sent.
      await platform.call('PUT', `/groups/${acme}/change-set-approval-rule`, { token: admin, body: { required: 2, every_set: true } })
      const second = await platform.call('POST', `/groups/${acme}/change-sets`, {
        token: admin,
        body: { name: 'Two of three', filter: "name equals 'approved.cs.test'", change: { kind: 'dns', operations: [{ op: 'add', name: 'two', type: 'A', content: '192.0.2.45' }] }, stages: [100] },
      })
      expect((await platform.call('POST', `/groups/${acme}/change-sets/${second.json.id}/start`, { token: admin })).json).toMatchObject({ state: 'awaiting_approval', approval: { required: 2 } })
      expect((await decide(viewer, second.json.id, 'approve')).json).toMatchObject({ state: 'awaiting_approval' })
      const third = await make('Rejected address', '192.0.2.47')
      expect(third.approval.required).toBe(2)
      expect((await decide(viewer, third.id, 'reject')).json.state).toBe('rejected')
      expect((await platform.call('POST', `/groups/${acme}/change-sets/${second.json.id}/cancel`, { token: admin })).json.state).toBe('cancelled')
      expect((await records(zoneId)).filter((r) => r.includes('192.0.2.45'))).toEqual([])
      // More approvals asked than approvers other than the author: refused, beside what to do.
      await platform.call('PUT', `/groups/${acme}/change-set-approval-rule`, { token: admin, body: { required: 3, every_set: true } })
      const fourth = await platform.call('POST', `/groups/${acme}/change-sets`, {
        token: admin,
        body: {
          name: 'Too few approvers',
          filter: "name equals 'approved.cs.test'",
          change: { kind: 'dns', operations: [{ op: 'add', name: 'four', type: 'A', content: '192.0.2.46' }] },
          stages: [100],
        },
      })
      expect((await platform.call('POST', `/groups/${acme}/change-sets/${fourth.json.id}/start`, { token: admin })).json.code).toBe('change_set.approvers_missing')
    } finally {
      await platform.call('PUT', `/groups/${acme}/change-set-approval-rule`, { token: admin, body: { required: 1, every_set: false } })
      await platform.call('PUT', `/groups/${acme}/material-approvers`, { token: admin, body: { emails: previous } })
    }
  }, 60_000)
})

describe('change sets over domains', () => {
  it("turns a domain's registry lock over through a set and back, and previews a nameserver change on a locked domain as the registry's refusal", async () => {
    const domain = await platform.db.selectFrom('domains').select(['id', 'name', 'registry_lock']).where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()
    const initial = domain.registry_lock
    const make = async (name: string, change: unknown) => {
      const created = await platform.call('POST', `/groups/${acme}/change-sets`, { token: admin, body: { name, filter: `name equals '${domain.name}'`, change, stages: [100] } })
      expect(created.status, JSON.stringify(created.json)).toBe(201)
      return created.json.id as string
    }
    const lockIs = async () => (await platform.db.selectFrom('domains').select('registry_lock').where('id', '=', domain.id).executeTakeFirstOrThrow()).registry_lock
    const nameserversRefused = async () => {
      const moved = await make('New nameservers', { kind: 'nameservers', nameservers: ['ns1.moved.example', 'ns2.moved.example'] })
      expect((await platform.call('POST', `/groups/${acme}/change-sets/${moved}/preview`, { token: admin })).json).toMatchObject({ changed: 0, conflicts: 1 })
      expect((await objects(moved))[0]!.diff).toContain('Registry lock on')
    }
    for (const value of [!initial, initial]) {
      if (await lockIs()) await nameserversRefused()
      const id = await make(value ? 'Lock the brand' : 'Unlock the brand', { kind: 'registry_lock', value })
      expect((await platform.call('POST', `/groups/${acme}/change-sets/${id}/preview`, { token: admin })).json).toMatchObject({ changed: 1 })
      expect((await objects(id))[0]!.diff).toBe(value ? '- registry lock off\n+ registry lock on' : '- registry lock on\n+ registry lock off')
      expect((await platform.call('POST', `/groups/${acme}/change-sets/${id}/start`, { token: admin })).status).toBe(200)
      const done = await until(
        () => getSet(id),
        (s) => s.state === 'completed',
        'the lock rollout',
      )
      // No registry in this test: the check says it could not ask one.
      expect(done.checks[0]).toMatchObject({ ok: true, skipped: 'registry' })
      expect(await lockIs()).toBe(value)
    }
  })
})

describe('policies and their drift', () => {
  it('finds the zones a policy would change, keeps since when they drift, and fixes them with a change set', async () => {
    const body = {
      name: 'DMARC reject on mail zones',
      filter: "name ends_with '.mail.cs.test'",
      change: { kind: 'dns', operations: [{ op: 'replace', name: '_dmarc', type: 'TXT', contents: ['"v=DMARC1; p=reject"'] }] },
    }
    // What every zone must be is the area admin's: a viewer may not say it.
    expect((await platform.call('POST', `/groups/${acme}/change-set-policies`, { token: viewer, body })).status).toBe(403)
    const created = await platform.call('POST', `/groups/${acme}/change-set-policies`, { token: admin, body })
    expect(created.status, JSON.stringify(created.json)).toBe(201)
    const id = created.json.id as string
    const evaluate = async () => (await platform.call('POST', `/groups/${acme}/change-set-policies/${id}/evaluate`, { token: viewer })).json
    expect(await evaluate()).toMatchObject({ objects: 3, drifting: 3 })
    const drift = async () => (await platform.call('GET', `/groups/${acme}/change-set-policies/${id}/drift?limit=100`, { token: viewer })).json.data as Record<string, any>[]
    const first = await drift()
    expect(first.map((d) => d.name)).toEqual(['a.mail.cs.test', 'b.mail.cs.test', 'c.mail.cs.test'])
    expect(first[0]!.diff).toContain('+ _dmarc.a.mail.cs.test TXT "v=DMARC1; p=reject"')

    // A change made outside any set puts one zone in line: it leaves the list, the others keep their since.
    const a = (await platform.db.selectFrom('dns_zones').select('id').where('name', '=', 'a.mail.cs.test').executeTakeFirstOrThrow()).id
    const added = await platform.call('POST', `/groups/${acme}/zones/${a}/changes`, {
      token: admin,
      body: { changes: [{ action: 'add', name: '_dmarc', type: 'TXT', content: '"v=DMARC1; p=reject"' }] },
    })
    expect(added.status).toBe(200)
    expect(await evaluate()).toMatchObject({ objects: 3, drifting: 2 })
    const second = await drift()
    expect(second.map((d) => d.name)).toEqual(['b.mail.cs.test', 'c.mail.cs.test'])
    expect(second[0]!.since).toBe(first[1]!.since)

    // Another account does not see it; fix makes a change set of the drifting zones, previewed.
    expect((await platform.call('GET', `/groups/${globex}/change-set-policies/${id}`, { token: otherAdmin })).status).toBe(404)
    const fix = await platform.call('POST', `/groups/${acme}/change-set-policies/${id}/fix`, { token: admin })
    expect(fix.status, JSON.stringify(fix.json)).toBe(201)
    expect(fix.json).toMatchObject({ state: 'draft', preview: { objects: 3, changed: 2, unchanged: 1 } })
    // Rolled out, the set has the policy evaluated again: nothing drifts any more.
    expect((await platform.call('POST', `/groups/${acme}/change-sets/${fix.json.id}/start`, { token: admin })).status).toBe(200)
    await until(
      async () => (await platform.call('GET', `/groups/${acme}/change-set-policies/${id}`, { token: viewer })).json,
      (p) => p.drifting === 0,
      'the policy evaluated after the fix',
    )
    expect(await drift()).toEqual([])
  })
})

describe.runIf(powerDnsInstalled())('a stage PowerDNS refuses is rolled back', () => {
  it('applies the canary, sees PowerDNS refuse the next stage, and puts that zone back as it was', async () => {
    const one = await zone('one.pdns-cs.test', [{ action: 'add', name: 'www', type: 'A', content: '192.0.2.1' }], true)
    const two = await zone('two.pdns-cs.test', [], true)
    const published = (id: string) => platform.db.selectFrom('dns_zones').select(['publish_state', 'serial', 'published_serial']).where('id', '=', id).executeTakeFirstOrThrow()
    for (const id of [one, two])
      await until(
        () => published(id),
        (z) => z.publish_state === 'published' && z.serial === z.published_serial,
        'first publish',
      )
    // Someone put a CNAME at www.two straight into PowerDNS: an A beside it is refused there.
    await createPowerDnsClient(pdns!.settings).patchRrsets('two.pdns-cs.test', [
      { name: 'www.two.pdns-cs.test.', type: 'CNAME', ttl: 300, changetype: 'REPLACE', records: [{ content: 'elsewhere.example.', disabled: false }] },
    ])
    const created = await platform.call('POST', `/groups/${acme}/change-sets`, {
      token: admin,
      body: {
        name: 'New web address',
        filter: "name ends_with '.pdns-cs.test'",
        change: { kind: 'dns', operations: [{ op: 'replace', name: 'www', type: 'A', contents: ['198.51.100.9'] }] },
        stages: [50, 100],
      },
    })
    expect(created.status).toBe(201)
    expect((await platform.call('POST', `/groups/${acme}/change-sets/${created.json.id}/start`, { token: admin })).status).toBe(200)
    const done = await until(
      () => getSet(created.json.id),
      (s) => s.state === 'rolled_back',
      'the rollback',
      60_000,
    )
    expect(done.checks[0]).toMatchObject({ stage: 0, ok: true })
    expect(done.checks[0].checked).toBeGreaterThan(0)
    expect(done.checks[1]).toMatchObject({ stage: 1, ok: false })
    expect(done.checks[1].failures[0].reason).toContain('PowerDNS refused')
    expect((await objects(created.json.id)).map((r) => [r.name, r.outcome])).toEqual([
      ['one.pdns-cs.test', 'applied'],
      ['two.pdns-cs.test', 'rolled_back'],
    ])
    // dig: the canary serves the new address; the rolled-back zone serves what it served before.
    expect(await pdns!.dig('www.one.pdns-cs.test', 'A')).toEqual(['198.51.100.9'])
    expect(await records(two)).not.toContain('www.two.pdns-cs.test A 198.51.100.9')
    await until(
      () => published(two),
      (z) => z.publish_state === 'published',
      'the zone published again after its rollback',
    )
    expect(await pdns!.dig('www.two.pdns-cs.test', 'CNAME')).toEqual(['elsewhere.example.'])
  }, 120_000)
})
