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
export async function hit(db: Kysely<DB>, key: string, limit: number, windowSeconds: number, now: Date = new Date()): Promise<RateLimitResult> {
  if (!Number.isInteger(limit) || limit < 1) throw new Error('rate limit must be a positive integer')
  const { count, resetAt } = await countHit(db, key, windowSeconds, now)
  if (count > limit) throw tooManyRequests((resetAt.getTime() - now.getTime()) / 1000)
  return { count, remaining: limit - count, resetAt }
}

/** Counts one attempt for `key` in the current window and says how many there were; refuses nothing. */
export async function countHit(db: Kysely<DB>, key: string, windowSeconds: number, now: Date = new Date()): Promise<{ count: number; resetAt: Date }> {
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1) throw new Error('rate-limit window must be whole seconds ≥ 1')
  const { windowStart, resetAt } = windowOf(now, windowSeconds)
  // One statement: concurrent hits of the same key serialise on the row, none is lost.
  const { rows } = await sql<{ count: number }>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count`.execute(db)
  return { count: Number(rows[0]!.count), resetAt }
}

/**
 * Throws `tooManyRequests` when `key` has already used up `limit` in the current window, without
 * counting. For limits on failures: `check` before the attempt, `hit` only when it fails.
 */
export async function check(db: Kysely<DB>, key: string, limit: number, windowSeconds: number, now: Date = new Date()): Promise<void> {
  const { windowStart, resetAt } = windowOf(now, windowSeconds)
  const { rows } = await sql<{ count: number }>`SELECT count FROM rate_limits WHERE key = ${key} AND window_start = ${windowStart}`.execute(db)
  if (Number(rows[0]?.count ?? 0) >= limit) throw tooManyRequests((resetAt.getTime() - now.getTime()) / 1000)
}

function windowOf(now: Date, windowSeconds: number) {
  const windowMs = windowSeconds * 1000
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs)
  return { windowStart, resetAt: new Date(windowStart.getTime() + windowMs) }
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
    check: (key: string, limit: number, windowSeconds: number) => check(db, key, limit, windowSeconds, now()),
    reset: (key: string) => resetRateLimit(db, key),
  }
}
