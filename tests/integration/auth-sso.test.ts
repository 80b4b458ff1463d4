import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { startOidcProvider, type OidcTestProvider } from '#tests/support/oidc.ts'
import { createTestPlatform, TEST_CONFIG } from '#tests/support/platform.ts'

const REDIRECT_URI = 'http://127.0.0.1:3431/login'
let provider: OidcTestProvider
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let userId: string

beforeAll(async () => {
  provider = await startOidcProvider({ port: 0, redirectUris: [REDIRECT_URI], logoutUris: ['http://127.0.0.1:3431/logout'] })
  platform = await createTestPlatform({ config: { ...TEST_CONFIG, OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId } })
  const account = await createAccount(platform.db, systemScope('test'), { name: 'SSO Co' })
  // No password: this user signs in through the provider only.
  userId = (await createUser(platform.db, systemScope('test'), { account_id: account.id, email: 'sso.user@sso.example', language: 'ja' })).id
})
afterAll(async () => {
  await platform?.close()
  await provider?.close()
})

/** A browser in miniature: follows nothing by itself and keeps the provider's cookies. */
function browser() {
  const jar = new Map<string, string>()
  return async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '))
    const response = await fetch(url, { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';')
      const [name, ...value] = pair!.split('=')
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now())
      if (expired) jar.delete(name!.trim())
      else jar.set(name!.trim(), value.join('='))
    }
    return response
  }
}

/** Authorization code + PKCE S256 through the provider's own pages; answers the token response. */
async function signInAtProvider(login: string, options: { tamperVerifier?: boolean } = {}) {
  const go = browser()
  const discovery = await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  const state = randomBytes(16).toString('base64url')
  const authorize = new URL(discovery.authorization_endpoint)
  for (const [k, v] of Object.entries({
    client_id: provider.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid profile email',
    state,
    code_challenge_method: 'S256',
    code_challenge: challenge,
    login_hint: login,
  })) {
    authorize.searchParams.set(k, v)
  }
  let response = await go(authorize.toString())
  let location = new URL(response.headers.get('location')!, provider.issuer)
  let code: string | null = null
  for (let hops = 0; hops < 10 && !code; hops++) {
    if (location.toString().startsWith(REDIRECT_URI)) {
      expect(location.searchParams.get('state')).toBe(state)
      code = location.searchParams.get('code')
      break
    }
    response = await go(location.toString())
    if (response.status === 200) {
      // An interaction page: the development login form (any password) or a consent form.
      const html = await response.text()
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1]
      const action = new URL(/action="([^"]+)"/.exec(html)![1]!, provider.issuer)
      const form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'anything' } : { prompt: prompt ?? 'consent' })
      response = await go(action.toString(), { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    }
    location = new URL(response.headers.get('location')!, provider.issuer)
  }
  expect(code).toBeTruthy()
  const token = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: provider.clientId,
      code: code!,
      code_verifier: options.tamperVerifier ? `${verifier}x` : verifier,
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT_URI,
    }),
  })
  return { status: token.status, json: (await token.json()) as { access_token?: string; error?: string } }
}

const ssoEvents = () => platform.db.selectFrom('auth_events').selectAll().where('kind', '=', 'sso').orderBy('created_at').orderBy('id').execute()

describe('single sign-on through oidc-provider', () => {
  it('signs in: code + PKCE at the provider, then login_sso with its access token', async () => {
    const token = await signInAtProvider('sso.user@sso.example')
    expect(token.status).toBe(200)
    const res = await platform.call('POST', '/login_sso', { body: { email: 'SSO.User@sso.example', sso_token: token.json.access_token }, client: { ip: '203.0.113.77' } })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), user: { id: userId, language: 'ja' } })
    const me = await platform.call('GET', '/me', { token: res.json.access_token })
    expect(me.json.email).toBe('sso.user@sso.example')
    // The portal's refresh sends the SSO token along; rotation works the same.
    const refreshed = await platform.call('POST', '/refresh', { body: { refresh_token: res.json.refresh_token, sso_token: token.json.access_token } })
    expect(refreshed.status).toBe(200)
    expect((await ssoEvents()).at(-1)).toMatchObject({ outcome: 'success', user_id: userId, ip: '203.0.113.77' })
  })

  it('refuses a token exchange with the wrong verifier at the provider', async () => {
    const token = await signInAtProvider('sso.user@sso.example', { tamperVerifier: true })
    expect(token.status).toBe(400)
    expect(token.json.error).toBe('invalid_grant')
  })

  it('refuses a token the provider does not know, and a mismatched email, both logged', async () => {
    const bad = await platform.call('POST', '/login_sso', { body: { email: 'sso.user@sso.example', sso_token: 'forged-token' } })
    expect(bad.status).toBe(401)
    const token = await signInAtProvider('someone.else@sso.example')
    const mismatch = await platform.call('POST', '/login_sso', { body: { email: 'sso.user@sso.example', sso_token: token.json.access_token } })
    expect(mismatch.status).toBe(401)
    expect(mismatch.json.detail).toBe(bad.json.detail)
    // A valid identity that is no user of the portal.
    const stranger = await platform.call('POST', '/login_sso', { body: { email: 'someone.else@sso.example', sso_token: token.json.access_token } })
    expect(stranger.status).toBe(401)
    const reasons = (await ssoEvents()).filter((e) => e.outcome === 'failure').map((e) => e.reason)
    expect(reasons).toEqual(['invalid_sso_token', 'email_mismatch', 'unknown_user'])
  })

  it('answers 401 when no provider is configured', async () => {
    const bare = await createTestPlatform()
    try {
      const res = await bare.call('POST', '/login_sso', { body: { email: 'sso.user@sso.example', sso_token: 'x' } })
      expect(res.status).toBe(401)
      expect((await bare.db.selectFrom('auth_events').select('reason').executeTakeFirstOrThrow()).reason).toBe('sso_not_configured')
    } finally {
      await bare.close()
    }
  })

  it('ends the provider session at GET /logout with client_id and a registered logout_uri', async () => {
    const go = browser()
    const refused = await go(`${provider.issuer}/logout?client_id=${provider.clientId}&logout_uri=${encodeURIComponent('https://evil.example/')}`)
    expect(refused.status).toBe(400)
    const ok = await go(`${provider.issuer}/logout?client_id=${provider.clientId}&logout_uri=${encodeURIComponent('http://127.0.0.1:3431/logout')}`)
    expect(ok.status).toBe(302)
    expect(ok.headers.get('location')).toBe('http://127.0.0.1:3431/logout')
  })
})
