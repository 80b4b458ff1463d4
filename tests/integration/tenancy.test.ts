import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

/**
 * Tenancy and permissions of the directory areas: a user of account A (Acme) with the ids of
 * account B (Globex) meets 404 on every endpoint, never B's data and never a 403 that would
 * confirm the id; a viewer reads and is refused changes; staff reach both accounts.
 */
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
type Ids = { account: string; user: string; admin: string; contact: string; usedContact: string }
let A: Ids
let B: Ids

async function idsOf(name: string, adminEmail: string): Promise<Ids> {
  const db = platform.db
  const account = (await db.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id
  const admin = (await db.selectFrom('users').select('id').where('email', '=', adminEmail).executeTakeFirstOrThrow()).id
  const contacts = await db.selectFrom('contacts').select('id').where('account_id', '=', account).orderBy('name').execute()
  const used = await db
    .selectFrom('domain_contacts')
    .innerJoin('contacts', 'contacts.id', 'domain_contacts.contact_id')
    .select('contacts.id')
    .where('contacts.account_id', '=', account)
    .executeTakeFirstOrThrow()
  const unused = contacts.find((c) => c.id !== used.id)!.id
  return { account, user: admin, admin, contact: unused, usedContact: used.id }
}

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [3, 3] } })
  for (const email of ['staff@example.com', 'admin@acme.example', 'viewer@acme.example', 'admin@globex.example']) {
    const res = await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })
    expect(res.status).toBe(200)
    tokens[email] = res.json.access_token
  }
  A = await idsOf('Acme Corp', 'admin@acme.example')
  B = await idsOf('Globex', 'admin@globex.example')
})
afterAll(() => platform?.close())

type Endpoint = { method: string; path: string; body?: unknown; change: boolean }

/** Every endpoint of the directory areas that names an account, a user or a contact. */
function endpoints(context: string, ids: Ids): Endpoint[] {
  const user = `/groups/${context}/users/${ids.user}`
  const contact = `/groups/${context}/contacts/${ids.contact}`
  return [
    { method: 'GET', path: `/groups/${context}/accounts`, change: false },
    { method: 'GET', path: `/accounts/${ids.account}`, change: false },
    { method: 'PATCH', path: `/accounts/${ids.account}`, body: { language: 'ja', version: 1 }, change: true },
    { method: 'GET', path: `/groups/${context}/users`, change: false },
    { method: 'GET', path: user, change: false },
    { method: 'POST', path: `/groups/${context}/users`, body: { email: `probe-${context.slice(0, 8)}@example.com`, name: 'Probe', roles: ['domain-viewer'] }, change: true },
    { method: 'PATCH', path: user, body: { name: 'Probe', version: 1 }, change: true },
    { method: 'POST', path: `${user}/disable`, change: true },
    { method: 'POST', path: `${user}/enable`, change: true },
    { method: 'POST', path: `${user}/reset-two-factor`, change: true },
    { method: 'POST', path: `${user}/end-sessions`, change: true },
    { method: 'GET', path: `/groups/${context}/contacts`, change: false },
    { method: 'GET', path: contact, change: false },
    { method: 'POST', path: `/groups/${context}/contacts`, body: { name: 'Probe', email: 'probe@example.com', country_code: 'ES' }, change: true },
    { method: 'PATCH', path: contact, body: { city: 'Probe', version: 1 }, change: true },
    { method: 'DELETE', path: contact, change: true },
    { method: 'GET', path: `${contact}/registry-handles`, change: false },
    { method: 'GET', path: `/groups/${context}/audit-entries`, change: false },
  ]
}

/** Rows and audit entries of every table these endpoints write. */
async function counts() {
  const n = async (table: string) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(platform.db)).rows[0]!.n
  const versions = await sql<{
    v: number
  }>`SELECT coalesce(sum(version), 0)::int AS v FROM (SELECT version FROM accounts UNION ALL SELECT version FROM users UNION ALL SELECT version FROM contacts) x`.execute(platform.db)
  return { accounts: await n('accounts'), users: await n('users'), contacts: await n('contacts'), audit: await n('audit_entries'), versions: versions.rows[0]!.v }
}

const mentionsB = (text: string) => text.includes('Globex') || text.includes('globex') || text.includes(B.account)

describe('tenancy', () => {
  it('answers 404 to a user of account A on every endpoint with the ids of account B, and writes nothing', async () => {
    const before = await counts()
    const token = tokens['admin@acme.example']!
    // B's ids in A's context, and B's context itself.
    for (const endpoint of [...endpoints(A.account, { ...B, account: B.account }), ...endpoints(B.account, B)]) {
      if (
        endpoint.path === `/groups/${A.account}/accounts` ||
        endpoint.path === `/groups/${A.account}/users` ||
        endpoint.path === `/groups/${A.account}/contacts` ||
        endpoint.path === `/groups/${A.account}/audit-entries`
      )
        continue
      if (endpoint.method === 'POST' && (endpoint.path === `/groups/${A.account}/users` || endpoint.path === `/groups/${A.account}/contacts`)) continue
      const res = await platform.call(endpoint.method, endpoint.path, { token, body: endpoint.body })
      expect({ endpoint: `${endpoint.method} ${endpoint.path}`, status: res.status }).toEqual({ endpoint: `${endpoint.method} ${endpoint.path}`, status: 404 })
      expect(mentionsB(res.text.replace(endpoint.path, ''))).toBe(false)
    }
    expect(await counts()).toEqual(before)
  })

  it("never shows B's rows in A's lists, whatever the filter", async () => {
    const token = tokens['admin@acme.example']!
    for (const path of ['accounts', 'users', 'contacts', 'audit-entries']) {
      const res = await platform.call('GET', `/groups/${A.account}/${path}?limit=1000`, { token })
      expect(res.status).toBe(200)
      expect(res.json.data.length).toBeGreaterThan(0)
      expect(mentionsB(res.text)).toBe(false)
    }
    const probe = await platform.call('GET', `/groups/${A.account}/users?pql=${encodeURIComponent(`group_id equals '${B.account}'`)}`, { token })
    expect(probe.json.meta.total).toBe(0)
  })

  it('lets a viewer read everything of their account and answers 403 to every change', async () => {
    const before = await counts()
    const token = tokens['viewer@acme.example']!
    for (const endpoint of endpoints(A.account, A)) {
      const res = await platform.call(endpoint.method, endpoint.path, { token, body: endpoint.body })
      expect({ endpoint: `${endpoint.method} ${endpoint.path}`, status: res.status }).toEqual({ endpoint: `${endpoint.method} ${endpoint.path}`, status: endpoint.change ? 403 : 200 })
    }
    expect((await platform.call('POST', '/accounts', { token, body: { name: 'Viewer Corp' } })).status).toBe(403)
    expect(await counts()).toEqual(before)
  })

  it("answers 404 to account A for B's service users, their API tokens and B's webhook endpoints, and writes nothing", async () => {
    const bAdmin = tokens['admin@globex.example']!
    const service = (await platform.call('POST', `/groups/${B.account}/service_users`, { token: bAdmin, body: { name: 'Globex sync', roles: ['domain-viewer'] } })).json
    const made = (await platform.call('POST', `/groups/${B.account}/users/${service.id}/api_tokens`, { token: bAdmin, body: { name: 'sync', permissions: ['domain-viewer'] } })).json
    const endpoint = (await platform.call('POST', `/groups/${B.account}/webhook_endpoints`, { token: bAdmin, body: { url: 'https://hooks.globex.example/in', events: ['domain.renewed'] } })).json
      .endpoint
    const before = await counts()
    const token = tokens['admin@acme.example']!
    for (const context of [A.account, B.account]) {
      const hooks = `/groups/${context}/webhook_endpoints/${endpoint.id}`
      for (const [method, path, body] of [
        ['GET', `/groups/${context}/users/${service.id}/api_tokens`],
        ['POST', `/groups/${context}/users/${service.id}/api_tokens`, { name: 'x', permissions: ['domain-viewer'] }],
        ['DELETE', `/groups/${context}/users/${service.id}/api_tokens/${made.token.id}`],
        ['GET', hooks],
        ['PATCH', hooks, { enabled: false, version: endpoint.version }],
        ['DELETE', hooks],
        ['POST', `${hooks}/test`],
        ['POST', `${hooks}/rotate_secret`],
        ['GET', `${hooks}/attempts`],
      ] as const) {
        const res = await platform.call(method, path, { token, body })
        expect({ endpoint: `${method} ${path}`, status: res.status }).toEqual({ endpoint: `${method} ${path}`, status: 404 })
        expect(mentionsB(res.text.replace(path, ''))).toBe(false)
      }
    }
    // A's own token cannot reach B either, nor revoke B's token as its own.
    expect((await platform.call('DELETE', `/profile/api_tokens/${made.token.id}`, { token })).status).toBe(404)
    expect((await platform.call('GET', `/groups/${A.account}/webhook_endpoints`, { token })).json.data).toEqual([])
    expect(await counts()).toEqual(before)
  })

  it('lets staff read both accounts, in each context and across all from their own group', async () => {
    const token = tokens['staff@example.com']!
    for (const ids of [A, B]) {
      for (const endpoint of endpoints(ids.account, ids).filter((e) => !e.change)) {
        const res = await platform.call(endpoint.method, endpoint.path, { token })
        expect({ endpoint: `${endpoint.method} ${endpoint.path}`, status: res.status }).toEqual({ endpoint: `${endpoint.method} ${endpoint.path}`, status: 200 })
      }
    }
    const home = (await platform.call('GET', '/me', { token })).json.group_id as string
    const contacts = await platform.call('GET', `/groups/${home}/contacts?limit=100&fields=group_id`, { token })
    expect(new Set(contacts.json.data.map((c: { group_id: string }) => c.group_id))).toEqual(new Set([A.account, B.account]))
    expect((await platform.call('GET', `/groups/${home}/users/${B.user}`, { token })).status).toBe(200)
    // In B's context staff act as B: A's rows are out of reach there.
    expect((await platform.call('GET', `/groups/${B.account}/contacts/${A.contact}`, { token })).status).toBe(404)
  })
})

describe('bad input: a clear error with a stable code, and nothing written', () => {
  async function refused(call: () => Promise<{ status: number; json: any }>, status: number, code: string, field?: string) {
    const before = await counts()
    const res = await call()
    expect(res.status).toBe(status)
    expect(res.json.code).toBe(code)
    expect(typeof res.json.detail).toBe('string')
    if (field) expect(res.json.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, code })]))
    expect(await counts()).toEqual(before)
    return res
  }
  const admin = () => tokens['admin@acme.example']!

  it('refuses a duplicate email', async () => {
    await refused(
      () => platform.call('POST', `/groups/${A.account}/users`, { token: admin(), body: { email: 'ADMIN@globex.example', name: 'Dup', roles: ['domain-viewer'] } }),
      409,
      'user.email_taken',
      'email',
    )
  })

  it('refuses an invalid phone number and an invalid country', async () => {
    const body = { name: 'Bad', email: 'bad@example.com', country_code: 'ES', phone: '+34 600' }
    await refused(() => platform.call('POST', `/groups/${A.account}/contacts`, { token: admin(), body }), 400, 'phone.invalid', 'phone')
    await refused(
      () => platform.call('POST', `/groups/${A.account}/contacts`, { token: admin(), body: { ...body, phone: '+34 600 123 456', country_code: 'EU' } }),
      400,
      'country.invalid',
      'country_code',
    )
  })

  it('refuses to delete a contact in use', async () => {
    const res = await refused(() => platform.call('DELETE', `/groups/${A.account}/contacts/${A.usedContact}`, { token: admin() }), 409, 'contact.in_use')
    expect(res.json.domain_count).toBeGreaterThan(0)
  })

  it('refuses to remove or disable the last admin of an account', async () => {
    const staff = tokens['staff@example.com']!
    const gil = (await platform.call('GET', `/groups/${B.account}/users/${B.admin}`, { token: staff })).json
    await refused(() => platform.call('PATCH', `/groups/${B.account}/users/${B.admin}`, { token: staff, body: { roles: ['domain-admin'], version: gil.version } }), 409, 'user.last_admin', 'roles')
    await refused(() => platform.call('POST', `/groups/${B.account}/users/${B.admin}/disable`, { token: staff }), 409, 'user.last_admin', 'status')
  })

  it('refuses a user editing their own roles', async () => {
    const me = (await platform.call('GET', `/groups/${A.account}/users/${A.admin}`, { token: admin() })).json
    await refused(
      () => platform.call('PATCH', `/groups/${A.account}/users/${A.admin}`, { token: admin(), body: { roles: [...me.roles, 'invoice-admin'], version: me.version } }),
      400,
      'user.own_roles',
      'roles',
    )
    // Their own name is theirs to change.
    const renamed = await platform.call('PATCH', `/groups/${A.account}/users/${A.admin}`, { token: admin(), body: { name: 'Ada A. Admin', version: me.version } })
    expect(renamed.status).toBe(200)
  })
})

describe('the audit trail by area', () => {
  it('answers 403 for an area the user may not view, and lists only the areas they may', async () => {
    const { createUser } = await import('#server/platform/users/service.ts')
    const { systemScope } = await import('#server/platform/core/scope.ts')
    // A user who may read users but no domains, DNS or contacts.
    await createUser(platform.db, systemScope('test'), { account_id: A.account, email: 'users-only@acme.example', password: DEMO_PASSWORD, roles: ['user-viewer'] })
    const token = (await platform.call('POST', '/login', { body: { username: 'users-only@acme.example', password: DEMO_PASSWORD } })).json.access_token
    // Make sure the account's trail holds more than the users area.
    expect((await platform.call('GET', `/groups/${A.account}/audit-entries?filter[area]=domains&limit=1`, { token: tokens['admin@acme.example'] })).json.meta.total).toBeGreaterThan(0)

    const domains = await platform.call('GET', `/groups/${A.account}/audit-entries?filter[area]=domains`, { token })
    expect(domains.status).toBe(403)
    expect(domains.json.detail).toMatch(/domains/)
    expect((await platform.call('GET', `/groups/${A.account}/audit-entries?filter[area]=users,dns`, { token })).status).toBe(403)

    const mine = await platform.call('GET', `/groups/${A.account}/audit-entries?limit=1000`, { token })
    expect(mine.status).toBe(200)
    expect(mine.json.data.length).toBeGreaterThan(0)
    expect(new Set(mine.json.data.map((e: { area: string }) => e.area))).toEqual(new Set(['users']))
    // Asked through pql, the same; and a filter on another field cannot widen the areas.
    expect((await platform.call('GET', `/groups/${A.account}/audit-entries?pql=${encodeURIComponent("area equals 'domains'")}`, { token })).status).toBe(403)
    const other = await platform.call('GET', `/groups/${A.account}/audit-entries?pql=${encodeURIComponent("action contains 'e'")}&limit=1000`, { token })
    expect(other.status).toBe(200)
    expect(other.json.data.every((e: { area: string }) => e.area === 'users')).toBe(true)

    const staff = await platform.call('GET', `/groups/${A.account}/audit-entries?filter[area]=domains&limit=1`, { token: tokens['staff@example.com'] })
    expect(staff.status).toBe(200)
  })
})
