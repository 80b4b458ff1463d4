import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { createTestPlatform, TEST_CONFIG } from '#tests/support/platform.ts'
import { startSmtpCapture, type SmtpCapture } from '#tests/support/smtp.ts'

let clock = new Date()
let smtp: SmtpCapture
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const EMAIL = 'reset@auth.example'
const OLD = 'the old passphrase'

beforeAll(async () => {
  smtp = await startSmtpCapture()
  platform = await createTestPlatform({ now: () => clock, config: { ...TEST_CONFIG, SMTP_URL: smtp.url, PUBLIC_URL: 'https://portal.test' } })
  const account = await createAccount(platform.db, systemScope('test'), { name: 'Reset Co' })
  await createUser(platform.db, systemScope('test'), { account_id: account.id, email: EMAIL, password: OLD })
})
afterAll(async () => {
  await platform?.close()
  await smtp?.close()
})

const events = () => platform.db.selectFrom('auth_events').selectAll().where('kind', '=', 'reset').orderBy('created_at').orderBy('id').execute()

async function requestLink(email = EMAIL) {
  const before = smtp.messages.length
  const res = await platform.call('POST', '/password_resets', { body: { email }, client: { ip: '203.0.113.9' } })
  expect(res.status).toBe(202)
  expect(res.json).toEqual({ status: 'sent' })
  const mail = await smtp.waitFor((m) => smtp.messages.indexOf(m) >= before && m.envelopeTo.includes(email))
  const link = new URL(/https:\/\/portal\.test\/reset\?token=\S+/.exec(mail.text ?? '')![0])
  return link.searchParams.get('token')!
}

describe('password reset through the mail', () => {
  it("writes the mail in the user's language", async () => {
    const account = await createAccount(platform.db, systemScope('test'), { name: 'Reset KK' })
    await createUser(platform.db, systemScope('test'), { account_id: account.id, email: 'reset-ja@auth.example', name: '山田', password: OLD, language: 'ja' })
    await requestLink('reset-ja@auth.example')
    const mail = smtp.messages.findLast((m) => m.envelopeTo.includes('reset-ja@auth.example'))!
    expect(mail.subject).toBe('レジストラポータルのパスワードの再設定')
    expect(mail.text).toContain('山田 様')
  })

  it('answers an unknown address exactly like a known one and sends nothing', async () => {
    const known = await platform.call('POST', '/password_resets', { body: { email: EMAIL } })
    const unknown = await platform.call('POST', '/password_resets', { body: { email: 'ghost@auth.example' } })
    expect(unknown.status).toBe(known.status)
    expect(unknown.json).toEqual(known.json)
    await smtp.waitFor((m) => m.envelopeTo.includes(EMAIL))
    expect(smtp.messages.some((m) => m.envelopeTo.includes('ghost@auth.example'))).toBe(false)
    expect((await events()).find((e) => e.email === 'ghost@auth.example')).toMatchObject({ outcome: 'failure', reason: 'unknown_user' })
  })

  it('follows the mailed link: the token is valid, the policy is enforced, the password is set and sessions end', async () => {
    const session = (await platform.call('POST', '/login', { body: { username: EMAIL, password: OLD } })).json
    const token = await requestLink()
    const mail = smtp.messages.at(-1)!
    expect(mail.subject).toMatch(/reset/i)
    expect(mail.from?.address).toBe('no-reply@registrar.example')
    // Only a hash of the token is stored.
    expect(await platform.db.selectFrom('password_resets').select('id').where('token_hash', '=', token).executeTakeFirst()).toBeUndefined()

    expect(await platform.call('GET', `/password_resets/${token}`)).toMatchObject({ status: 200, json: { valid: true } })
    const weak = await platform.call('PUT', `/password_resets/${token}`, { body: { password: 'password' } })
    expect(weak.status).toBe(400)
    expect(weak.json.errors.map((e: { code: string }) => e.code)).toEqual(['password.too_short', 'password.common'])
    expect(weak.json.errors[0]).toMatchObject({ field: 'password', params: { min: 12 } })

    expect((await platform.call('PUT', `/password_resets/${token}`, { body: { password: 'a fresh new passphrase' } })).status).toBe(204)
    expect((await platform.call('GET', '/me', { token: session.access_token })).status).toBe(401)
    expect((await platform.call('POST', '/refresh', { body: { refresh_token: session.refresh_token } })).status).toBe(401)
    expect((await platform.call('POST', '/login', { body: { username: EMAIL, password: OLD } })).status).toBe(401)
    expect((await platform.call('POST', '/login', { body: { username: EMAIL, password: 'a fresh new passphrase' } })).status).toBe(200)
    expect(await platform.db.selectFrom('audit_entries').select('id').where('action', '=', 'password_reset').executeTakeFirst()).toBeDefined()

    // Used once: the same link is dead, for lookup and for use.
    expect((await platform.call('GET', `/password_resets/${token}`)).status).toBe(404)
    expect((await platform.call('PUT', `/password_resets/${token}`, { body: { password: 'yet another passphrase' } })).status).toBe(404)
    const reasons = (await events()).map((e) => e.reason)
    expect(reasons).toEqual(expect.arrayContaining(['requested', 'weak_password', 'password_set', 'used_token']))
  })

  it('refuses a link after one hour and an unknown token, both logged', async () => {
    const token = await requestLink()
    clock = new Date(clock.getTime() + 60 * 60 * 1000 + 1000)
    expect((await platform.call('GET', `/password_resets/${token}`)).status).toBe(404)
    expect((await platform.call('PUT', `/password_resets/${token}`, { body: { password: 'too late passphrase' } })).status).toBe(404)
    expect((await platform.call('GET', '/password_resets/made-up-token')).status).toBe(404)
    const reasons = (await events()).map((e) => e.reason)
    expect(reasons).toEqual(expect.arrayContaining(['expired_token', 'unknown_token']))
  })

  it('limits reset requests per address with 429 and Retry-After', async () => {
    // The clock moved past the window of the requests above: five new ones are accepted, the sixth waits.
    const ask = (i: number) => platform.call('POST', '/password_resets', { body: { email: EMAIL }, client: { ip: `192.0.2.${i}` } })
    for (let i = 0; i < 5; i++) expect((await ask(i)).status).toBe(202)
    const blocked = await ask(9)
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(3000)
  })
})
