/**
 * Verifies an access token of the configured OpenID Connect provider by asking the provider:
 * discovery (cached) names the userinfo endpoint, which answers the claims only for a token it
 * issued and that is still valid. This works for opaque and JWT access tokens alike.
 */
export type SsoIdentity = { sub: string; email: string | null; email_verified: boolean | null }

export class SsoTokenError extends Error {
  readonly reason: 'invalid_sso_token' | 'provider_unavailable'
  constructor(reason: SsoTokenError['reason'], message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'SsoTokenError'
    this.reason = reason
  }
}

type Discovery = { issuer: string; userinfo_endpoint: string }

const DISCOVERY_TTL_MS = 5 * 60 * 1000
const TIMEOUT_MS = 5000
const discoveries = new Map<string, { at: number; value: Discovery }>()

async function discover(issuer: string, now: number): Promise<Discovery> {
  const cached = discoveries.get(issuer)
  if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.value
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
  let response: Response
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' })
  } catch (error) {
    throw new SsoTokenError('provider_unavailable', `OpenID discovery failed: ${(error as Error).message}`, { cause: error })
  }
  if (!response.ok) throw new SsoTokenError('provider_unavailable', `OpenID discovery answered ${response.status}`)
  const doc = (await response.json()) as Partial<Discovery>
  // The issuer of the document must be the one configured (OpenID Connect Discovery §4.3).
  if (doc.issuer !== issuer || typeof doc.userinfo_endpoint !== 'string') {
    throw new SsoTokenError('provider_unavailable', 'OpenID discovery document does not match the configured issuer')
  }
  const value = { issuer: doc.issuer, userinfo_endpoint: doc.userinfo_endpoint }
  discoveries.set(issuer, { at: now, value })
  return value
}

/** The identity behind an access token, or an SsoTokenError when the provider refuses it. */
export async function verifySsoToken(issuer: string, accessToken: string, now = Date.now()): Promise<SsoIdentity> {
  const { userinfo_endpoint } = await discover(issuer, now)
  let response: Response
  try {
    response = await fetch(userinfo_endpoint, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    })
  } catch (error) {
    throw new SsoTokenError('provider_unavailable', `userinfo failed: ${(error as Error).message}`, { cause: error })
  }
  if (response.status === 401 || response.status === 403 || response.status === 400) {
    throw new SsoTokenError('invalid_sso_token', `userinfo refused the token (${response.status})`)
  }
  if (!response.ok) throw new SsoTokenError('provider_unavailable', `userinfo answered ${response.status}`)
  const claims = (await response.json()) as Record<string, unknown>
  if (typeof claims.sub !== 'string' || !claims.sub) throw new SsoTokenError('invalid_sso_token', 'userinfo has no subject')
  return {
    sub: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : null,
    email_verified: typeof claims.email_verified === 'boolean' ? claims.email_verified : null,
  }
}
