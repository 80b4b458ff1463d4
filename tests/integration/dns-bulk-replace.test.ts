import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BULK_REPLACE_JOB, runReplaceJob } from '#server/platform/dns/bulk-replace.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// "Replace address X with Y in every zone that has it": a job with one item per zone, each zone
// changed through the change-set service (audited, serial bumped, publish queued).
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let admin: string
let viewer: string
let otherAdmin: string
let acme: string
let globex: string
const zones = { one: '', two: '', none: '', foreign: '' }

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

async function zone(context: string, token: string, name: string, changes: unknown[]) {
  const created = await platform.call('POST', `/groups/${context}/zones`, { token, body: { name } })
  expect(created.status).toBe(201)
  const applied = await platform.call('POST', `/groups/${context}/zones/${created.json.id}/changes`, { token, body: { changes } })
  expect(applied.status).toBe(200)
  return created.json.id as string
}

const recordsOf = async (zoneId: string, context = acme, token = admin) =>
  (await platform.call('GET', `/groups/${context}/zones/${zoneId}/records?limit=100&sort=name`, { token })).json.data as { id: string; name: string; type: string; content: string }[]

/** Runs the job the way the worker would (the handler of BULK_REPLACE_JOB); the queue holds it. */
async function queuedJobs() {
  const { rows } = await platform.database.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1`, [BULK_REPLACE_JOB])
  return rows[0].n as number
}

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [1, 1] } })
  await platform.deps.jobs.start({ work: false })
  admin = await login('admin@acme.example')
  viewer = await login('viewer@acme.example')
  otherAdmin = await login('admin@globex.example')
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '!=', 'Acme Corp').where('name', 'like', 'Globex%').executeTakeFirstOrThrow()).id
  zones.one = await zone(acme, admin, 'one.bulk.test', [
    { action: 'add', name: 'www', type: 'A', content: '192.0.2.10' },
    { action: 'add', name: 'api', type: 'A', content: '192.0.2.10' },
    { action: 'add', name: 'other', type: 'A', content: '192.0.2.99' },
    { action: 'add', name: '@', type: 'MX', content: '10 mail.old.example.' },
  ])
  zones.two = await zone(acme, admin, 'two.bulk.test', [
    { action: 'add', name: '@', type: 'A', content: '192.0.2.10' },
    // the replacement is already there: the old record goes instead of becoming a duplicate
    { action: 'add', name: '@', type: 'A', content: '198.51.100.7' },
    { action: 'add', name: 'alias', type: 'CNAME', content: 'mail.old.example.' },
  ])
  zones.none = await zone(acme, admin, 'three.bulk.test', [{ action: 'add', name: 'www', type: 'A', content: '203.0.113.1' }])
  zones.foreign = await zone(globex, otherAdmin, 'globex.bulk.test', [{ action: 'add', name: 'www', type: 'A', content: '192.0.2.10' }])
})
afterAll(() => platform?.close())

describe('bulk replace from the records tray', () => {
  it('refuses bad input and a viewer, and queues nothing', async () => {
    const post = (token: string, params: Record<string, unknown>) => platform.call('POST', `/groups/${acme}/record-bulk-actions`, { token, body: { action: 'replace_record_content', params } })
    const family = await post(admin, { from: '192.0.2.10', to: '2001:db8::1', where: 'all' })
    expect(family.status).toBe(400)
    expect(family.json.errors[0]).toMatchObject({ field: 'to' })
    expect((await post(admin, { from: 'not an address', to: '192.0.2.1', where: 'all' })).status).toBe(400)
    expect((await post(admin, { from: '192.0.2.10', to: '192.0.2.10', where: 'all' })).status).toBe(400)
    const none = await post(admin, { from: '192.0.2.55', to: '192.0.2.56', where: 'all' })
    expect(none.status).toBe(400)
    expect(none.json.detail).toContain('192.0.2.55')
    // the tray is empty: nothing to replace there
    expect((await post(admin, { from: '192.0.2.10', to: '198.51.100.7' })).status).toBe(400)
    expect((await post(viewer, { from: '192.0.2.10', to: '198.51.100.7', where: 'all' })).status).toBe(403)
    expect(await queuedJobs()).toBe(0)
  })

  it('replaces an address in every zone of the account that has it, one change set per zone', async () => {
    const serials = Object.fromEntries(
      await Promise.all((['one', 'two', 'none'] as const).map(async (k) => [k, (await platform.call('GET', `/groups/${acme}/zones/${zones[k]}`, { token: admin })).json.serial])),
    )
    const started = await platform.call('POST', `/groups/${acme}/record-bulk-actions`, {
      token: admin,
      body: { action: 'replace_record_content', params: { from: '192.0.2.10', to: '198.51.100.7', where: 'all' } },
    })
    expect(started.status).toBe(202)
    const jobId = started.json.job_id as string
    expect(await queuedJobs()).toBe(1)

    const queued = await platform.call('GET', `/groups/${acme}/record-bulk-actions/${jobId}`, { token: viewer })
    expect(queued.status).toBe(200)
    expect(queued.json).toMatchObject({ state: 'queued', total: 2, done: 0, params: { from: '192.0.2.10', to: '198.51.100.7', kind: 'A', where: 'all' } })
    expect(queued.json.results.map((r: { name: string; state: string }) => `${r.name} ${r.state}`)).toEqual(['one.bulk.test pending', 'two.bulk.test pending'])
    // another account's job is not found, as everywhere
    expect((await platform.call('GET', `/groups/${globex}/record-bulk-actions/${jobId}`, { token: otherAdmin })).status).toBe(404)
    // One job table for domains and zones: each endpoint answers for its own kind only.
    expect((await platform.call('GET', `/groups/${acme}/bulk-actions/${jobId}`, { token: admin })).status).toBe(404)

    await runReplaceJob(platform.deps, jobId)
    const done = (await platform.call('GET', `/groups/${acme}/record-bulk-actions/${jobId}`, { token: admin })).json
    expect(done).toMatchObject({ state: 'completed', total: 2, done: 2 })
    expect(done.results).toEqual([
      { id: zones.one, name: 'one.bulk.test', state: 'done', ok: true, outcome: 'applied', records: 2 },
      { id: zones.two, name: 'two.bulk.test', state: 'done', ok: true, outcome: 'applied', records: 1 },
    ])

    const one = await recordsOf(zones.one)
    expect(one.filter((r) => r.type === 'A').map((r) => `${r.name} ${r.content}`)).toEqual(['api.one.bulk.test 198.51.100.7', 'other.one.bulk.test 192.0.2.99', 'www.one.bulk.test 198.51.100.7'])
    const two = await recordsOf(zones.two)
    expect(two.filter((r) => r.type === 'A').map((r) => `${r.name} ${r.content}`)).toEqual(['two.bulk.test 198.51.100.7'])
    // another account's zone and a zone without the address are untouched
    expect((await recordsOf(zones.foreign, globex, otherAdmin)).find((r) => r.type === 'A')?.content).toBe('192.0.2.10')
    const after = Object.fromEntries(
      await Promise.all((['one', 'two', 'none'] as const).map(async (k) => [k, (await platform.call('GET', `/groups/${acme}/zones/${zones[k]}`, { token: admin })).json])),
    )
    expect(after.one.serial).toBeGreaterThan(serials.one)
    expect(after.two.serial).toBeGreaterThan(serials.two)
    expect(after.none.serial).toBe(serials.none)
    expect(after.one.publish_state).toBe('pending')

    // audited per record through the change-set service, by the user who started the job
    const log = await platform.call('GET', `/groups/${acme}/audit-entries?filter[area]=dns&filter[entity_type]=dns_record&filter[action]=update&limit=50`, { token: admin })
    const updates = log.json.data.filter((e: { changes: { after?: { content?: string } } }) => e.changes.after?.content === '198.51.100.7')
    expect(updates).toHaveLength(2)
    expect(updates[0].actor_label).toContain('admin@acme.example')

    // a second run (a retried job) changes nothing twice
    await runReplaceJob(platform.deps, jobId)
    expect((await platform.call('GET', `/groups/${acme}/record-bulk-actions/${jobId}`, { token: admin })).json.done).toBe(2)
  })

  it('replaces host names in CNAME and MX targets, limited to the records in the tray', async () => {
    const one = await recordsOf(zones.one)
    const two = await recordsOf(zones.two)
    const mx = one.find((r) => r.type === 'MX')!
    const cname = two.find((r) => r.type === 'CNAME')!
    // only the MX goes into the tray: the CNAME with the same target stays as it is
    const tray = await platform.call('POST', `/groups/${acme}/tray`, { token: admin, body: { entity_type: 'record', ids: [mx.id] } })
    expect(tray.status).toBeLessThan(300)
    const started = await platform.call('POST', `/groups/${acme}/record-bulk-actions`, {
      token: admin,
      body: { action: 'replace_record_content', params: { from: 'MAIL.old.example', to: 'mail.new.example.' } },
    })
    expect(started.status).toBe(202)
    await runReplaceJob(platform.deps, started.json.job_id)
    const done = (await platform.call('GET', `/groups/${acme}/record-bulk-actions/${started.json.job_id}`, { token: admin })).json
    expect(done.params).toEqual({ from: 'mail.old.example.', to: 'mail.new.example.', kind: 'host', where: 'tray' })
    expect(done.results).toEqual([{ id: zones.one, name: 'one.bulk.test', state: 'done', ok: true, outcome: 'applied', records: 1 }])
    expect((await recordsOf(zones.one)).find((r) => r.type === 'MX')?.content).toBe('10 mail.new.example.')
    expect((await recordsOf(zones.two)).find((r) => r.id === cname.id)?.content).toBe('mail.old.example.')
  })

  it('reports a zone whose change set is refused as a failed item, and goes on with the others', async () => {
    const bad = await zone(acme, admin, 'four.bulk.test', [{ action: 'add', name: 'y', type: 'CNAME', content: 'host.old.example.' }])
    const ok = await zone(acme, admin, 'five.bulk.test', [{ action: 'add', name: 'z', type: 'CNAME', content: 'host.old.example.' }])
    const started = await platform.call('POST', `/groups/${acme}/record-bulk-actions`, {
      token: admin,
      body: { action: 'replace_record_content', params: { from: 'host.old.example', to: 'host.new.example', where: 'all' } },
    })
    expect(started.status).toBe(202)
    // Meanwhile the zone lost its apex NS (outside the portal's rules): its change set is refused.
    await platform.db.deleteFrom('dns_records').where('zone_id', '=', bad).where('type', '=', 'NS').execute()
    await runReplaceJob(platform.deps, started.json.job_id)
    const done = (await platform.call('GET', `/groups/${acme}/record-bulk-actions/${started.json.job_id}`, { token: admin })).json
    expect(done).toMatchObject({ state: 'completed', done: 2 })
    const [five, four] = done.results
    expect(five).toMatchObject({ name: 'five.bulk.test', ok: true, outcome: 'applied', records: 1 })
    expect(four).toMatchObject({ name: 'four.bulk.test', ok: false })
    expect(four.error).toContain('NS record at its apex')
    expect((await recordsOf(ok)).find((r) => r.type === 'CNAME')?.content).toBe('host.new.example.')
    expect((await recordsOf(bad)).find((r) => r.type === 'CNAME')?.content).toBe('host.old.example.')
  })
})
