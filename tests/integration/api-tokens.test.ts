import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { createServerApp } from '#server/http/app.ts'
import { createLogger } from '#server/lib/logger.ts'
import { isApiTokenSecret } from '#server/platform/api-tokens/format.ts'
import { totpCode } from '#server/platform/auth/two-factor.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
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
  platform = await createTestPlatform({ apiTokenRateLimit: { limit: 30, windowSeconds: 60 } }, { seed: { domainsPerAccount: [4, 2] } })
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

/** A request whose path goes as written (no URL parser in between): over HTTP to the real server, or to the API in process. */
type Raw = (method: string, target: string, token: string, body?: unknown) => Promise<{ status: number; code?: string }>
const inProcess: Raw = async (method, target, token, body) => {
  const headers = { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }
  const res = await platform.api.fetch(new Request(`http://platform.test${target}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }), { client: HOME })
  const text = await res.text()
  return { status: res.status, code: /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text).code : undefined }
}
function overHttp(port: number): Raw {
  return (method, target, token, body) =>
    new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body)
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method,
          path: target,
          headers: { authorization: `Bearer ${token}`, ...(text ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } : {}) },
        },
        (res) => {
          let data = ''
          res.on('data', (chunk: Buffer) => (data += chunk.toString()))
          res.on('end', () => resolve({ status: res.statusCode!, code: /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(data).code : undefined }))
        },
      )
      req.on('error', reject)
      req.end(text)
    })
}

/** What a user signs in with: password, second factor, tokens, sessions, preferences. */
async function signInState(userId: string) {
  const db = platform.db
  return {
    user: await db.selectFrom('users').select(['password_hash', 'language', 'dark_theme', 'version', 'status']).where('id', '=', userId).executeTakeFirstOrThrow(),
    twoFactor: await db.selectFrom('user_two_factor').select(['secret', 'enabled_at']).where('user_id', '=', userId).execute(),
    apiTokens: await db.selectFrom('api_tokens').select(['id', 'revoked_at']).where('user_id', '=', userId).orderBy('id').execute(),
    sessions: await db.selectFrom('auth_tokens').select(['id', 'revoked_at']).where('user_id', '=', userId).orderBy('id').execute(),
  }
}

const userIdOf = async (email: string) => (await platform.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id

describe('API token scope (issue 26)', () => {
  it('reaches no profile operation (password, second factor, tokens, preferences) by any spelling of the path, even holding every permission', async () => {
    const viewer = (await make('admin@acme.example', { name: 'Viewer', permissions: ['domain-viewer'] })).json.secret
    const everything = (await make('staff@example.com', { name: 'Everything', permissions: ['staff'] })).json.secret
    const owners = { [viewer]: await userIdOf('admin@acme.example'), [everything]: await userIdOf('staff@example.com') }
    const before = { [viewer]: await signInState(owners[viewer]!), [everything]: await signInState(owners[everything]!) }
    // One operation, many spellings: each is this path to the router, or no path at all.
    const spellings = [
      '/v1/profile',
      '/v1/%70rofile',
      '/v1/%70%72%6F%66%69%6C%65',
      '/v1//profile',
      '/v1/./profile',
      '/v1/x/../profile',
      '/v1/%2e/profile',
      '/%76%31/profile',
      '/V1/PROFILE',
      '/v1/PROFILE',
    ]
    const operations: [string, string, unknown?][] = [
      ['POST', '/two_factor'],
      ['POST', '/two_factor/confirm', { code: '123456' }],
      ['DELETE', '/two_factor', { code: '123456' }],
      ['PUT', '/password', { current_password: DEMO_PASSWORD, new_password: 'a quite different passphrase 2026' }],
      ['PATCH', '', { language: 'ja', dark_theme: true }],
      ['GET', '/api_tokens'],
      ['POST', '/api_tokens', { name: 'wider', permissions: ['domain-viewer'], expires_in_days: 365 }],
    ]
    const dir = mkdtempSync(path.join(tmpdir(), 'rp-token-scope-'))
    const app = createServerApp({ config: loadConfig({ DATA_DIR: dir, NODE_ENV: 'test', APP_ENV: 'test' }), database: platform.database, logger: createLogger('silent'), platformApi: platform.api })
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
    await new Promise((resolve) => server.once('listening', resolve))
    const answers: string[] = []
    try {
      for (const send of [inProcess, overHttp((server.address() as AddressInfo).port)]) {
        for (const secret of [viewer, everything]) {
          for (const spelling of spellings) {
            // This file's tokens may make 30 requests a minute: the count starts over for each spelling.
            await sql`DELETE FROM rate_limits WHERE key LIKE 'api-token:%'`.execute(platform.db)
            for (const [method, rest, body] of operations) {
              const target = `${spelling}${spelling === '/V1/PROFILE' ? rest.toUpperCase() : rest}`
              const { status, code } = await send(method, target, secret, body)
              answers.push(`${method} ${target} ${status} ${code}`)
              expect([400, 403, 404], `${method} ${target} ${code}`).toContain(status)
              // Whatever reaches a profile operation is refused by the operation itself.
              if (status === 403) expect(code).toBe('token.not_allowed')
            }
          }
        }
        // A segment with an encoded slash or backslash, or an encoded percent, has two readings: refused.
        for (const target of ['/v1/profile%2Ftwo_factor', '/v1/profile%5Ctwo_factor', '/v1/%2570rofile/two_factor']) {
          const { status, code } = await send('POST', target, viewer)
          expect(status, target).toBe(400)
          expect(code).toBe('path-ambiguous')
        }
      }
    } finally {
      await new Promise((resolve) => server.close(resolve))
      rmSync(dir, { recursive: true, force: true })
    }
    // Nothing changed: the same password, no second factor, no new token, the sessions as they were.
    for (const secret of [viewer, everything]) expect(await signInState(owners[secret]!)).toEqual(before[secret])
    // The plain path, a percent-encoded one and a doubled slash land on the operation (refused by it), not on a 404.
    expect(answers).toContain(`POST /v1/%70rofile/two_factor 403 token.not_allowed`)
    expect(answers).toContain(`POST /v1//profile/two_factor 403 token.not_allowed`)
    // The refusal is each operation's declared access, published in the document the reference shows.
    const paths = (await platform.call('GET', '/openapi.json')).json.paths
    for (const [path, method] of [
      ['/v1/profile/password', 'put'],
      ['/v1/profile/two_factor', 'post'],
      ['/v1/profile/api_tokens', 'post'],
      ['/v1/profile', 'patch'],
      ['/v1/logout', 'post'],
    ] as const) {
      expect(paths[path][method]['x-session-only'], `${method} ${path}`).toBe(true)
    }
    expect(paths['/v1/me'].get['x-session-only']).toBeUndefined()
  })
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
