import { createServer, type Server } from 'node:net'
import punycode from 'punycode/punycode.js'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EppRegistryConnection, REGISTRY_THROTTLE_MESSAGE } from '#server/integrations/registry/index.ts'
import { TokenBucket } from '#server/integrations/registry/rate-limit.ts'
import { createMailer } from '#server/integrations/mail/mailer.ts'
import { createLogger } from '#server/lib/logger.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { reconcileDomains, runAutoRenew, runExpiryNotices } from '#server/platform/domains/jobs.ts'
import { pollRegistries } from '#server/platform/domains/poll.ts'
import { syncContactHandles } from '#server/platform/contacts/registry-sync.ts'
import { createContact, updateContact, upsertRegistryHandle } from '#server/platform/contacts/service.ts'
import { registerDomain, transferInDomain } from '#server/platform/domains/lifecycle.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { createTestPlatform, TEST_CONFIG } from '#tests/support/platform.ts'
import { startSmtpCapture, type SmtpCapture } from '#tests/support/smtp.ts'

// Every operation runs the real EPP client over TLS against the local registry (which validates
// each frame against the RFC schemas). One clock drives the registry and the platform, so grace
// periods and expiry windows need no waiting.

const DAY = 86_400_000
let clock = new Date('2031-05-01T09:00:00.000Z')
const now = () => clock
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let smtp: SmtpCapture
let acme: string
let token: string
let viewerToken: string

const registry = () => platform.registries!.local!.registry
const connection = () => platform.registries!.forTld('com') as EppRegistryConnection
const count = async (table: 'domains' | 'audit_entries') =>
  (
    await platform.db
      .selectFrom(table)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n
const snapshot = async () => ({ domains: await count('domains'), audit: await count('audit_entries'), registry: Object.keys(registry().state.domains).length })
let tokenTime = 0
const login = async (username: string) => (await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })).json.access_token as string
// Tokens expire on the shared clock: sign in again after the clock has moved.
async function call(method: string, path: string, body?: unknown, as: 'admin' | 'viewer' = 'admin') {
  if (tokenTime !== clock.getTime()) {
    token = await login('admin@acme.example')
    viewerToken = await login('viewer@acme.example')
    tokenTime = clock.getTime()
  }
  return platform.call(method, `/groups/${acme}${path}`, { token: as === 'admin' ? token : viewerToken, ...(body !== undefined ? { body } : {}) })
}

beforeAll(async () => {
  smtp = await startSmtpCapture()
  const config = { ...TEST_CONFIG, SMTP_URL: smtp.url }
  platform = await createTestPlatform(
    { now, config, mailer: createMailer(config, createLogger('silent')) },
    {
      registry: {
        tlds: [
          { name: 'com', periods: [1, 2, 5] },
          { name: 'net', periods: [1] },
        ],
        now,
        rateLimit: { perSecond: 20, burst: 1000 },
      },
    },
  )
  await platform.deps.jobs.start({ work: true })
  await seedDemo(platform.db, createLogger('silent'), { domainsPerAccount: [3, 1] })
  // Our catalogue allows 3 years for .com; the registry does not: the registry's refusal must show.
  await platform.db
    .updateTable('tlds')
    .set({ periods: [1, 2, 3, 5] })
    .where('name', '=', 'com')
    .execute()
  await platform.db.updateTable('tlds').set({ is_offered: false }).where('name', '=', 'org').execute()
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
})
afterAll(async () => {
  await platform?.close()
  await smtp?.close()
})

describe('availability', () => {
  it('asks the registry and explains every bad name', async () => {
    await registerDomain(platform.deps, systemScope('test', acme), { name: 'taken-already.com', period: 1 })
    const notRoundTrip = `xn--${punycode.encode('e\u0301x')}.com`
    const res = await call('POST', '/domains/availability', {
      names: ['fresh-name.com', 'taken-already.com', 'bad..com', 'ab--cd.com', 'xn--bcher-kva.com', 'name.notatld', notRoundTrip, '-edge.com', 'plain.org', 'xn--80ak6aa92e.com'],
    })
    expect(res.status).toBe(200)
    const [fresh, taken, empty, hyphens, validIdn, unknownTld, idn, edge, unoffered, cyrillic] = res.json.results
    expect(fresh).toEqual({ name: 'fresh-name.com', available: true, price: { minor: 1499, currency: 'USD' } }) // Acme's price list, in Acme's currency (issue 17)
    expect(taken).toMatchObject({ name: 'taken-already.com', available: false })
    expect(empty.reason).toMatch(/empty label/)
    expect(hyphens.reason).toMatch(/hyphens in places 3 and 4/)
    expect(validIdn).toMatchObject({ name: 'xn--bcher-kva.com', available: true })
    // .com takes Latin labels unless its catalogue entry says more (issue 26, decision 104).
    expect(cyrillic).toMatchObject({ name: 'xn--80ak6aa92e.com', available: false, reason: expect.stringMatching(/does not take labels in this script/) })
    expect(unknownTld.reason).toMatch(/not in the list of TLDs/)
    expect(idn.reason).toMatch(/does not round-trip/)
    expect(edge.reason).toMatch(/starts or ends with a hyphen/)
    expect(unoffered.reason).toMatch(/\.org is not offered/)
  })

  it('answers a name with a space in it as one refused name that says so (issue 28)', async () => {
    const res = await call('POST', '/domains/availability', { names: ['bad name.com', 'bad name'] })
    expect(res.status).toBe(200)
    expect(res.json.results).toEqual([
      { name: 'bad name.com', available: false, reason: 'A domain name has no spaces: bad name.com' },
      { name: 'bad name', available: false, reason: 'A domain name has no spaces: bad name' },
    ])
  })
})

describe('register, transfer, renew', () => {
  it('registers at the registry first, then records the registry’s dates', async () => {
    const domain = await registerDomain(platform.deps, systemScope('test', acme), { name: 'Brand-New.com', period: 2 })
    const atRegistry = registry().state.domains['brand-new.com']!
    expect(atRegistry.clID).toBe('portal')
    expect(domain.expires_at!.toISOString()).toBe(new Date(atRegistry.exDate).toISOString())
    expect(domain.expires_at!.getTime() - clock.getTime()).toBeGreaterThan(700 * DAY)
    const detail = await call('GET', `/domains/${domain.id}`, undefined, 'viewer')
    expect(detail.json).toMatchObject({ name: 'brand-new.com', status: 'active', statuses: ['inactive'] })
  })

  it('fails on bad input with nothing changed: invalid name, a period outside the catalogue, a period the registry refuses, a name that exists, a transfer without auth code', async () => {
    const before = await snapshot()
    const scope = systemScope('test', acme)
    await expect(registerDomain(platform.deps, scope, { name: 'ab--cd.com', period: 1 })).rejects.toMatchObject({ status: 400, message: /hyphens in places 3 and 4/ })
    await expect(registerDomain(platform.deps, scope, { name: 'nice-name.com', period: 4 })).rejects.toMatchObject({ status: 400, message: /does not allow a period of 4 years/ })
    // 3 years passes our catalogue, the registry's policy refuses it: its message is the error.
    const refused = await registerDomain(platform.deps, scope, { name: 'nice-name.com', period: 3 }).catch((e: unknown) => e)
    expect(refused).toMatchObject({ code: 'registry-error' })
    expect((refused as Error).message).toMatch(/Parameter value (range|policy) error/)
    // Exists at the registry (registered by a direct client call, not recorded here).
    await connection().createDomain({ name: 'exists-at-registry.com', years: 1, authInfo: 'secret-A1x' })
    const exists = await registerDomain(platform.deps, scope, { name: 'exists-at-registry.com', period: 1 }).catch((e: unknown) => e)
    expect(exists).toMatchObject({ status: 409, code: 'registry-error', message: /Object exists/ })
    await expect(transferInDomain(platform.deps, scope, { name: 'exists-at-registry.com', auth_code: '' })).rejects.toMatchObject({ status: 400, message: /auth code/ })
    const after = await snapshot()
    expect(after).toEqual({ ...before, registry: before.registry + 1 })
    expect(await platform.db.selectFrom('domains').select('id').where('name', 'in', ['nice-name.com', 'exists-at-registry.com']).execute()).toEqual([])
  })

  it('a registry that does not answer: the item fails with the time-out and nothing changes', async () => {
    const sockets = new Set<import('node:net').Socket>()
    const silent: Server = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const dead = new EppRegistryConnection({
      registry: 'silent',
      client: { host: '127.0.0.1', port: (silent.address() as import('node:net').AddressInfo).port, timeoutMs: 300 },
      clientId: 'portal',
      password: 'whatever1',
    })
    try {
      const before = await snapshot()
      const deps = { ...platform.deps, registries: { forTld: () => dead, clientIdFor: () => 'portal', close: async () => {} } }
      const error = await registerDomain(deps, systemScope('test', acme), { name: 'never-answered.com', period: 1 }).catch((e: unknown) => e)
      expect(error).toMatchObject({ status: 503, code: 'registry-unavailable' })
      expect((error as Error).message).toMatch(/could not be reached \(.*(300|time)/i)
      expect(await snapshot()).toEqual(before)
    } finally {
      await dead.close()
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => silent.close(() => resolve()))
    }
  })

  it('renews through the API for an allowed period; a refused period changes nothing', async () => {
    const domain = await registerDomain(platform.deps, systemScope('test', acme), { name: 'renew-me.com', period: 1 })
    const res = await call('POST', `/domains/${domain.id}/renew`, { period: 2 })
    expect(res.status, res.text).toBe(200)
    expect(new Date(res.json.expires_at).toISOString()).toBe(new Date(registry().state.domains['renew-me.com']!.exDate).toISOString())
    expect(new Date(res.json.expires_at).getTime() - domain.expires_at!.getTime()).toBeGreaterThan(729 * DAY)
    const bad = await call('POST', `/domains/${domain.id}/renew`, { period: 3 })
    expect(bad.status).toBe(422)
    expect(bad.json.detail).toMatch(/Parameter value/)
    const viewer = await call('POST', `/domains/${domain.id}/renew`, { period: 1 }, 'viewer')
    expect(viewer.status).toBe(403)
  })

  it('a transfer the registry refuses fails with the registry’s message and records nothing', async () => {
    // At the registry already, with us as its sponsor (a direct client call), and not recorded here.
    await connection().createDomain({ name: 'ours-not-recorded.com', years: 1, authInfo: 'secret-A1x' })
    const error = await transferInDomain(platform.deps, systemScope('test', acme), { name: 'ours-not-recorded.com', auth_code: 'wrong-code' }).catch((e: unknown) => e)
    // We are already the sponsor at the registry, which it refuses with its own message.
    expect(error).toMatchObject({ code: 'registry-error' })
    expect((error as Error).message).toMatch(/sponsor|Object status prohibits|already/i)
    expect(await platform.db.selectFrom('domains').select('id').where('name', '=', 'ours-not-recorded.com').execute()).toEqual([])
  })
})

describe('deletion under RFC 3915', () => {
  it('refunds inside add grace, otherwise redemption; restore brings it back; failures are per domain', async () => {
    const scope = systemScope('test', acme)
    const young = await registerDomain(platform.deps, scope, { name: 'young.com', period: 1 })
    clock = new Date(clock.getTime() + 10 * DAY)
    const older = await registerDomain(platform.deps, scope, { name: 'older.com', period: 1 })
    clock = new Date(clock.getTime() + 10 * DAY)
    const locked = await registerDomain(platform.deps, scope, { name: 'locked.com', period: 1 })
    await platform.db.updateTable('domains').set({ registry_lock: true }).where('id', '=', locked.id).execute()
    const res = await call('POST', '/domains/deletions', { ids: [older.id, locked.id] })
    expect(res.status).toBe(200)
    expect(res.json.results[0]).toMatchObject({ id: older.id, ok: true, outcome: 'redemption' })
    expect(res.json.results[1]).toMatchObject({ id: locked.id, ok: false, error: { status: 409 } })
    expect(registry().state.domains['locked.com']).toBeDefined()
    expect((await call('GET', `/domains/${older.id}`)).json.status).toBe('redemption')
    // young.com was created 20 days ago: outside the 5-day add grace too.
    const young2 = await registerDomain(platform.deps, scope, { name: 'young-two.com', period: 1 })
    const refund = await call('POST', '/domains/deletions', { ids: [young2.id] })
    expect(refund.json.results[0]).toMatchObject({ ok: true, outcome: 'add-grace-refund' })
    expect(registry().state.domains['young-two.com']).toBeUndefined()
    expect((await call('GET', `/domains/${young2.id}`)).status).toBe(404)

    const restored = await call('POST', `/domains/${older.id}/restore`)
    expect(restored.status, restored.text).toBe(200)
    expect(restored.json.status).toBe('active')
    expect((await call('POST', `/domains/${young.id}/restore`)).status).toBe(409)
  })
})

describe('deletion refused for host objects under the domain (RFC 5731 §3.2.2)', () => {
  it('answers 2305 as domain.subordinate_hosts naming them, and nothing changes here or at the registry', async () => {
    const scope = systemScope('test', acme)
    const parent = await registerDomain(platform.deps, scope, { name: 'glue-parent.com', period: 1 })
    await connection().createHost({ name: 'ns1.glue-parent.com', addresses: [{ ip: 'v4', address: '192.0.2.10' }] })
    const before = await snapshot()
    const res = await call('POST', '/domains/deletions', { ids: [parent.id] })
    expect(res.status).toBe(200)
    expect(res.json.results[0]).toMatchObject({
      id: parent.id,
      ok: false,
      error: { status: 409, code: 'domain.subordinate_hosts', registry_code: 2305, hosts: ['ns1.glue-parent.com'], message: expect.stringMatching(/ns1\.glue-parent\.com/) },
    })
    expect(registry().state.domains['glue-parent.com']?.redemptionUntil).toBeUndefined()
    expect(registry().state.hosts['ns1.glue-parent.com']).toBeDefined()
    expect((await call('GET', `/domains/${parent.id}`)).json.status).toBe('active')
    expect(await snapshot()).toEqual(before)
    // Once the host is gone, the same delete goes through.
    await connection().deleteHost('ns1.glue-parent.com')
    expect((await call('POST', '/domains/deletions', { ids: [parent.id] })).json.results[0]).toMatchObject({ ok: true })
  })
})

describe('imports', () => {
  it('runs as a job: each line validated, checked at the registry (must be ours), recorded, with a result per line', async () => {
    const c = connection()
    await registerDomain(platform.deps, systemScope('test', acme), { name: 'in-portfolio.com', period: 1 })
    await c.createDomain({ name: 'ours-unrecorded.com', years: 1, authInfo: 'secret-A1x' })
    await c.createDomain({ name: 'someone-elses.com', years: 1, authInfo: 'secret-A1x' })
    registry().state.domains['someone-elses.com']!.clID = 'other-registrar'
    // A name of another of our clients: refused without saying whose it is.
    const globexDomain = (
      await platform.db.selectFrom('domains').innerJoin('accounts', 'accounts.id', 'domains.account_id').select('domains.name').where('accounts.name', '=', 'Globex').executeTakeFirstOrThrow()
    ).name
    const csv = `name,notes\nours-unrecorded.com,x\nsomeone-elses.com,y\nnot-registered.com,z\nab--cd.com,w\nin-portfolio.com,v\n${globexDomain},u\n`
    const started = await call('POST', '/domains/imports', { csv })
    expect(started.status, started.text).toBe(202)
    let job = (await call('GET', `/domains/imports/${started.json.job_id}`)).json
    // The poll ends well before the test's own time-out, so a stuck job fails here with its state.
    const deadline = Date.now() + 60_000
    while (job.state !== 'completed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      job = (await call('GET', `/domains/imports/${started.json.job_id}`)).json
    }
    expect(job).toMatchObject({ state: 'completed', total: 6, done: 6 })
    const [ours, others, unknown, invalid, already, elsewhere] = job.results
    expect(ours).toMatchObject({ line: 1, name: 'ours-unrecorded.com', ok: true })
    expect(others.error).toMatch(/sponsored by another registrar/)
    expect(unknown.error).toMatch(/does not know not-registered.com/)
    expect(invalid.error).toMatch(/hyphens in places 3 and 4/)
    expect(already.error).toMatch(/Already in this portfolio/)
    expect(elsewhere).toMatchObject({ line: 6, name: globexDomain, ok: false, error: 'This domain cannot be added to this portfolio' })
    const recorded = await platform.db.selectFrom('domains').selectAll().where('name', '=', 'ours-unrecorded.com').executeTakeFirstOrThrow()
    expect(recorded.expires_at!.toISOString()).toBe(new Date(registry().state.domains['ours-unrecorded.com']!.exDate).toISOString())
    const tooMany = await call('POST', '/domains/imports', { csv: Array.from({ length: 10_001 }, () => 'a.co').join('\n') })
    expect(tooMany.status).toBe(400)
  }, 90_000)
})

describe('reconciliation, platform calls, auto-renew and notices', () => {
  it('stores every difference between registry and records, shows it on the detail and in the list', async () => {
    const domain = await registerDomain(platform.deps, systemScope('test', acme), { name: 'drifting.com', period: 1 })
    // The registry moves on without us: renewed directly, a nameserver-free host change is enough.
    await connection().renewDomain({ name: 'drifting.com', currentExpiry: domain.expires_at!, years: 1 })
    const result = await reconcileDomains(platform.deps, { accountId: acme, domainIds: [domain.id] })
    const found = await platform.db.selectFrom('domain_differences').selectAll().where('domain_id', '=', domain.id).execute()
    expect(found.map((f) => [f.field, f.ours, f.registry])).toEqual([['expires_at', domain.expires_at!.toISOString(), expect.any(String)]])
    expect(result.differences).toBe(1)
    const detail = (await call('GET', `/domains/${domain.id}`)).json
    expect(detail.reconciliation.differences).toEqual([expect.objectContaining({ field: 'expires_at', ours: domain.expires_at!.toISOString() })])
    const list = await call('GET', `/domains/reconciliation-differences?pql=${encodeURIComponent("domain_name equals 'drifting.com'")}`)
    expect(list.json.data).toHaveLength(1)
    // The demo domains were never created at the registry: each is reported as missing there.
    await reconcileDomains(platform.deps, { accountId: acme })
    const missing = await call('GET', `/domains/reconciliation-differences?pql=${encodeURIComponent("field equals 'exists'")}`)
    expect(missing.json.meta.total).toBeGreaterThanOrEqual(3)
  })

  it('auto-renews what falls due; mails expiry notices once per domain and threshold', async () => {
    const domain = await registerDomain(platform.deps, systemScope('test', acme), { name: 'due-soon.com', period: 1 })
    const noRenew = await registerDomain(platform.deps, systemScope('test', acme), { name: 'no-auto.com', period: 1 })
    await platform.db.updateTable('domains').set({ auto_renew: false }).where('id', '=', noRenew.id).execute()
    clock = new Date(domain.expires_at!.getTime() - 5 * DAY)
    const renewed = await runAutoRenew(platform.deps)
    expect(renewed.find((r) => r.name === 'due-soon.com')).toMatchObject({ ok: true })
    expect(renewed.find((r) => r.name === 'no-auto.com')).toBeUndefined()
    const after = await platform.db.selectFrom('domains').select('expires_at').where('id', '=', domain.id).executeTakeFirstOrThrow()
    expect(after.expires_at!.toISOString()).toBe(new Date(registry().state.domains['due-soon.com']!.exDate).toISOString())

    const first = await runExpiryNotices(platform.deps)
    expect(first.mails).toBeGreaterThan(0)
    const mail = await smtp.waitFor((m) => m.text?.includes('no-auto.com') ?? false)
    expect(mail.envelopeTo).toContain('admin@acme.example')
    expect(mail.text).toMatch(/no-auto\.com: expires .* \(in 5 days\), auto-renew is OFF/)
    const again = await runExpiryNotices(platform.deps)
    expect(again.domains).toBe(0)
    clock = new Date(clock.getTime() + 4.5 * DAY)
    const last = await runExpiryNotices(platform.deps)
    expect(last.domains).toBeGreaterThanOrEqual(1)
  })

  // Last: it empties the rate limit's bucket.
  it('answers registrar.domain.info as a platform call, and 429 with the throttle text when throttled', async () => {
    // A domain of its own: the clock of the tests before has moved by a year.
    await registerDomain(platform.deps, systemScope('test', acme), { name: 'info-call.com', period: 1 })
    const res = await call('POST', '/platform_calls', { operation: 'registrar.domain.info', domain: 'info-call.com' })
    expect(res.status, res.text).toBe(200)
    expect(res.json.platform).toMatchObject({ status: 2000, result: { name: 'info-call.com', clientId: 'portal' } })
    expect(res.json.platform.result.authInfo).toBeUndefined()
    expect((await call('POST', '/platform_calls', { operation: 'registrar.domain.info', domain: 'not-ours.com' })).status).toBe(404)
    // An empty bucket that refills once an hour: a drained bucket of the configured 20/s would
    // have a token again by the time a slow machine sends the next call.
    const held = connection() as unknown as { bucket: TokenBucket }
    const configured = held.bucket
    held.bucket = new TokenBucket({ capacity: 1, perSecond: 1 / 3600 })
    held.bucket.take()
    try {
      const throttled = await call('POST', '/platform_calls', { operation: 'registrar.domain.info', domain: 'info-call.com' })
      expect(throttled.status).toBe(429)
      expect(throttled.json.detail).toBe(REGISTRY_THROTTLE_MESSAGE)
      expect(throttled.headers.get('retry-after')).toMatch(/^\d+$/)
    } finally {
      held.bucket = configured
    }
  })
})

describe('registry messages (poll)', () => {
  it('completes our transfer when the registry approves it, and lets a domain go when it is transferred away', async () => {
    const scope = systemScope('test', acme)
    // Sponsored by another registrar at the registry; we ask for it with its auth code.
    await connection().createDomain({ name: 'incoming.com', years: 1, authInfo: 'secret-In1x' })
    Object.assign(registry().state.domains['incoming.com']!, { clID: 'other-registrar', addGraceUntil: undefined })
    const { domain: requested } = await transferInDomain(platform.deps, scope, { name: 'incoming.com', auth_code: 'secret-In1x' })
    expect(requested.status).toBe('transferring')
    // The registry's waiting time runs out: it approves, and queues a notice for us.
    clock = new Date(clock.getTime() + 6 * DAY)
    registry().settle()

    // One of ours is taken by another registrar (approved at the registry).
    const leaving = await registerDomain(platform.deps, scope, { name: 'leaving.com', period: 1 })
    const record = registry().state.domains['leaving.com']!
    record.addGraceUntil = undefined
    record.transfer = { status: 'pending', reID: 'other-registrar', reDate: clock.toISOString(), acID: 'portal', acDate: clock.toISOString(), years: 1, exDate: record.exDate }
    registry().settle()

    const outcomes = await pollRegistries(platform.deps)
    expect(outcomes).toEqual(
      expect.arrayContaining([expect.objectContaining({ domain: 'incoming.com', outcome: 'transfer-completed' }), expect.objectContaining({ domain: 'leaving.com', outcome: 'transferred-away' })]),
    )
    const incoming = await platform.db.selectFrom('domains').select(['status', 'expires_at']).where('id', '=', requested.id).executeTakeFirstOrThrow()
    expect(incoming.status).toBe('active')
    expect(incoming.expires_at!.toISOString()).toBe(new Date(registry().state.domains['incoming.com']!.exDate).toISOString())
    expect((await platform.db.selectFrom('domains').select('status').where('id', '=', leaving.id).executeTakeFirstOrThrow()).status).toBe('deleted')
    const actions = await platform.db.selectFrom('audit_entries').select(['entity_id', 'action']).where('entity_id', 'in', [requested.id, leaving.id]).execute()
    expect(actions).toEqual(
      expect.arrayContaining([
        { entity_id: requested.id, action: 'transfer-completed' },
        { entity_id: leaving.id, action: 'transferred-away' },
      ]),
    )
    // Every message was acknowledged: the queue is empty, and a second run has nothing to do.
    expect(await connection().poll()).toBeNull()
    expect(await pollRegistries(platform.deps)).toEqual([])
  })
})

describe('contact sync', () => {
  it('pushes an edited contact to the registry that holds it; a refusal marks the handle failed with its message', async () => {
    const scope = systemScope('test', acme)
    const contact = await createContact(platform.db, scope, { name: 'Sync Person', email: 'sync@acme.example', country_code: 'DE', city: 'Berlin' })
    await connection().createContact({ id: 'SYNC-1', postalInfo: [{ type: 'int', name: 'Sync Person', city: 'Berlin', cc: 'DE' }], email: 'sync@acme.example', authInfo: 'Auth-Sync-1x' })
    await upsertRegistryHandle(platform.db, scope, { contact_id: contact.id, registry: 'local', handle: 'SYNC-1', sync_state: 'synced' })
    const ghost = await createContact(platform.db, scope, { name: 'Ghost Person', email: 'ghost@acme.example', country_code: 'ES', city: 'Madrid' })
    await upsertRegistryHandle(platform.db, scope, { contact_id: ghost.id, registry: 'local', handle: 'GHOST-1', sync_state: 'synced' })

    // The edits mark both handles pending; the job pushes them.
    await updateContact(platform.db, scope, contact.id, { version: contact.version, city: 'München', street1: 'Hauptstraße 1', phone: '+4930123456' })
    await updateContact(platform.db, scope, ghost.id, { version: ghost.version, city: 'Sevilla' })
    const results = await syncContactHandles(platform.deps)
    expect(results).toEqual(expect.arrayContaining([{ registry: 'local', handle: 'SYNC-1', state: 'synced' }, expect.objectContaining({ registry: 'local', handle: 'GHOST-1', state: 'failed' })]))
    const info = await connection().infoContact('SYNC-1')
    expect(info.postalInfo.find((p) => p.type === 'loc')).toMatchObject({ name: 'Sync Person', city: 'München', street: ['Hauptstraße 1'], cc: 'DE' })
    expect(info.postalInfo.find((p) => p.type === 'int')).toMatchObject({ name: 'Sync Person', city: 'Munchen', street: ['Hauptstra?e 1'], cc: 'DE' })
    expect(info.voice).toBe('+49.30123456')
    const handles = await platform.db
      .selectFrom('registry_handles')
      .select(['handle', 'sync_state', 'error', 'last_synced_at'])
      .where('handle', 'in', ['SYNC-1', 'GHOST-1'])
      .orderBy('handle')
      .execute()
    expect(handles[0]).toMatchObject({ handle: 'GHOST-1', sync_state: 'failed', error: expect.stringMatching(/GHOST-1|exist/i) })
    expect(handles[1]).toMatchObject({ handle: 'SYNC-1', sync_state: 'synced', error: null, last_synced_at: expect.any(Date) })
    // Nothing pending any more: the next run has nothing to do.
    expect(await syncContactHandles(platform.deps)).toEqual([])
  })
})
