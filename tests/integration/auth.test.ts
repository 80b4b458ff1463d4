import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPlatformApi } from '#server/platform/api.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>
let accountId: string
let otherAccountId: string
const PASSWORD = 'a long enough passphrase'

beforeAll(async () => {
  platform = await createTestPlatform()
  const scope = systemScope('test')
  accountId = (await createAccount(platform.db, scope, { name: 'Auth Test Co' })).id
  otherAccountId = (await createAccount(platform.db, scope, { name: 'Other Co' })).id
  await createUser(platform.db, scope, { account_id: accountId, email: 'ada@auth.example', password: PASSWORD, roles: ['user-admin'] })
  await createUser(platform.db, scope, { account_id: accountId, email: 'bob@auth.example', password: PASSWORD, roles: ['domain-viewer'] })
  await createUser(platform.db, scope, { account_id: otherAccountId, email: 'olga@other.example', password: PASSWORD, roles: ['user-admin'] })
  await createUser(platform.db, scope, { account_id: otherAccountId, email: 'staff@auth.example', password: PASSWORD, roles: ['staff'] })
})
afterAll(() => platform?.close())

// Every request comes from a distinct address unless told, so per-IP limits stay out of the way.
let ipCounter = 0
const nextIp = () => `198.51.100.${++ipCounter}`
const as = (ip: string, ua = 'vitest') => ({ ip, userAgent: ua })

async function login(username: string, password = PASSWORD, ip = nextIp()) {
  return platform.call('POST', '/login', { body: { username, password }, client: as(ip) })
}

async function events(where: { email?: string; user_id?: string }) {
  let q = platform.db.selectFrom('auth_events').selectAll().orderBy('created_at').orderBy('id')
  if (where.email) q = q.where('email', '=', where.email)
  if (where.user_id) q = q.where('user_id', '=', where.user_id)
  return q.execute()
}

describe('password sign-in', () => {
  it('signs in, serves /me with roles, abilities and env headers, and logs the attempt with IP and user agent', async () => {
    const res = await platform.call('POST', '/login', { body: { username: ' ADA@auth.example ', password: PASSWORD }, client: as('203.0.113.7', 'Firefox/140') })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String) })
    const me = await platform.call('GET', '/me', { token: res.json.access_token })
    expect(me.status).toBe(200)
    expect(me.json).toMatchObject({ email: 'ada@auth.example', group_id: accountId, language: 'en', dark_theme: false })
    expect(JSON.parse(me.headers.get('roles')!)).toEqual(expect.arrayContaining(['user-admin', 'user-viewer']))
    expect(JSON.parse(me.headers.get('abilities')!)).toEqual([])
    expect(me.headers.get('env')).toBe('test')
    const last = (await events({ email: 'ada@auth.example' })).at(-1)!
    expect(last).toMatchObject({ kind: 'password', outcome: 'success', ip: '203.0.113.7', user_agent: 'Firefox/140', account_id: accountId })
  })

  it('answers a wrong password and an unknown user with the same message, and logs both reasons', async () => {
    const wrong = await login('bob@auth.example', 'not the password at all')
    const unknown = await login('nobody@auth.example', 'not the password at all')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.json.detail).toBe(unknown.json.detail)
    expect(wrong.json.code).toBe(unknown.json.code)
    expect((await events({ email: 'bob@auth.example' })).at(-1)).toMatchObject({ kind: 'password', outcome: 'failure', reason: 'wrong_password' })
    expect((await events({ email: 'nobody@auth.example' })).at(-1)).toMatchObject({ kind: 'password', outcome: 'failure', reason: 'unknown_user', user_id: null, account_id: null })
  })

  it('never takes the address from the request’s own headers: only the server in front of the API says it', async () => {
    await platform.call('POST', '/login', { body: { username: 'x-real@auth.example', password: 'whatever it is' }, headers: { 'x-real-ip': '192.0.2.55', 'x-forwarded-for': '192.0.2.56' } })
    expect((await events({ email: 'x-real@auth.example' })).at(-1)!.ip).toBe('unknown')
  })

  it('refuses a disabled user with the same message', async () => {
    const scope = systemScope('test')
    const user = await createUser(platform.db, scope, { account_id: accountId, email: 'dis@auth.example', password: PASSWORD })
    const before = await login('dis@auth.example')
    expect(before.status).toBe(200)
    await platform.db.updateTable('users').set({ status: 'disabled' }).where('id', '=', user.id).execute()
    await platform.settled()
    // Disabling ends the sessions it had.
    expect((await platform.call('GET', '/me', { token: before.json.access_token })).status).toBe(401)
    expect((await platform.call('POST', '/refresh', { body: { refresh_token: before.json.refresh_token } })).status).toBe(401)
    const after = await login('dis@auth.example')
    expect(after.status).toBe(401)
    expect(after.json.detail).toBe('The username or password is incorrect')
    expect((await events({ email: 'dis@auth.example' })).at(-1)).toMatchObject({ outcome: 'failure', reason: 'disabled' })
  })
})

describe('brute-force throttling', () => {
  it('throttles a name after 5 failures with 429 and Retry-After, even with the right password, and across a restart', async () => {
    const scope = systemScope('test')
    await createUser(platform.db, scope, { account_id: accountId, email: 'target@auth.example', password: PASSWORD })
    for (let i = 0; i < 5; i++) expect((await login('target@auth.example', `wrong guess number ${i}`)).status).toBe(401)
    const blocked = await login('target@auth.example')
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('content-type')).toContain('application/problem+json')
    const retry = Number(blocked.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(800)
    expect(retry).toBeLessThanOrEqual(900)
    expect((await events({ email: 'target@auth.example' })).at(-1)).toMatchObject({ outcome: 'failure', reason: 'throttled' })

    // A new API over the same database, as after a restart: the counter is still there.
    const restarted = createPlatformApi(platform.deps)
    const again = await restarted.fetch(
      new Request('http://platform.test/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'target@auth.example', password: PASSWORD }) }),
      { client: as(nextIp()) },
    )
    expect(again.status).toBe(429)

    // The window ends: a clock 15 minutes on lets the right password in.
    const later = createPlatformApi({ ...platform.deps, now: () => new Date(Date.now() + 15 * 60 * 1000 + 1000) })
    const ok = await later.fetch(
      new Request('http://platform.test/v1/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'target@auth.example', password: PASSWORD }) }),
      { client: as(nextIp()) },
    )
    expect(ok.status).toBe(200)
  }, 60_000)

  it('lets the owner in from an address they signed in from lately while the name is locked; nobody else (decision 012)', async () => {
    await createUser(platform.db, systemScope('test'), { account_id: accountId, email: 'owner@auth.example', password: PASSWORD })
    const home = '203.0.113.50'
    expect((await login('owner@auth.example', PASSWORD, home)).status).toBe(200)
    // Someone who knows the name fails five times from addresses of their own: the name is locked.
    for (let i = 0; i < 5; i++) expect((await login('owner@auth.example', `attacker guess ${i}`)).status).toBe(401)
    expect((await login('owner@auth.example')).status).toBe(429)
    // The owner's known address still gets in with the right password, and only with it.
    expect((await login('owner@auth.example', 'owner mistyped', home)).status).toBe(401)
    const owner = await login('owner@auth.example', PASSWORD, home)
    expect(owner.status).toBe(200)
    expect(owner.json.access_token).toEqual(expect.any(String))
    expect((await events({ email: 'owner@auth.example' })).at(-1)).toMatchObject({ outcome: 'success', ip: home })
    // A known address is one that succeeded for this name: another name's known address is no key.
    await createUser(platform.db, systemScope('test'), { account_id: accountId, email: 'other-owner@auth.example', password: PASSWORD })
    for (let i = 0; i < 5; i++) expect((await login('other-owner@auth.example', `attacker guess ${i}`)).status).toBe(401)
    expect((await login('other-owner@auth.example', PASSWORD, home)).status).toBe(429)
  })

  it('a wrong current password when signed in does not lock the name for signing in', async () => {
    await createUser(platform.db, systemScope('test'), { account_id: accountId, email: 'changer@auth.example', password: PASSWORD })
    const signedIn = (await login('changer@auth.example')).json
    for (let i = 0; i < 6; i++) {
      const wrong = await platform.call('PUT', '/profile/password', {
        token: signedIn.access_token,
        body: { current_password: `not it ${i}`, new_password: 'a brand new passphrase' },
        client: as(nextIp()),
      })
      expect(wrong.status).toBe(i < 5 ? 400 : 429)
    }
    // The password changes are throttled; signing in from a new address is not.
    expect((await login('changer@auth.example')).status).toBe(200)
  })

  it('throttles an IP after 20 failures across names, unknown names included', async () => {
    const ip = '192.0.2.200'
    for (let i = 0; i < 20; i++) expect((await login(`guess${i}@nowhere.example`, 'some wrong password', ip)).status).toBe(401)
    const blocked = await login('bob@auth.example', PASSWORD, ip)
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another address is not affected.
    expect((await login('bob@auth.example')).status).toBe(200)
  }, 120_000) // 22 scrypt checks at OWASP cost: slow on a busy machine
})

describe('refresh tokens', () => {
  it('rotates: the new pair works, the old access token is retired', async () => {
    const first = (await login('bob@auth.example')).json
    const res = await platform.call('POST', '/refresh', { body: { refresh_token: first.refresh_token, sso_token: 'ignored' }, client: as(nextIp()) })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ data: { access_token: expect.any(String), refresh_token: expect.any(String) } })
    expect(res.json.data.refresh_token).not.toBe(first.refresh_token)
    expect((await platform.call('GET', '/me', { token: res.json.data.access_token })).status).toBe(200)
    expect((await platform.call('GET', '/me', { token: first.access_token })).status).toBe(401)
    const second = await platform.call('POST', '/refresh', { body: { refresh_token: res.json.data.refresh_token } })
    expect(second.status).toBe(200)
  })

  it('revokes the whole family when a used refresh token comes back, and logs the reuse', async () => {
    const bob = await platform.db.selectFrom('users').select('id').where('email', '=', 'bob@auth.example').executeTakeFirstOrThrow()
    const first = (await login('bob@auth.example')).json
    const rotated = (await platform.call('POST', '/refresh', { body: { refresh_token: first.refresh_token } })).json.data
    const replay = await platform.call('POST', '/refresh', { body: { refresh_token: first.refresh_token } })
    expect(replay.status).toBe(401)
    // The thief's replay ended the legitimate holder's tokens too.
    expect((await platform.call('GET', '/me', { token: rotated.access_token })).status).toBe(401)
    expect((await platform.call('POST', '/refresh', { body: { refresh_token: rotated.refresh_token } })).status).toBe(401)
    const log = await events({ user_id: bob.id })
    expect(log.filter((e) => e.kind === 'refresh').map((e) => e.reason)).toEqual(expect.arrayContaining(['rotated', 'reused_token', 'revoked_token']))
  })

  it('refuses unknown and access tokens as refresh tokens', async () => {
    expect((await platform.call('POST', '/refresh', { body: { refresh_token: 'not-a-token' } })).status).toBe(401)
    const pair = (await login('bob@auth.example')).json
    expect((await platform.call('POST', '/refresh', { body: { refresh_token: pair.access_token } })).status).toBe(401)
    expect((await events({})).filter((e) => e.kind === 'refresh' && e.reason === 'unknown_token').length).toBeGreaterThanOrEqual(2)
  })

  it('logs out: the family is revoked and the logout is logged', async () => {
    const pair = (await login('bob@auth.example')).json
    expect((await platform.call('POST', '/logout', { token: pair.access_token })).status).toBe(204)
    expect((await platform.call('GET', '/me', { token: pair.access_token })).status).toBe(401)
    expect((await platform.call('POST', '/refresh', { body: { refresh_token: pair.refresh_token } })).status).toBe(401)
    expect((await events({ email: 'bob@auth.example' })).some((e) => e.kind === 'logout' && e.outcome === 'success')).toBe(true)
  })
})

describe('profile', () => {
  it('patches language and theme with an audit entry, and refuses unknown languages', async () => {
    const token = (await login('bob@auth.example')).json.access_token
    const res = await platform.call('PATCH', '/profile', { token, body: { language: 'es', dark_theme: true } })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ language: 'es', dark_theme: true })
    expect((await platform.call('PATCH', '/profile', { token, body: { language: 'xx' } })).status).toBe(400)
    expect((await platform.call('PATCH', '/profile', { body: { language: 'en' } })).status).toBe(401)
    const audit = await platform.db.selectFrom('audit_entries').selectAll().where('entity_id', '=', res.json.id).where('action', '=', 'update_profile').executeTakeFirstOrThrow()
    expect(audit.changes).toEqual({ before: { language: 'en', dark_theme: false }, after: { language: 'es', dark_theme: true } })
  })

  it('changes the password: checks the current one and the policy, ends every session, audits it', async () => {
    const scope = systemScope('test')
    await createUser(platform.db, scope, { account_id: accountId, email: 'carol@auth.example', password: PASSWORD })
    const one = (await login('carol@auth.example')).json
    const two = (await login('carol@auth.example')).json
    const wrong = await platform.call('PUT', '/profile/password', { token: one.access_token, body: { current_password: 'not my password', new_password: 'a brand new passphrase' } })
    expect(wrong.status).toBe(400)
    expect(wrong.json.errors[0]).toMatchObject({ field: 'current_password', code: 'password.current_incorrect' })
    const weak = await platform.call('PUT', '/profile/password', { token: one.access_token, body: { current_password: PASSWORD, new_password: 'short' } })
    expect(weak.status).toBe(400)
    expect(weak.json.errors[0]).toMatchObject({ field: 'new_password', code: 'password.too_short' })
    const common = await platform.call('PUT', '/profile/password', { token: one.access_token, body: { current_password: PASSWORD, new_password: 'qwerty123456' } })
    expect(common.json.errors.map((e: { code: string }) => e.code)).toEqual(['password.common'])
    const same = await platform.call('PUT', '/profile/password', { token: one.access_token, body: { current_password: PASSWORD, new_password: 'Carol@Auth.example' } })
    expect(same.json.errors.map((e: { code: string }) => e.code)).toEqual(['password.matches_identity'])

    const ok = await platform.call('PUT', '/profile/password', { token: one.access_token, body: { current_password: PASSWORD, new_password: 'a brand new passphrase' } })
    expect(ok.status).toBe(200)
    expect((await platform.call('GET', '/me', { token: one.access_token })).status).toBe(401)
    expect((await platform.call('GET', '/me', { token: two.access_token })).status).toBe(401)
    expect((await platform.call('POST', '/refresh', { body: { refresh_token: two.refresh_token } })).status).toBe(401)
    expect((await platform.call('GET', '/me', { token: ok.json.access_token })).status).toBe(200)
    expect((await login('carol@auth.example', 'a brand new passphrase')).status).toBe(200)
    const audit = await platform.db.selectFrom('audit_entries').selectAll().where('action', '=', 'password_changed').executeTakeFirstOrThrow()
    expect(JSON.stringify(audit.changes)).not.toMatch(/scrypt/)
  })
})

describe('the authentication log as a list resource', () => {
  it('lists the account for a user admin, filters by user_id, and hides other accounts', async () => {
    const token = (await login('ada@auth.example')).json.access_token
    const bob = await platform.db.selectFrom('users').select('id').where('email', '=', 'bob@auth.example').executeTakeFirstOrThrow()
    const list = await platform.call('GET', `/groups/${accountId}/authentication-events?filter[user_id]=${bob.id}&sort=-created_at&limit=100`, { token })
    expect(list.status).toBe(200)
    expect(list.json.meta.total).toBeGreaterThan(3)
    expect(list.json.data.every((e: { user_id: string }) => e.user_id === bob.id)).toBe(true)
    expect(list.json.data[0]).toMatchObject({ kind: expect.any(String), outcome: expect.any(String), ip: expect.any(String), user_agent: expect.any(String), created_at: expect.any(String) })
    const failures = await platform.call('GET', `/groups/${accountId}/authentication-events?pql=${encodeURIComponent("outcome equals 'failure' and reason equals 'wrong_password'")}`, { token })
    expect(failures.status).toBe(200)
    expect(failures.json.data.length).toBeGreaterThan(0)
    expect((await platform.call('GET', `/groups/${otherAccountId}/authentication-events`, { token })).status).toBe(404)
  })

  it('shows a user without user-viewer only their own events', async () => {
    const token = (await login('bob@auth.example')).json.access_token
    const bob = await platform.db.selectFrom('users').select('id').where('email', '=', 'bob@auth.example').executeTakeFirstOrThrow()
    const list = await platform.call('GET', `/groups/${accountId}/authentication-events?limit=1000`, { token })
    expect(list.status).toBe(200)
    expect(list.json.data.length).toBeGreaterThan(0)
    expect(list.json.data.every((e: { user_id: string }) => e.user_id === bob.id)).toBe(true)
  })

  it('shows staff every event in their own group (unknown names too) and one account elsewhere', async () => {
    const token = (await login('staff@auth.example')).json.access_token
    const all = await platform.call('GET', `/groups/${otherAccountId}/authentication-events?filter[email]=nobody@auth.example`, { token })
    expect(all.status).toBe(200)
    expect(all.json.data[0]).toMatchObject({ reason: 'unknown_user', user_id: null })
    const acme = await platform.call('GET', `/groups/${accountId}/authentication-events?limit=1000`, { token })
    expect(acme.json.data.every((e: { account_id: string }) => e.account_id === accountId)).toBe(true)
  })
})
