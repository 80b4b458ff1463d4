import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import { isApiTokenSecret } from '#server/platform/api-tokens/format.ts'
import { totpCode } from '#server/platform/auth/two-factor.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

/**
 * API tokens (issue 20): made by a user for themselves or by an admin for a service user, never
 * holding more than their creator; bound to an account, to domains by tag, to address ranges;
 * refused at once when revoked (by the API or by SQL: decision 011's cache), audited as
 * "token N of user U", rate limited with 429 and the RateLimit headers.
 */
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const session: Record<string, string> = {}
let acme: string
let globex: string
const HOME = { ip: '198.51.100.7' }

beforeAll(async () => {
  platform = await createTestPlatform({ apiTokenRateLimit: { limit: 30, windowSeconds: 60 } })
  await seedDemo(platform.db, createLogger('silent'), { domainsPerAccount: [4, 2] })
  for (const email of ['staff@example.com', 'admin@acme.example', 'viewer@acme.example', 'admin@globex.example']) {
    session[email] = (await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })).json.access_token
  }
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
})
afterAll(() => platform?.close())

const make = (email: string, body: Record<string, unknown>) => platform.call('POST', '/profile/api_tokens', { token: session[email], body })

describe('API tokens', () => {
  it('shows the secret once in the rp_ + checksum format, stores a hash, and acts with the permissions given', async () => {
    const made = await make('admin@acme.example', { name: 'CI deploys', permissions: ['domain-viewer'] })
    expect(made.status).toBe(201)
    const secret: string = made.json.secret
    expect(secret).toMatch(/^rp_[0-9A-Za-z]{36}$/)
    expect(isApiTokenSecret(secret)).toBe(true)
    // One character off breaks the checksum: refused without a lookup.
    expect(isApiTokenSecret(secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a'))).toBe(false)
    const stored = await sql<{ n: number }>`SELECT count(*)::int AS n FROM api_tokens WHERE token_hash = ${secret} OR hint = ${secret}`.execute(platform.db)
    expect(stored.rows[0]!.n).toBe(0)
    expect(made.json.token.expires_at.slice(0, 10)).toBe(new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10))

    const list = await platform.call('GET', `/groups/${acme}/domains`, { token: secret, client: HOME })
    expect(list.status).toBe(200)
    expect(list.headers.get('RateLimit-Limit')).toBe('30')
    expect(list.headers.get('RateLimit-Policy')).toBe('"token";q=30;w=60')
    // The token holds domain-viewer only: no contact list, no change to a domain.
    expect((await platform.call('GET', `/groups/${acme}/contacts`, { token: secret, client: HOME })).status).toBe(403)
    // Its user's other account is out of reach, as for the user.
    expect((await platform.call('GET', `/groups/${globex}/domains`, { token: secret, client: HOME })).status).toBe(404)
    // A token makes no tokens, and is no sign-in to end or to complete with a code.
    expect((await platform.call('POST', '/profile/api_tokens', { token: secret, body: { name: 'x', permissions: ['domain-viewer'] } })).json.code).toBe('token.not_allowed')
    expect((await platform.call('POST', '/logout', { token: secret, client: HOME })).json.code).toBe('token.not_allowed')
    expect((await platform.call('POST', '/profile/two_factor', { token: secret, client: HOME })).json.code).toBe('token.not_allowed')
    expect((await platform.call('POST', '/two_factor_codes', { token: secret, client: HOME, body: { code: '123456' } })).json.code).toBe('token.not_allowed')

    const mine = await platform.call('GET', '/profile/api_tokens', { token: session['admin@acme.example'] })
    const row = mine.json.data.find((t: { id: string }) => t.id === made.json.token.id)
    expect(row.last_used_address).toBe(HOME.ip)
    expect(row.last_used_at).not.toBeNull()
    expect(JSON.stringify(mine.json)).not.toContain(secret)
  })

  it('never holds more than its creator, and refuses each bad field by name', async () => {
    const more = await make('viewer@acme.example', { name: 'Too much', permissions: ['domain-viewer', 'domain-manager'] })
    expect(more.status).toBe(400)
    expect(more.json.errors).toEqual([expect.objectContaining({ field: 'permissions.1', code: 'token.permission_not_held' })])
    const tooLong = await make('admin@acme.example', { name: 'Long', permissions: ['domain-viewer'], expires_in_days: 366 })
    expect(tooLong.json.errors).toEqual([expect.objectContaining({ field: 'expires_in_days' })])
    const bad = await make('admin@acme.example', { name: 'Bad', permissions: ['domain-viewer'], cidrs: ['10.0.0.0/33'], domain_tags: ['Not a tag!'], account_id: globex })
    expect(bad.status).toBe(400)
    expect(bad.json.errors.map((e: { field: string; code: string }) => `${e.field} ${e.code}`).sort()).toEqual([
      'account_id token.account_invalid',
      'cidrs.0 token.cidr_invalid',
      'domain_tags.0 token.tag_invalid',
    ])
  })

  it('is audited as "token N of user U", binds to one account, to address ranges and to domains by tag', async () => {
    const made = await make('staff@example.com', { name: 'Acme ops', permissions: ['domain-admin', 'contact-admin'], account_id: acme, cidrs: ['10.0.0.0/8', '2001:db8::/32'], expires_in_days: 30 })
    expect(made.status).toBe(201)
    const { secret, token } = made.json
    const office = { ip: '10.1.2.3' }
    expect((await platform.call('GET', `/groups/${acme}/contacts`, { token: secret, client: { ip: '192.0.2.1' } })).json.code).toBe('token.address_refused')
    expect((await platform.call('GET', `/groups/${acme}/contacts`, { token: secret, client: { ip: '2001:db8::1' } })).status).toBe(200)
    // Staff's token bound to Acme acts in Acme only.
    expect((await platform.call('GET', `/groups/${globex}/contacts`, { token: secret, client: office })).status).toBe(404)
    const created = await platform.call('POST', `/groups/${acme}/contacts`, { token: secret, client: office, body: { name: 'Token Contact', email: 'token@example.com', country_code: 'ES' } })
    expect(created.status).toBe(201)
    const entry = await platform.db.selectFrom('audit_entries').select(['actor_label', 'actor_user_id']).where('entity_id', '=', created.json.id).executeTakeFirstOrThrow()
    expect(entry.actor_label).toBe(`token ${token.number} of user staff@example.com`)

    // Domains by tag: the list holds the tagged ones only; another domain is 404; other areas 403.
    const domains = await platform.db.selectFrom('domains').select(['id', 'tags']).where('account_id', '=', acme).where('status', '<>', 'deleted').orderBy('name').execute()
    await platform.db
      .updateTable('domains')
      .set({ tags: ['prod'] })
      .where('id', '=', domains[0]!.id)
      .execute()
    const tagged = (await make('admin@acme.example', { name: 'Prod only', permissions: ['domain-viewer', 'contact-viewer'], domain_tags: ['prod'] })).json.secret
    const list = await platform.call('GET', `/groups/${acme}/domains?limit=100`, { token: tagged, client: HOME })
    expect(list.json.data.map((d: { id: string }) => d.id)).toEqual([domains[0]!.id])
    expect((await platform.call('GET', `/groups/${acme}/domains/${domains[0]!.id}`, { token: tagged, client: HOME })).status).toBe(200)
    expect((await platform.call('GET', `/groups/${acme}/domains/${domains[1]!.id}`, { token: tagged, client: HOME })).status).toBe(404)
    expect((await platform.call('GET', `/groups/${acme}/contacts`, { token: tagged, client: HOME })).status).toBe(403)
  })

  it('is refused by the next request once revoked (by the API or by SQL), its user disabled, or expired', async () => {
    const a = (await make('admin@acme.example', { name: 'A', permissions: ['domain-viewer'] })).json
    const path = `/groups/${acme}/domains?limit=1`
    expect((await platform.call('GET', path, { token: a.secret, client: HOME })).status).toBe(200)
    expect((await platform.call('DELETE', `/profile/api_tokens/${a.token.id}`, { token: session['admin@acme.example'] })).json.revoked_at).not.toBeNull()
    expect((await platform.call('GET', path, { token: a.secret, client: HOME })).status).toBe(401)

    const b = (await make('admin@acme.example', { name: 'B', permissions: ['domain-viewer'] })).json
    expect((await platform.call('GET', path, { token: b.secret, client: HOME })).status).toBe(200)
    await platform.db
      .updateTable('api_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', b.token.id)
      .execute()
    await platform.settled()
    expect((await platform.call('GET', path, { token: b.secret, client: HOME })).status).toBe(401)

    // A service user's token dies with its user: disabled here.
    const service = await platform.call('POST', `/groups/${acme}/service_users`, { token: session['admin@acme.example'], body: { name: 'Billing sync', roles: ['domain-viewer'] } })
    expect(service.status).toBe(201)
    expect(service.json.kind).toBe('service')
    const s = await platform.call('POST', `/groups/${acme}/users/${service.json.id}/api_tokens`, { token: session['admin@acme.example'], body: { name: 'sync', permissions: ['domain-viewer'] } })
    expect(s.status).toBe(201)
    expect((await platform.call('GET', path, { token: s.json.secret, client: HOME })).status).toBe(200)
    await sql`UPDATE users SET status = 'disabled' WHERE id = ${service.json.id}`.execute(platform.db)
    await platform.settled()
    expect((await platform.call('GET', path, { token: s.json.secret, client: HOME })).status).toBe(401)
    // The viewer may not manage service users' tokens; Globex's admin does not see Acme's.
    expect((await platform.call('GET', `/groups/${acme}/users/${service.json.id}/api_tokens`, { token: session['viewer@acme.example'] })).status).toBe(403)
    expect((await platform.call('GET', `/groups/${acme}/users/${service.json.id}/api_tokens`, { token: session['admin@globex.example'] })).status).toBe(404)
    expect((await platform.call('GET', `/groups/${globex}/users/${service.json.id}/api_tokens`, { token: session['admin@globex.example'] })).status).toBe(404)
  })

  it('has its own rate limit: 429 with Retry-After and the RateLimit headers', async () => {
    const { secret } = (await make('admin@acme.example', { name: 'Busy', permissions: ['domain-viewer'] })).json
    const path = `/groups/${acme}/domains?limit=1`
    for (let i = 0; i < 30; i++) expect((await platform.call('GET', path, { token: secret, client: HOME })).status).toBe(200)
    const refused = await platform.call('GET', path, { token: secret, client: HOME })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0')
    expect(refused.headers.get('RateLimit')).toMatch(/^"token";r=0;t=\d+$/)
    // The user's session is not limited by the token's count.
    expect((await platform.call('GET', path, { token: session['admin@acme.example'] })).status).toBe(200)
  })
})

const userIdOf = async (email: string) => (await platform.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id

describe('API token scope (issue 26)', () => {
  it("never weakens its own user's sign-in: no reset of their second factor, and a password change ends it", async () => {
    // Two admins of one account, each with a second factor on (enrolled through the API).
    const acmeAdmin = await userIdOf('admin@acme.example')
    const PASSWORD = 'token scope passphrase 26'
    const enrol = async (email: string) => {
      const id = (await createUser(platform.db, systemScope('test'), { account_id: acme, email, password: PASSWORD, roles: ['user-admin', 'domain-viewer'] })).id
      const token: string = (await platform.call('POST', '/login', { body: { username: email, password: PASSWORD } })).json.access_token
      const secret: string = (await platform.call('POST', '/profile/two_factor', { token })).json.secret
      expect((await platform.call('POST', '/profile/two_factor/confirm', { token, body: { code: totpCode(secret, new Date()) } })).status).toBe(200)
      return { id, token }
    }
    const owner = await enrol('owner.26@acme.example')
    const other = await enrol('other.26@acme.example')
    const secret: string = (await platform.call('POST', '/profile/api_tokens', { token: owner.token, body: { name: 'Admin script', permissions: ['user-admin', 'domain-viewer'] } })).json.secret
    const twoFactorOf = async (id: string) => (await platform.db.selectFrom('user_two_factor').select('enabled_at').where('user_id', '=', id).execute()).length

    // The token's own user: refused, the second factor stays. Another user: reset, as an admin may.
    const own = await platform.call('POST', `/groups/${acme}/users/${owner.id}/reset-two-factor`, { token: secret, client: HOME })
    expect(own.status).toBe(403)
    expect(own.json.code).toBe('token.not_allowed')
    expect(await twoFactorOf(owner.id)).toBe(1)
    expect((await platform.call('POST', `/groups/${acme}/users/${other.id}/reset-two-factor`, { token: secret, client: HOME })).status).toBe(200)
    expect(await twoFactorOf(other.id)).toBe(0)
    expect(acmeAdmin).not.toBe(owner.id)

    // A password change ends the user's API tokens with their sessions: the next request is refused.
    const path = `/groups/${acme}/domains?limit=1`
    expect((await platform.call('GET', path, { token: secret, client: HOME })).status).toBe(200)
    const changed = await platform.call('PUT', '/profile/password', { token: owner.token, body: { current_password: PASSWORD, new_password: 'a brand new passphrase 26' } })
    expect(changed.status).toBe(200)
    expect((await platform.call('GET', path, { token: secret, client: HOME })).status).toBe(401)
    const rows = await platform.db.selectFrom('api_tokens').select('revoked_at').where('user_id', '=', owner.id).execute()
    expect(rows.map((r) => r.revoked_at !== null)).toEqual([true])
    // The session the change answered works; the token made before it stays revoked.
    expect((await platform.call('GET', '/profile/api_tokens', { token: changed.json.access_token })).json.data[0].revoked_at).not.toBeNull()
  })

  it('bound to one account, acts in that account only, whatever it holds (staff included)', async () => {
    const staffUser = await userIdOf('staff@example.com')
    // A token made before this rule with staff and a binding (the API now refuses to make one).
    const refused = await make('staff@example.com', { name: 'Acme staff', permissions: ['staff', 'domain-viewer'], account_id: acme })
    expect(refused.status).toBe(400)
    expect(refused.json.errors).toEqual([expect.objectContaining({ field: 'permissions.0', code: 'token.staff_bound' })])
    const made = await make('staff@example.com', { name: 'Acme ops', permissions: ['domain-viewer', 'account-viewer', 'invoice-viewer'], account_id: acme })
    expect(made.status).toBe(201)
    await platform.db
      .updateTable('api_tokens')
      .set({ permissions: ['staff', 'domain-viewer', 'account-viewer', 'invoice-viewer'] })
      .where('id', '=', made.json.token.id)
      .execute()
    await platform.settled()
    const token: string = made.json.secret
    const call = (method: string, path: string, body?: unknown) => platform.call(method, path, { token, client: HOME, ...(body === undefined ? {} : { body }) })

    // Acme's domains only, though the list route would show staff every account's.
    const acmeDomains = await platform.db.selectFrom('domains').select('id').where('account_id', '=', acme).execute()
    const listed = await call('GET', `/groups/${acme}/domains?limit=1000`)
    expect(listed.status).toBe(200)
    expect(listed.json.data.map((d: { id: string }) => d.id).sort()).toEqual(acmeDomains.map((d) => d.id).sort())
    expect(listed.json.data.every((d: { account_id?: string }) => d.account_id === undefined || d.account_id === acme)).toBe(true)
    const globexDomain = (await platform.db.selectFrom('domains').select('id').where('account_id', '=', globex).executeTakeFirstOrThrow()).id
    expect((await call('GET', `/groups/${acme}/domains/${globexDomain}`)).status).toBe(404)
    expect((await call('GET', `/groups/${globex}/domains`)).status).toBe(404)
    // Globex's account is not there; Acme's is.
    expect((await call('GET', `/accounts/${globex}`)).status).toBe(404)
    expect((await call('GET', `/accounts/${acme}`)).status).toBe(200)
    const accounts = await call('GET', `/groups/${acme}/accounts?limit=100`)
    expect(accounts.json.data.map((a: { id: string }) => a.id)).toEqual([acme])
    // Nothing of staff's: no credit limit, no account made, no change to Globex — and nothing changed.
    const entity = (await platform.db.selectFrom('accounts').select('billing_entity_id').where('id', '=', acme).executeTakeFirstOrThrow()).billing_entity_id
    expect(entity).not.toBeNull()
    const balancesBefore = await platform.db.selectFrom('billing_balances').selectAll().orderBy('billing_entity_id').orderBy('currency').execute()
    const limit = await call('PUT', `/groups/${acme}/billing-entities/${entity}/balances/EUR`, { credit_limit: '1000000.00' })
    expect(limit.status).toBe(403)
    expect((await call('POST', '/accounts', { name: 'Made by a bound token' })).status).toBe(403)
    expect([403, 404]).toContain((await call('PATCH', `/accounts/${globex}`, { language: 'ja', version: 1 })).status)
    expect(await platform.db.selectFrom('billing_balances').selectAll().orderBy('billing_entity_id').orderBy('currency').execute()).toEqual(balancesBefore)
    expect(await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Made by a bound token').execute()).toEqual([])
    expect(staffUser).toBeTruthy()
  })
})
