import type { Context } from 'hono'
import { API_TOKEN_RATE_LIMIT, API_TOKEN_RATE_WINDOW_SECONDS } from '#common/api-tokens.ts'
import type { ApiTokenLimits } from '#server/platform/auth/token-cache.ts'
import { AppError, forbidden, notFound } from '#server/platform/core/errors.ts'
import { countHit } from '#server/platform/core/rate-limit.ts'
import type { PlatformEnv } from '#server/platform/core/http.ts'
import type { Actor } from '#server/platform/core/scope.ts'
import { domainCarryingTags } from '#server/platform/domains/reads.ts'
import { addressAllowed } from './format.ts'

/** Last use is written at most once a minute per token and process: a use is not a change. */
const LAST_USE_EVERY_MS = 60_000
const lastWritten = new Map<string, number>()

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}'
const DOMAIN_LIST = new RegExp(`^/v1/groups/[^/]+/domains/?$`)
const ONE_DOMAIN = new RegExp(`^/v1/groups/([^/]+)/domains/(${UUID})(/.*)?$`)

/**
 * What an API token adds at the API's edge (issue 20), before the operation runs: the client's
 * address must be in the token's ranges, the token's own rate limit (429 with Retry-After and
 * the RateLimit headers), its last use, and — for a token bound to domains by tag — only the
 * domain operations, on domains carrying one of its tags. The account restriction is
 * `requireScope`'s; the permissions were cut down when the token was verified. The path read here
 * is the one the router matches (the API's fetch gave it one spelling: core/request-path.ts).
 */
export async function admitApiToken(c: Context<PlatformEnv>, actor: Actor, limits: ApiTokenLimits): Promise<void> {
  const deps = c.get('deps')
  // What the person signs in with (password, second factor, tokens, preferences) is refused to a
  // token by the operation's own declaration (`access(…, { session: true })`), not by its path here.
  const ip = c.env?.client?.ip
  if (!addressAllowed(limits.cidrs, ip)) throw new AppError(403, 'token.address_refused', 'This API token is not accepted from your address')

  const { limit, windowSeconds } = deps.apiTokenRateLimit ?? { limit: API_TOKEN_RATE_LIMIT, windowSeconds: API_TOKEN_RATE_WINDOW_SECONDS }
  const now = deps.now()
  // The rate-limit primitive's counter (every process counts against the same limit).
  const { count, resetAt } = await countHit(deps.db, `api-token:${actor.token!.id}`, windowSeconds, now)
  const reset = Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000))
  const remaining = Math.max(0, limit - count)
  const headers = {
    'RateLimit-Policy': `"token";q=${limit};w=${windowSeconds}`,
    RateLimit: `"token";r=${remaining};t=${reset}`,
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': String(remaining),
    'RateLimit-Reset': String(reset),
  }
  if (count > limit) {
    throw new AppError(429, 'too-many-requests', `This API token has made more than ${limit} requests in ${windowSeconds} seconds`, {
      headers: { ...headers, 'Retry-After': String(reset) },
      extra: { retry_after: reset },
    })
  }
  for (const [name, value] of Object.entries(headers)) c.header(name, value)

  const last = lastWritten.get(actor.token!.id) ?? 0
  if (now.getTime() - last >= LAST_USE_EVERY_MS) {
    lastWritten.set(actor.token!.id, now.getTime())
    if (lastWritten.size > 10_000) lastWritten.delete(lastWritten.keys().next().value!)
    await deps.db
      .insertInto('api_token_uses')
      .values({ token_id: actor.token!.id, used_at: now, address: (ip ?? 'unknown').slice(0, 100) })
      .onConflict((oc) => oc.column('token_id').doUpdateSet({ used_at: now, address: (ip ?? 'unknown').slice(0, 100) }))
      .execute()
  }

  if (limits.domain_tags.length) await admitDomainScope(c, limits.domain_tags)
}

/** A token bound to domains by tag reaches the domain list (filtered) and those domains only. */
async function admitDomainScope(c: Context<PlatformEnv>, tags: string[]): Promise<void> {
  const path = new URL(c.req.url).pathname
  if (DOMAIN_LIST.test(path)) return
  const one = ONE_DOMAIN.exec(path)
  if (!one) throw forbidden('This API token reaches only the domains carrying its tags')
  const found = await domainCarryingTags(c.get('deps').db, one[2]!.toLowerCase(), tags).select('id').executeTakeFirst()
  if (!found) throw notFound('Domain not found')
}

/** The SQL condition a domain list adds for a token bound to tags (tags are checked on creation). */
export function domainTagCondition(actor: Actor, column: string): string | null {
  const tags = actor.token?.domainTags
  if (!tags?.length) return null
  return `${column} && ARRAY[${tags.map((t) => `'${t.replace(/'/g, "''")}'`).join(',')}]::text[]`
}
