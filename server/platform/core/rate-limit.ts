import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { tooManyRequests } from './errors.ts'

export type RateLimitResult = { count: number; remaining: number; resetAt: Date }

/**
 * Counts one attempt for `key` in the current fixed window of `windowSeconds`; past `limit`
 * attempts it throws `tooManyRequests` (429 with Retry-After up to the end of the window).
 *
 * The counter lives in the database (table rate_limits), so every process of a deployment counts
 * against the same limit. Call it with the database handle, not inside a `change` transaction:
 * a refused attempt must still count, and a rollback would undo it.
 */
export async function hit(
  db: Kysely<DB>,
  key: string,
  limit: number,
  windowSeconds: number,
  now: Date = new Date(),
): Promise<RateLimitResult> {
  if (!Number.isInteger(limit) || limit < 1) throw new Error('rate limit must be a positive integer')
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) throw new Error('rate-limit window must be whole seconds ≥ 1')
  const windowMs = windowSeconds * 1000
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs)
  const resetAt = new Date(windowStart.getTime() + windowMs)
  // One statement: concurrent hits of the same key serialise on the row, none is lost.
  const { rows } = await sql<{ count: number }>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count`.execute(db)
  const count = Number(rows[0]!.count)
  if (count > limit) throw tooManyRequests((resetAt.getTime() - now.getTime()) / 1000)
  return { count, remaining: limit - count, resetAt }
}

/** Forgets the counts of a key (e.g. after a successful sign-in). */
export async function resetRateLimit(db: Kysely<DB>, key: string): Promise<void> {
  await sql`DELETE FROM rate_limits WHERE key = ${key}`.execute(db)
}

/** Deletes windows that started before `before`; returns how many rows went. */
export async function pruneRateLimits(db: Kysely<DB>, before: Date): Promise<number> {
  const result = await sql`DELETE FROM rate_limits WHERE window_start < ${before}`.execute(db)
  return Number(result.numAffectedRows ?? 0)
}

/** A limiter bound to a database and clock, for callers that prefer `limiter.hit(key, limit, windowSeconds)`. */
export function rateLimiter(db: Kysely<DB>, now: () => Date = () => new Date()) {
  return {
    hit: (key: string, limit: number, windowSeconds: number) => hit(db, key, limit, windowSeconds, now()),
    reset: (key: string) => resetRateLimit(db, key),
  }
}
