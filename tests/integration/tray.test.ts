import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { EppRegistryConnection } from '#server/integrations/registry/connection.ts'
import { DEFAULT_TLD_POLICY } from '#server/integrations/registry/local-registry.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { addManagedDomains } from '#server/platform/domains/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// The tray and bulk actions against the real Platform API, a real database and the local EPP
// registry over TLS; `.com` is served by the local registry here, every other TLD by none.

const CLIENT = { id: 'bulk-registrar', password: 'bulk-secret-123' }
let local: LocalRegistryConnection
let connection: EppRegistryConnection
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acme: string
let globex: string

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

beforeAll(async () => {
  local = await localRegistryConnection({ client: CLIENT, policy: { tlds: { com: DEFAULT_TLD_POLICY } } })
  connection = local.connection
  platform = await createTestPlatform({ registries: local.registries }, { seed: { domainsPerAccount: [12, 4] } })
  await platform.deps.jobs.start({ work: true })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
})

afterAll(async () => {
  await platform?.close()
  await local?.close()
})

const domainIds = async (account: string, limit: number) =>
  (await platform.db.selectFrom('domains').select(['id', 'name']).where('account_id', '=', account).orderBy('name').limit(limit).execute()).map((d) => d.id)

describe('tray', () => {
  it('adds, lists, survives a new sign-in, removes and empties; other accounts are 404', async () => {
    const token = await login('admin@acme.example')
    const ids = await domainIds(acme, 3)
    const added = await platform.call('POST', `/groups/${acme}/tray`, { token, body: { entity_type: 'domain', ids: [...ids, ids[0]] } })
    expect(added.status).toBe(200)
    expect(added.json).toEqual({ entity_type: 'domain', count: 3 })

    // A new sign-in (new token) finds the same tray: it lives in the database, per user.
    const again = await login('admin@acme.example')
    const listed = await platform.call('GET', `/groups/${acme}/tray?entity_type=domain&sort=name`, { token: again })
    expect(listed.status).toBe(200)
    expect(listed.json.meta.total).toBe(3)
    expect(listed.json.data.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort())
    expect(listed.json.data[0]).toMatchObject({ entity_type: 'domain', name: expect.any(String), auto_renew: expect.any(Boolean) })

    // The shell's indicator: both sizes in one call.
    expect((await platform.call('GET', `/groups/${acme}/tray/size`, { token: again })).json).toEqual({ domain: 3, record: 0 })

    // Another user of the same account has an empty tray of their own.
    const viewer = await login('viewer@acme.example')
    expect((await platform.call('GET', `/groups/${acme}/tray`, { token: viewer })).json.meta.total).toBe(0)
    expect((await platform.call('GET', `/groups/${acme}/tray/size`, { token: viewer })).json).toEqual({ domain: 0, record: 0 })

    // Another account's domain is 404, and so is another account as context.
    const foreign = await domainIds(globex, 1)
    const refused = await platform.call('POST', `/groups/${acme}/tray`, { token, body: { entity_type: 'domain', ids: foreign } })
    expect(refused.status).toBe(404)
    expect((await platform.call('GET', `/groups/${globex}/tray`, { token })).status).toBe(404)
    expect((await platform.call('GET', `/groups/${globex}/tray/size`, { token })).status).toBe(404)

    const removed = await platform.call('DELETE', `/groups/${acme}/tray`, { token, body: { entity_type: 'domain', ids: [ids[0]] } })
    expect(removed.json.count).toBe(2)
    const emptied = await platform.call('DELETE', `/groups/${acme}/tray`, { token, body: { entity_type: 'domain' } })
    expect(emptied.json.count).toBe(0)
    expect((await platform.call('GET', `/groups/${acme}/tray`, { token })).json.meta.total).toBe(0)
  })

  it('refuses a bad entity type and a bulk action on an empty tray', async () => {
    const token = await login('admin@acme.example')
    expect((await platform.call('GET', `/groups/${acme}/tray?entity_type=user`, { token })).status).toBe(400)
    expect((await platform.call('POST', `/groups/${acme}/tray`, { token, body: { entity_type: 'user', ids: [] } })).status).toBe(400)
    const empty = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'auto_renew_off' } })
    expect(empty.status).toBe(400)
    expect(empty.json.errors[0].field).toBe('ids')
  })
})

async function waitForJob(token: string, jobId: string) {
  return vi.waitFor(
    async () => {
      const res = await platform.call('GET', `/groups/${acme}/bulk-actions/${jobId}`, { token })
      expect(res.status).toBe(200)
      expect(res.json.state).toBe('completed')
      return res.json as { state: string; total: number; done: number; results: { id: string; name: string; ok: boolean; outcome?: string; error?: string }[] }
    },
    { timeout: 30_000, interval: 200 },
  )
}

describe('bulk actions', () => {
  it('renews and locks the tray at the registry with a result per domain, one refused by the registry', async () => {
    const token = await login('admin@acme.example')
    // Two names registered at the local registry, one that the registry has never heard of.
    const registered = []
    for (const name of ['bulk-one.com', 'bulk-two.com']) {
      const created = await connection.createDomain({ name, authInfo: 'Auth-info-123', years: 1 })
      registered.push({ name, expires_at: created.expiresAt! })
    }
    const domains = await addManagedDomains(platform.db, systemScope('test', acme), [...registered, { name: 'bulk-unknown.com', expires_at: new Date('2031-01-01T00:00:00Z') }])
    const ids = domains.map((d) => d.id)
    await platform.call('POST', `/groups/${acme}/tray`, { token, body: { entity_type: 'domain', ids } })

    const renew = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'renew', params: { period: 2 } } })
    expect(renew.status).toBe(202)
    const renewed = await waitForJob(token, renew.json.job_id)
    expect(renewed).toMatchObject({ total: 3, done: 3 })
    const byName = Object.fromEntries(renewed.results.map((r) => [r.name, r]))
    expect(byName['bulk-one.com']).toMatchObject({ ok: true, outcome: 'applied' })
    expect(byName['bulk-two.com']).toMatchObject({ ok: true, outcome: 'applied' })
    expect(byName['bulk-unknown.com']!.ok).toBe(false)
    expect(byName['bulk-unknown.com']!.error).toMatch(/does not exist/i)

    const info = await connection.infoDomain('bulk-one.com')
    const ours = await platform.db.selectFrom('domains').select(['expires_at', 'version']).where('id', '=', ids[0]!).executeTakeFirstOrThrow()
    expect(ours.expires_at?.toISOString()).toBe(info.expiresAt?.toISOString())
    expect(info.expiresAt!.getUTCFullYear()).toBe(registered[0]!.expires_at.getUTCFullYear() + 2)
    const unchanged = await platform.db.selectFrom('domains').select('expires_at').where('id', '=', ids[2]!).executeTakeFirstOrThrow()
    expect(unchanged.expires_at?.toISOString()).toBe('2031-01-01T00:00:00.000Z')

    const lock = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'lock' } })
    const locked = await waitForJob(token, lock.json.job_id)
    expect(Object.fromEntries(locked.results.map((r) => [r.name, r.ok]))).toEqual({ 'bulk-one.com': true, 'bulk-two.com': true, 'bulk-unknown.com': false })
    expect((await connection.infoDomain('bulk-two.com')).statuses).toEqual(expect.arrayContaining(['clientUpdateProhibited', 'clientTransferProhibited', 'clientDeleteProhibited']))
    const flags = await platform.db.selectFrom('domains').select(['name', 'registry_lock']).where('id', 'in', ids).orderBy('name').execute()
    expect(flags).toEqual([
      { name: 'bulk-one.com', registry_lock: true },
      { name: 'bulk-two.com', registry_lock: true },
      { name: 'bulk-unknown.com', registry_lock: false },
    ])

    // Unlock removes the statuses again; each change is in the audit trail with the user.
    const unlock = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'unlock', ids: [ids[0]] } })
    expect((await waitForJob(token, unlock.json.job_id)).results).toEqual([{ id: ids[0], name: 'bulk-one.com', state: 'done', ok: true, outcome: 'applied' }])
    expect((await connection.infoDomain('bulk-one.com')).statuses).not.toContain('clientUpdateProhibited')
    const trail = await platform.db.selectFrom('audit_entries').select(['action', 'actor_label', 'changes']).where('entity_id', '=', ids[0]!).orderBy('created_at').execute()
    expect(trail.map((e) => e.action)).toEqual(['add', 'renew', 'update', 'update'])
    expect(trail[2]!.changes).toEqual({ before: { registry_lock: false }, after: { registry_lock: true } })
    expect(trail[2]!.actor_label).toMatch(/acme/i)
  }, 60_000)

  it('turns auto-renew off for domains without a registry, and reports unchanged ones', async () => {
    const token = await login('admin@acme.example')
    const made = await addManagedDomains(
      platform.db,
      systemScope('test', acme),
      ['auto-a.net', 'auto-b.net', 'auto-c.org', 'auto-d.org'].map((name) => ({ name, expires_at: new Date('2030-06-01T00:00:00Z') })),
    )
    const ids = made.map((d) => d.id)
    await platform.db.updateTable('domains').set({ auto_renew: false }).where('id', '=', ids[0]!).execute()
    const job = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'auto_renew_off', ids } })
    expect(job.status, JSON.stringify(job.json)).toBe(202)
    const done = await waitForJob(token, job.json.job_id)
    expect(done.results.map((r) => [r.name, r.outcome])).toEqual([
      ['auto-a.net', 'unchanged'],
      ['auto-b.net', 'applied'],
      ['auto-c.org', 'applied'],
      ['auto-d.org', 'applied'],
    ])
    const rows = await platform.db.selectFrom('domains').select('auto_renew').where('id', 'in', ids).execute()
    expect(rows.every((r) => r.auto_renew === false)).toBe(true)
  }, 60_000)

  it('needs domain-manager, validates params and keeps other accounts out', async () => {
    const viewer = await login('viewer@acme.example')
    const ids = await domainIds(acme, 1)
    expect((await platform.call('POST', `/groups/${acme}/bulk-actions`, { token: viewer, body: { action: 'lock', ids } })).status).toBe(403)
    const token = await login('admin@acme.example')
    const bad = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'renew', ids, params: { period: 11 } } })
    expect(bad.status).toBe(400)
    const foreign = await domainIds(globex, 1)
    expect((await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'lock', ids: foreign } })).status).toBe(404)
    const globexToken = await login('admin@globex.example')
    const job = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token, body: { action: 'auto_renew_on', ids } })
    expect((await platform.call('GET', `/groups/${globex}/bulk-actions/${job.json.job_id}`, { token: globexToken })).status).toBe(404)
    await waitForJob(token, job.json.job_id)
  }, 60_000)
})
