import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount } from '#server/platform/accounts/service.ts'
import { hashToken } from '#server/platform/auth/tokens.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// Decision 011: the tokens a process has verified are kept until the database says that the token
// or its user changed (migration 0694's notifications), or this process changes things itself.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let accountId: string
const PASSWORD = 'a long enough passphrase'

beforeAll(async () => {
  platform = await createTestPlatform()
  accountId = (await createAccount(platform.db, systemScope('test'), { name: 'Token Cache Co' })).id
})
afterAll(() => platform?.close())

async function signIn(email: string) {
  await createUser(platform.db, systemScope('test'), { account_id: accountId, email, password: PASSWORD, roles: ['user-admin'] })
  const res = await platform.call('POST', '/login', { body: { username: email, password: PASSWORD }, client: { ip: `198.51.100.${Math.floor(Math.random() * 250) + 1}` } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

/** Asks until the answer is `status`, for at most two seconds (a notification is on its way). */
async function eventually(token: string, status: number) {
  const deadline = Date.now() + 2000
  for (;;) {
    const res = await platform.call('GET', '/me', { token })
    if (res.status === status || Date.now() > deadline) return res.status
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('verified bearer tokens, kept per process', () => {
  it('keeps a verified token, and forgets it when another process revokes it (by SQL, as by hand)', async () => {
    const token = await signIn('kept@cache.example')
    // The sign-in's own notification (last_sign_in_at) may still be on its way: a lookup that
    // overlaps it is not kept, the next one is.
    for (let i = 0; i < 50 && !platform.deps.tokenCache!.get(hashToken(token)); i++) {
      expect((await platform.call('GET', '/me', { token })).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(platform.deps.tokenCache!.get(hashToken(token))).toMatchObject({ kind: 'access', status: 'active' })
    await sql`UPDATE auth_tokens SET revoked_at = now() WHERE token_hash = ${hashToken(token)}`.execute(platform.db)
    expect(await eventually(token, 401)).toBe(401)
    expect(platform.deps.tokenCache!.get(hashToken(token))).toBeUndefined()
  })

  it('forgets every token of a user whose row changes elsewhere (disabled, roles changed)', async () => {
    const token = await signIn('disabled@cache.example')
    const me = await platform.call('GET', '/me', { token })
    expect(me.headers.get('roles')).toContain('user-admin')
    await sql`UPDATE users SET roles = '{domain-viewer}' WHERE email = 'disabled@cache.example'`.execute(platform.db)
    const deadline = Date.now() + 2000
    while (!(await platform.call('GET', '/me', { token })).headers.get('roles')?.includes('domain-viewer') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    expect((await platform.call('GET', '/me', { token })).headers.get('roles')).not.toContain('user-admin')
    await sql`UPDATE users SET status = 'disabled' WHERE email = 'disabled@cache.example'`.execute(platform.db)
    expect(await eventually(token, 401)).toBe(401)
  })

  it('refuses a token at the very next request after this process revoked it (logout), without waiting for the notification', async () => {
    const token = await signIn('logout@cache.example')
    expect((await platform.call('GET', '/me', { token })).status).toBe(200)
    expect((await platform.call('POST', '/logout', { token })).status).toBe(204)
    expect((await platform.call('GET', '/me', { token })).status).toBe(401)
  })

  it('keeps nothing while it does not listen', async () => {
    const token = await signIn('deaf@cache.example')
    await platform.deps.tokenCache!.stop()
    try {
      expect((await platform.call('GET', '/me', { token })).status).toBe(200)
      expect(platform.deps.tokenCache!.get(hashToken(token))).toBeUndefined()
    } finally {
      await platform.deps.tokenCache!.start(platform.database)
    }
    for (let i = 0; i < 50 && !platform.deps.tokenCache!.get(hashToken(token)); i++) {
      expect((await platform.call('GET', '/me', { token })).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(platform.deps.tokenCache!.get(hashToken(token))).toBeDefined()
  })
})
