/**
 * Single sign-on exactly as spec §4 and §7: a 32-byte verifier, its S256 challenge, the
 * `auth.session` cookie holding them during the round trip, the authorization redirect, the code
 * exchange as a form post, userinfo for the email, then /v1/login_sso for the portal's tokens.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { redirect, type RouterContextProvider } from 'react-router'
import { PlatformClient } from '../platform.server.ts'
import { readBody } from '../platform-client.ts'
import { readCookie } from '../cookies.server.ts'
import { safeRedirect } from '../safe-redirect.ts'
import { services } from '../session.server.ts'
import { failureOf, finishSignIn, SignInFailure } from './sign-in.server.ts'

type Context = Readonly<RouterContextProvider>

export const SSO_COOKIE = 'auth.session'

type Discovery = {
  authorization_endpoint: string
  token_endpoint: string
  userinfo_endpoint?: string
  end_session_endpoint?: string
}

const discoveries = new Map<string, { at: number; value: Discovery }>()

/** The provider's endpoints from its discovery document (cached ten minutes). */
export async function discover(issuer: string): Promise<Discovery> {
  const cached = discoveries.get(issuer)
  if (cached && Date.now() - cached.at < 600_000) return cached.value
  const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`OpenID discovery failed with ${response.status}`)
  const value = (await response.json()) as Discovery
  if (!value.authorization_endpoint || !value.token_endpoint) throw new Error('OpenID discovery without endpoints')
  discoveries.set(issuer, { at: Date.now(), value })
  return value
}

/** URL-safe base64 of the SHA-256 of the verifier, without padding (RFC 7636 S256). */
export const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')
export const newVerifier = () => randomBytes(32).toString('base64url')

/** The portal's own origin as the provider sees it. */
export function portalOrigin(request: Request, publicUrl: string | undefined) {
  return (publicUrl ?? new URL(request.url).origin).replace(/\/$/, '')
}

type SsoState = { challenge: string; verifier: string; state: string; redirectTo: string }

function sealed(value: SsoState, secret: string): string {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${payload}.${createHmac('sha256', secret).update(`sso:${payload}`).digest('base64url')}`
}

function unseal(raw: string | null, secret: string): SsoState | null {
  if (!raw) return null
  const [payload, mac] = raw.split('.')
  if (!payload || !mac) return null
  const expected = Buffer.from(createHmac('sha256', secret).update(`sso:${payload}`).digest('base64url'))
  const given = Buffer.from(mac)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SsoState
  } catch {
    return null
  }
}

// Spec §9: path /, secure, sameSite none (the provider sends the browser back cross-site).
const ssoCookie = (value: string, maxAge: number) => `${SSO_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=None`

/** Step 1: the redirect to the provider with the challenge; the verifier stays in auth.session. */
export async function startSso(request: Request, context: Context, options: { redirectTo: string; locale: string; loginHint?: string | null }): Promise<Response> {
  const { env } = services(context)
  if (!env.oidc) throw new SignInFailure('unavailable')
  const endpoints = await discover(env.oidc.issuer)
  const verifier = newVerifier()
  const challenge = challengeOf(verifier)
  const state = randomBytes(16).toString('base64url')
  const url = new URL(endpoints.authorization_endpoint)
  url.searchParams.set('client_id', env.oidc.clientId)
  url.searchParams.set('redirect_uri', `${portalOrigin(request, env.publicUrl)}/login`)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('scope', 'openid profile email')
  url.searchParams.set('state', state)
  url.searchParams.set('code_challenge_method', 'S256')
  url.searchParams.set('code_challenge', challenge)
  url.searchParams.set('locale', options.locale)
  url.searchParams.set('grant_type', 'authorization_code')
  if (options.loginHint) url.searchParams.set('login_hint', options.loginHint)
  return redirect(url.toString(), {
    headers: { 'Set-Cookie': ssoCookie(sealed({ challenge, verifier, state, redirectTo: options.redirectTo }, env.sessionSecret), 600) },
  })
}

/** Steps 2–4: back on /login with the code. Throws SignInFailure (with the cookie to clear) on any mismatch. */
export async function completeSso(request: Request, context: Context): Promise<Response> {
  const { env, log } = services(context)
  const url = new URL(request.url)
  const saved = unseal(readCookie(request, SSO_COOKIE), env.sessionSecret)
  const code = url.searchParams.get('code')
  const fail = (reason: string): never => {
    log('warn', 'single sign-on refused', { reason })
    throw new SignInFailure('invalid')
  }
  if (!env.oidc) throw new SignInFailure('unavailable')
  if (url.searchParams.get('error')) fail(`provider error ${url.searchParams.get('error')}`)
  if (!saved) fail('no or tampered auth.session cookie')
  if (!code || url.searchParams.get('state') !== saved!.state) fail('state mismatch')
  if (challengeOf(saved!.verifier) !== saved!.challenge) fail('verifier does not match its challenge')

  const endpoints = await discover(env.oidc.issuer)
  const redirectUri = `${portalOrigin(request, env.publicUrl)}/login`
  const tokenResponse = await fetch(endpoints.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      client_id: env.oidc.clientId,
      code: code!,
      code_verifier: saved!.verifier,
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
      response_type: 'code',
    }),
  })
  if (!tokenResponse.ok) fail(`token endpoint answered ${tokenResponse.status}`)
  const tokenBody = (await tokenResponse.json()) as { access_token?: string }
  const ssoToken = tokenBody.access_token
  if (!ssoToken) fail('token endpoint gave no access token')

  // Spec §7: userinfo goes with the provider's token (never the portal's bearer).
  if (!endpoints.userinfo_endpoint) fail('provider has no userinfo endpoint')
  const userinfo = await fetch(endpoints.userinfo_endpoint!, { headers: { authorization: `Bearer ${ssoToken}`, accept: 'application/json' } })
  if (!userinfo.ok) fail(`userinfo answered ${userinfo.status}`)
  const email = ((await userinfo.json()) as { email?: string }).email
  if (!email) fail('userinfo without email')

  const platform = new PlatformClient(request, context, null)
  const response = await platform.raw('/login_sso', { method: 'POST', body: { email, sso_token: ssoToken }, priority: true })
  if (!response.ok) throw failureOf(response)
  const body = (await readBody(response)) as { access_token?: string; refresh_token?: string }
  if (!body.access_token) throw new SignInFailure('unavailable')
  const done = await finishSignIn(
    request,
    context,
    { accessToken: body.access_token, refreshToken: body.refresh_token ?? '', ssoToken: ssoToken!, applicationId: env.oidc.clientId },
    safeRedirect(saved!.redirectTo, '/'),
  )
  done.headers.append('Set-Cookie', clearSsoCookie())
  return done
}

export const clearSsoCookie = () => ssoCookie('', 0)

/**
 * Where the browser goes after logout: when SSO was used, the provider's logout endpoint of spec §7
 * (`<issuer>/logout` with client_id and logout_uri = this host + /logout), else /login.
 */
export function logoutDestination(request: Request, context: Context, usedSso: boolean): string {
  const { env } = services(context)
  if (!usedSso || !env.oidc) return '/login'
  const url = new URL(`${env.oidc.issuer.replace(/\/$/, '')}/logout`)
  url.searchParams.set('client_id', env.oidc.clientId)
  url.searchParams.set('logout_uri', `${portalOrigin(request, env.publicUrl)}/logout`)
  return url.toString()
}
