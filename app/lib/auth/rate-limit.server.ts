import { data } from 'react-router'
import type { AppServices } from '../app-context.ts'

export type RateRule = { name: string; limit: number; windowSeconds: number }

/** Sign-in screens: per client address, in the database so a restart does not reset them. */
export const SIGN_IN_RULE: RateRule = { name: 'sign-in', limit: 120, windowSeconds: 300 }
export const RESET_RULE: RateRule = { name: 'reset', limit: 30, windowSeconds: 900 }

/**
 * Counts one hit of the client's address (as the server established it: the socket, or a
 * TRUST_PROXY hop's word) in a fixed window; throws a 429 answer with Retry-After once over the limit.
 */
export async function hitRateLimit(services: Pick<AppServices, 'sql' | 'log' | 'client'>, rule: RateRule): Promise<void> {
  const key = `${rule.name}:${services.client.ip}`
  const { rows } = await services.sql.query(
    `INSERT INTO portal_rate_limits (key, window_start, hits) VALUES ($1, now(), 1)
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN portal_rate_limits.window_start < now() - make_interval(secs => $2) THEN 1 ELSE portal_rate_limits.hits + 1 END,
       window_start = CASE WHEN portal_rate_limits.window_start < now() - make_interval(secs => $2) THEN now() ELSE portal_rate_limits.window_start END
     RETURNING hits, GREATEST(1, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => $2) - now()))))::int AS retry_after`,
    [key, rule.windowSeconds],
  )
  const row = rows[0] as { hits: number; retry_after: number }
  if (row.hits > rule.limit) {
    services.log('warn', 'sign-in rate limit reached', { key, hits: row.hits })
    throw data({ message: 'Too many attempts' }, { status: 429, headers: { 'Retry-After': String(row.retry_after) } })
  }
}
