/**
 * Sign-in against the Platform API: the password step (remix-auth with our FormStrategy), the
 * two-factor step, and what happens after any successful sign-in (session, language, theme).
 */
import { redirect, type RouterContextProvider } from 'react-router'
import { Authenticator } from 'remix-auth'
import { PlatformClient, platformForSession } from '../platform.server.ts'
import { readBody } from '../platform-client.ts'
import { TAB_MARKER_COOKIE, createSession, isSecureRequest, readSessionRow, services, toSessionUser, updateSessionMeta, updateSessionUserByKey, type PortalSession } from '../session.server.ts'
import { safeRedirect } from '../safe-redirect.ts'
import { formatExpiry } from '../platform-client.ts'
import { FormStrategy } from './form-strategy.ts'
import { currentLocale, languageCookie, themeCookie } from './locale.server.ts'
import { isUiLanguage } from '../i18n.ts'

type Context = Readonly<RouterContextProvider>

export type LoginOutcome = { kind: 'signed-in'; accessToken: string; refreshToken: string } | { kind: 'two-factor'; token: string }

/** Why a sign-in step failed, without anything that would help an attacker. */
export class SignInFailure extends Error {
  readonly kind: 'invalid' | 'throttled' | 'unavailable'
  readonly retryAfter: string | null
  constructor(kind: 'invalid' | 'throttled' | 'unavailable', retryAfter: string | null = null) {
    super(`sign-in failed: ${kind}`)
    this.name = 'SignInFailure'
    this.kind = kind
    this.retryAfter = retryAfter
  }
}

/** Maps a refused sign-in answer of the Platform API to a failure kind. */
export function failureOf(response: Response): SignInFailure {
  if (response.status === 429) return new SignInFailure('throttled', response.headers.get('retry-after'))
  if (response.status >= 500) return new SignInFailure('unavailable')
  return new SignInFailure('invalid')
}

const anonymous = (request: Request, context: Context) => new PlatformClient(request, context, null)

/** The remix-auth authenticator of this request (the strategies need the request's services). */
export function authenticator(request: Request, context: Context): Authenticator<LoginOutcome> {
  const auth = new Authenticator<LoginOutcome>()
  auth.use(
    new FormStrategy<LoginOutcome>(async ({ form }) => {
      const username = String(form.get('username') ?? '').trim()
      const password = String(form.get('password') ?? '')
      const response = await anonymous(request, context).raw('/login', { method: 'POST', body: { username, password }, priority: true })
      if (!response.ok) throw failureOf(response)
      const body = (await readBody(response)) as { access_token?: string; refresh_token?: string; two_factor_required?: boolean }
      if (!body.access_token) throw new SignInFailure('unavailable')
      if (body.two_factor_required) return { kind: 'two-factor', token: body.access_token }
      return { kind: 'signed-in', accessToken: body.access_token, refreshToken: body.refresh_token ?? '' }
    }),
    'form',
  )
  return auth
}

/** The password step is done and a code is awaited: a short-lived pending session holds the token. */
export async function startTwoFactor(request: Request, context: Context, token: string, redirectTo: string) {
  const { cookie, key } = await createSession(request, context, {
    stage: 'two_factor',
    accessToken: token,
    // The platform's two-factor token lives minutes; the pending row needs no longer.
    expires: formatExpiry(new Date(Date.now() + 10 * 60_000)),
  })
  await updateSessionMeta(context, key, { redirectTo })
  return cookie
}

/** POST /v1/two_factor_codes with the pending token; the tokens of the signed-in user. */
export async function verifyTwoFactor(request: Request, context: Context, pending: PortalSession, code: string) {
  const response = await anonymous(request, context).raw('/two_factor_codes', {
    method: 'POST',
    body: { code },
    headers: { authorization: `Bearer ${pending.tokens.accessToken}` },
    priority: true,
  })
  if (!response.ok) throw failureOf(response)
  const body = (await readBody(response)) as { access_token?: string; refresh_token?: string; user?: Record<string, unknown> }
  if (!body.access_token) throw new SignInFailure('unavailable')
  return { accessToken: body.access_token, refreshToken: body.refresh_token ?? '' }
}

export type SignedIn = { accessToken: string; refreshToken: string; ssoToken?: string | null; applicationId?: string | null }

/**
 * Everything after a successful sign-in: a new session (new id) with the user from /v1/me, the
 * language rule and theme preference of spec §4, the cross-tab marker, then the kept address.
 */
export async function finishSignIn(request: Request, context: Context, tokens: SignedIn, redirectTo: string | null): Promise<Response> {
  const { log } = services(context)
  const me = await anonymous(request, context).raw('/me', { headers: { authorization: `Bearer ${tokens.accessToken}` }, priority: true })
  if (!me.ok) throw failureOf(me)
  const user = toSessionUser((await readBody(me)) as Record<string, unknown>)
  const { cookie, key } = await createSession(request, context, {
    stage: 'active',
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    user,
    ssoToken: tokens.ssoToken ?? null,
    applicationId: tokens.applicationId ?? null,
  })
  const secure = isSecureRequest(request)
  const headers = new Headers()
  headers.append('Set-Cookie', cookie)
  // Session cookie (no Max-Age): its absence in a new browser session ends the portal session (cross-tab rules).
  headers.append('Set-Cookie', `${TAB_MARKER_COOKIE}=1; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`)

  const locale = currentLocale(request)
  // Among the interface's languages only: a stored language the screens do not have is left as it is.
  if (user.language !== locale && isUiLanguage(user.language) && isUiLanguage(locale)) {
    if (user.language === 'en') {
      // Spec §4: a user still on the default language takes the locale they are using now.
      const session = await readSessionRow(services(context).sql, key)
      try {
        await platformForSession(request, context, session).patch('/profile', { body: { language: locale } })
        await updateSessionUserByKey(context, key, { language: locale })
      } catch (error) {
        log('warn', 'could not store the language in the profile', { error: String(error) })
      }
      headers.append('Set-Cookie', languageCookie(locale, secure))
    } else {
      headers.append('Set-Cookie', languageCookie(user.language, secure))
    }
  }
  headers.append('Set-Cookie', themeCookie(user.dark_theme ? 'dark' : 'light', secure))
  log('info', 'signed in', { user_id: user.id, sso: Boolean(tokens.ssoToken) })
  return redirect(safeRedirect(redirectTo, '/'), { headers })
}
