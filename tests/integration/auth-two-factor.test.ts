import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount } from '#server/platform/accounts/service.ts'
import { totpCode } from '#server/platform/auth/two-factor.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// A clock the test moves, so that each code belongs to a known 30-second step.
let clock = new Date('2026-03-01T10:00:05Z')
const tick = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000))

let platform: Awaited<ReturnType<typeof createTestPlatform>>
let accountId: string
let userId: string
const PASSWORD = 'two factor passphrase'
const EMAIL = 'tfa@auth.example'

beforeAll(async () => {
  // Each reading moves it on by a millisecond, so that log entries keep their order.
  platform = await createTestPlatform({ now: () => (clock = new Date(clock.getTime() + 1)) })
  accountId = (await createAccount(platform.db, systemScope('test'), { name: 'Two Factor Co' })).id
  userId = (await createUser(platform.db, systemScope('test'), { account_id: accountId, email: EMAIL, password: PASSWORD, roles: ['user-admin'] })).id
})
afterAll(() => platform?.close())

const login = (email = EMAIL) => platform.call('POST', '/login', { body: { username: email, password: PASSWORD }, client: { ip: '198.51.100.10' } })
const lastEventOf = async (id: string) => platform.db.selectFrom('auth_events').selectAll().where('user_id', '=', id).orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow()

/** A user of its own with two-factor on (enrolled and confirmed through the API), for one test. */
async function enrolled(name: string) {
  const email = `${name}@auth.example`
  const id = (await createUser(platform.db, systemScope('test'), { account_id: accountId, email, password: PASSWORD, roles: ['user-admin'] })).id
  const token = (await login(email)).json.access_token
  const secret: string = (await platform.call('POST', '/profile/two_factor', { token })).json.secret
  const confirm = await platform.call('POST', '/profile/two_factor/confirm', { token, body: { code: totpCode(secret, clock) } })
  expect(confirm.status).toBe(200)
  return { id, email, secret, recoveryCodes: confirm.json.recovery_codes as string[], login: () => login(email) }
}

describe('two-factor sign-in', () => {
  it('enrols: a pending secret with otpauth URI and SVG QR code, confirmed by a first code', async () => {
    const token = (await login()).json.access_token
    const start = await platform.call('POST', '/profile/two_factor', { token })
    expect(start.status).toBe(200)
    const secret: string = start.json.secret
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(start.json.otpauth_uri).toMatch(/^otpauth:\/\/totp\/Registrar%20Portal:tfa%40auth\.example\?.*secret=/)
    expect(start.json.otpauth_uri).toContain('algorithm=SHA1&digits=6&period=30')
    expect(start.json.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/)
    // Pending: a password sign-in still gets full tokens.
    expect((await login()).json.two_factor_required).toBeUndefined()

    const wrong = await platform.call('POST', '/profile/two_factor/confirm', { token, body: { code: '000000' === totpCode(secret, clock) ? '111111' : '000000' } })
    expect(wrong.status).toBe(400)
    expect(wrong.json.errors[0].code).toBe('two_factor.invalid_code')

    const confirm = await platform.call('POST', '/profile/two_factor/confirm', { token, body: { code: totpCode(secret, clock) } })
    expect(confirm.status).toBe(200)
    const recoveryCodes: string[] = confirm.json.recovery_codes
    expect(recoveryCodes).toHaveLength(10)
    expect(new Set(recoveryCodes).size).toBe(10)
    const stored = await platform.db.selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', userId).execute()
    expect(stored.map((r) => r.code_hash)).not.toContain(recoveryCodes[0])
    const audit = await platform.db.selectFrom('audit_entries').selectAll().where('entity_id', '=', userId).where('action', '=', 'two_factor_enabled').executeTakeFirstOrThrow()
    expect(JSON.stringify(audit.changes)).not.toContain(secret)
    expect((await platform.call('POST', '/profile/two_factor', { token })).status).toBe(409)
  })

  it('asks for the second step after the password; the step token opens nothing else', async () => {
    const { id, secret, login, email } = await enrolled('step')
    const lastEvent = () => lastEventOf(id)
    tick(30)
    const first = await login()
    expect(first.status).toBe(200)
    expect(first.json).toEqual({ access_token: expect.any(String), refresh_token: '', two_factor_required: true })
    expect(await lastEvent()).toMatchObject({ kind: 'password', outcome: 'success', reason: 'two_factor_required' })
    expect((await platform.call('GET', '/me', { token: first.json.access_token })).status).toBe(401)

    const wrongCode = totpCode(secret, new Date(clock.getTime() + 5 * 60_000))
    const wrong = await platform.call('POST', '/two_factor_codes', { token: first.json.access_token, body: { code: wrongCode } })
    expect(wrong.status).toBe(400)
    expect(wrong.json.errors[0].code).toBe('two_factor.invalid_code')
    expect(await lastEvent()).toMatchObject({ kind: 'two_factor', outcome: 'failure', reason: 'invalid_code' })

    const ok = await platform.call('POST', '/two_factor_codes', { token: first.json.access_token, body: { code: totpCode(secret, clock) } })
    expect(ok.status).toBe(200)
    expect(ok.json.user).toMatchObject({ id, email, roles: ['user-admin'] })
    expect(ok.json.refresh_token).toEqual(expect.any(String))
    expect((await platform.call('GET', '/me', { token: ok.json.access_token })).status).toBe(200)
    expect(await lastEvent()).toMatchObject({ kind: 'two_factor', outcome: 'success', reason: 'totp' })
    // The step token is spent.
    expect((await platform.call('POST', '/two_factor_codes', { token: first.json.access_token, body: { code: totpCode(secret, clock) } })).status).toBe(401)
  })

  it('accepts a code once: the same code on a second sign-in is refused as replayed', async () => {
    const { id, secret, login } = await enrolled('replay')
    const lastEvent = () => lastEventOf(id)
    tick(30)
    const once = await login()
    expect((await platform.call('POST', '/two_factor_codes', { token: once.json.access_token, body: { code: totpCode(secret, clock) } })).status).toBe(200)
    const again = await login()
    const replay = await platform.call('POST', '/two_factor_codes', { token: again.json.access_token, body: { code: totpCode(secret, clock) } })
    expect(replay.status).toBe(400)
    expect(replay.json.errors[0].code).toBe('two_factor.replayed_code')
    expect(await lastEvent()).toMatchObject({ kind: 'two_factor', outcome: 'failure', reason: 'replayed_code' })
    // One step on, the next code works.
    tick(30)
    const next = await platform.call('POST', '/two_factor_codes', { token: again.json.access_token, body: { code: totpCode(secret, clock) } })
    expect(next.status).toBe(200)
  })

  it('accepts a recovery code once', async () => {
    const { id, recoveryCodes, login } = await enrolled('recovery')
    const lastEvent = () => lastEventOf(id)
    tick(30)
    const step = await login()
    const used = await platform.call('POST', '/two_factor_codes', { token: step.json.access_token, body: { code: recoveryCodes[0]!.toUpperCase() } })
    expect(used.status).toBe(200)
    expect(await lastEvent()).toMatchObject({ reason: 'recovery_code', outcome: 'success' })
    const step2 = await login()
    const reused = await platform.call('POST', '/two_factor_codes', { token: step2.json.access_token, body: { code: recoveryCodes[0] } })
    expect(reused.status).toBe(400)
    expect(reused.json.errors[0].code).toBe('two_factor.replayed_code')
  })

  it('throttles wrong codes with 429 and Retry-After', async () => {
    const { id, secret, login } = await enrolled('throttle')
    const lastEvent = () => lastEventOf(id)
    tick(30)
    const step = await login()
    // Five failures since the last success: the next attempt, even with the right code, is refused.
    let status = 0
    for (let i = 0; i < 5; i++) status = (await platform.call('POST', '/two_factor_codes', { token: step.json.access_token, body: { code: '12345' + i } })).status
    expect(status).toBe(400)
    const blocked = await platform.call('POST', '/two_factor_codes', { token: step.json.access_token, body: { code: totpCode(secret, clock) } })
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await lastEvent()).toMatchObject({ kind: 'two_factor', reason: 'throttled' })
    // The throttle is per user: another user's second step is not refused.
    const other = await enrolled('not-throttled')
    tick(30)
    const otherStep = await other.login()
    expect((await platform.call('POST', '/two_factor_codes', { token: otherStep.json.access_token, body: { code: totpCode(other.secret, clock) } })).status).toBe(200)
  })

  it('turns off only with a fresh code, audited', async () => {
    const { id, secret, login } = await enrolled('turn-off')
    tick(30)
    const step = await login()
    const signedIn = await platform.call('POST', '/two_factor_codes', { token: step.json.access_token, body: { code: totpCode(secret, clock) } })
    const token = signedIn.json.access_token
    const stale = await platform.call('DELETE', '/profile/two_factor', { token, body: { code: totpCode(secret, clock) } })
    expect(stale.status).toBe(400)
    expect(stale.json.errors[0].code).toBe('two_factor.replayed_code')
    tick(30)
    expect((await platform.call('DELETE', '/profile/two_factor', { token, body: { code: totpCode(secret, clock) } })).status).toBe(204)
    expect(await platform.db.selectFrom('audit_entries').select('id').where('entity_id', '=', id).where('action', '=', 'two_factor_disabled').executeTakeFirst()).toBeDefined()
    expect((await login()).json.two_factor_required).toBeUndefined()
  })
})
