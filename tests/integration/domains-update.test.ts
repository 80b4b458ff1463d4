import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EppRegistryConnection } from '#server/integrations/registry/connection.ts'
import { DEFAULT_TLD_POLICY } from '#server/integrations/registry/local-registry.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { addManagedDomains } from '#server/platform/domains/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// PATCH /groups/{context}/domains/{id}: the one domain update service (bulk actions use it too)
// against the real Platform API, a real database and the local EPP registry over TLS for `.com`.

const CLIENT = { id: 'patch-registrar', password: 'patch-secret-123' }
let local: LocalRegistryConnection
let connection: EppRegistryConnection
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acme: string
let globex: string
let admin: string

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

async function registered(name: string) {
  const created = await connection.createDomain({ name, authInfo: 'Auth-info-123', years: 1 })
  const [domain] = await addManagedDomains(platform.db, systemScope('test', acme), [{ name, expires_at: created.expiresAt! }])
  return domain!
}

const detail = async (id: string) => (await platform.call('GET', `/groups/${acme}/domains/${id}`, { token: admin })).json

beforeAll(async () => {
  local = await localRegistryConnection({ client: CLIENT, policy: { tlds: { com: DEFAULT_TLD_POLICY } } })
  connection = local.connection
  platform = await createTestPlatform({ registries: local.registries }, { seed: { domainsPerAccount: [4, 2] } })
  await platform.deps.jobs.start({ work: true })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  admin = await login('admin@acme.example')
})

afterAll(async () => {
  await platform?.close()
  await local?.close()
})

describe('PATCH /groups/{context}/domains/{id}', () => {
  it('changes auto-renew, lock, tags and nameservers registry first, versioned and audited', async () => {
    const domain = await registered('patch-one.com')
    const before = await detail(domain.id)
    const res = await platform.call('PATCH', `/groups/${acme}/domains/${domain.id}`, {
      token: admin,
      body: { version: before.version, auto_renew: false, registry_lock: true, tags: [' web ', 'prod', 'web'], nameservers: ['NS1.Example.net.', 'ns2.example.net'] },
    })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json).toMatchObject({ auto_renew: false, registry_lock: true, tags: ['prod', 'web'], nameservers: ['ns1.example.net', 'ns2.example.net'], version: before.version + 1 })
    const info = await connection.infoDomain('patch-one.com')
    expect(info.statuses).toEqual(expect.arrayContaining(['clientUpdateProhibited', 'clientTransferProhibited', 'clientDeleteProhibited']))
    expect([...info.nameservers].sort()).toEqual(['ns1.example.net', 'ns2.example.net'])

    // The version read before is stale now: 409, and nothing changes.
    const stale = await platform.call('PATCH', `/groups/${acme}/domains/${domain.id}`, { token: admin, body: { version: before.version, auto_renew: true } })
    expect(stale.status).toBe(409)
    expect((await detail(domain.id)).auto_renew).toBe(false)

    const log = await platform.db.selectFrom('audit_entries').select(['action', 'changes']).where('entity_id', '=', domain.id).where('action', '=', 'update').execute()
    expect(log).toHaveLength(1)
    expect(JSON.stringify(log[0]!.changes)).toContain('ns1.example.net')
  })

  it('changes tags alone, as the overview sends them: audited before and after, a viewer refused, a tag too long named (issue 28)', async () => {
    const domain = await registered('tags-only.com')
    const before = await detail(domain.id)
    const res = await platform.call('PATCH', `/groups/${acme}/domains/${domain.id}`, { token: admin, body: { version: before.version, tags: ['eu', 'production'] } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json).toMatchObject({ tags: ['eu', 'production'], version: before.version + 1 })
    const log = await platform.db.selectFrom('audit_entries').select(['action', 'changes']).where('entity_id', '=', domain.id).where('action', '=', 'update').execute()
    expect(log).toHaveLength(1)
    expect(log[0]!.changes).toMatchObject({ before: { tags: [] }, after: { tags: ['eu', 'production'] } })

    const viewer = await login('viewer@acme.example')
    expect((await platform.call('PATCH', `/groups/${acme}/domains/${domain.id}`, { token: viewer, body: { version: before.version + 1, tags: [] } })).status).toBe(403)
    const long = await platform.call('PATCH', `/groups/${acme}/domains/${domain.id}`, { token: admin, body: { version: before.version + 1, tags: ['x'.repeat(65)] } })
    expect(long.status).toBe(400)
    expect(long.json.errors).toEqual([expect.objectContaining({ field: 'tags.0' })])
    expect((await detail(domain.id)).tags).toEqual(['eu', 'production'])
  })

  it('a registry refusal changes nothing of ours', async () => {
    // Known here, unknown at the registry: the update is refused with the registry's message.
    const [domain] = await addManagedDomains(platform.db, systemScope('test', acme), [{ name: 'patch-unknown.com', expires_at: new Date('2031-01-01T00:00:00Z') }])
    const res = await platform.call('PATCH', `/groups/${acme}/domains/${domain!.id}`, { token: admin, body: { version: domain!.version, nameservers: ['ns1.example.net'] } })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.json.detail).toMatch(/does not exist/i)
    expect((await detail(domain!.id)).nameservers).toEqual([])
  })

  it('on a material domain, nameservers become a request (202) while auto-renew applies at once', async () => {
    const domain = await registered('patch-material.com')
    expect((await platform.call('PUT', `/groups/${acme}/material-approvers`, { token: admin, body: { emails: ['approver@acme.example'] } })).status).toBe(200)
    expect((await platform.call('PUT', `/groups/${acme}/material-domains`, { token: admin, body: { ids: [domain.id], is_material: true } })).json.changed).toBe(1)
    const current = await detail(domain.id)
    expect(current.is_material).toBe(true)
    const res = await platform.call('PATCH', `/groups/${acme}/domains/${domain.id}`, { token: admin, body: { version: current.version, auto_renew: false, nameservers: ['ns1.held.example'] } })
    expect(res.status).toBe(202)
    const request = await platform.call('GET', `/groups/${acme}/material-change-requests/${res.json.material_change_request_id}`, { token: admin })
    expect(request.json).toMatchObject({ domain_id: domain.id, state: 'pending', change: { nameservers: ['ns1.held.example'] } })
    const after = await detail(domain.id)
    expect(after.auto_renew).toBe(false)
    expect(after.nameservers).toEqual([])
  })

  it('answers 404 for another account, 403 for a viewer, 400 for an unknown field', async () => {
    const other = await platform.db.selectFrom('domains').select(['id', 'version']).where('account_id', '=', globex).executeTakeFirstOrThrow()
    expect((await platform.call('PATCH', `/groups/${acme}/domains/${other.id}`, { token: admin, body: { version: other.version, auto_renew: false } })).status).toBe(404)
    const mine = await platform.db.selectFrom('domains').select(['id', 'version']).where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()
    const viewer = await login('viewer@acme.example')
    expect((await platform.call('PATCH', `/groups/${acme}/domains/${mine.id}`, { token: viewer, body: { version: mine.version, auto_renew: false } })).status).toBe(403)
    expect((await platform.call('PATCH', `/groups/${acme}/domains/${mine.id}`, { token: admin, body: { version: mine.version, status: 'deleted' } })).status).toBe(400)
  })
})

describe('orders of one domain (GET /groups/{context}/orders?filter[item_name]=…)', () => {
  it('matches the exact item name, not names that merely contain it, and only in the account', async () => {
    const registrant = (await platform.db.selectFrom('contacts').select('id').where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()).id
    const order = async (names: string[]) => {
      const res = await platform.call('POST', `/groups/${acme}/orders`, { token: admin, body: { items: names.map((name) => ({ type: 'register', name, period: 1 })), contacts: { registrant } } })
      expect(res.status, JSON.stringify(res.json)).toBe(201)
      return res.json.id as string
    }
    const first = await order(['tab-a.com', 'tab-b.com'])
    const second = await order(['xtab-a.com'])
    const byItem = async (name: string, token = admin, context = acme) => {
      const res = await platform.call('GET', `/groups/${context}/orders?filter[item_name]=${encodeURIComponent(name)}`, { token })
      expect(res.status).toBe(200)
      return res.json.data.map((o: { id: string }) => o.id)
    }
    expect(await byItem('tab-a.com')).toEqual([first])
    expect(await byItem('tab-b.com')).toEqual([first])
    expect(await byItem('xtab-a.com')).toEqual([second])
    expect(await byItem('tab-c.com')).toEqual([])
    // Another account sees none of them.
    expect(await byItem('tab-a.com', await login('admin@globex.example'), globex)).toEqual([])
  })
})
