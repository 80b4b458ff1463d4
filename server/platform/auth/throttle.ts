import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { tooManyRequests } from '#server/platform/core/errors.ts'

/**
 * Brute-force throttling of sign-in failures, persisted in auth_failure_counters so a restart
 * does not reset it. Unlike a request rate limit, only failures count: a window opens at the
 * first failure of a key, and once `limit` failures are in it, attempts wait until it closes.
 */
export type ThrottleRule = { key: string; limit: number; windowSeconds: number }

const WINDOW = 15 * 60

/** The limits of issue 3: per user (or attempted name) and per IP. */
export const throttleRules = {
  login: (email: string, ip: string): ThrottleRule[] => [
    { key: `login:user:${email}`, limit: 5, windowSeconds: WINDOW },
    { key: `login:ip:${ip}`, limit: 20, windowSeconds: WINDOW },
  ],
  // A wrong current password when signed in counts for that user's password changes, never
  // against the name's sign-in (a signed-in user must not lock themselves out of signing in).
  passwordChange: (userId: string, ip: string): ThrottleRule[] => [
    { key: `password-change:user:${userId}`, limit: 5, windowSeconds: WINDOW },
    { key: `login:ip:${ip}`, limit: 20, windowSeconds: WINDOW },
  ],
  twoFactor: (userId: string, ip: string): ThrottleRule[] => [
    { key: `2fa:user:${userId}`, limit: 5, windowSeconds: WINDOW },
    { key: `login:ip:${ip}`, limit: 20, windowSeconds: WINDOW },
  ],
  sso: (ip: string): ThrottleRule[] => [{ key: `login:ip:${ip}`, limit: 20, windowSeconds: WINDOW }],
  // Reset requests count every request (each one sends a mail), per address and per IP.
  resetRequest: (email: string, ip: string): ThrottleRule[] => [
    { key: `reset:email:${email}`, limit: 5, windowSeconds: 60 * 60 },
    { key: `reset:ip:${ip}`, limit: 20, windowSeconds: 60 * 60 },
  ],
}

/** Seconds until the most restrictive exhausted rule frees up, or 0 when none is exhausted. */
export async function retryAfter(db: Kysely<DB>, rules: ThrottleRule[], now: Date): Promise<number> {
  if (!rules.length) return 0
  const rows = await db
    .selectFrom('auth_failure_counters')
    .select(['key', 'window_start', 'failures'])
    .where(
      'key',
      'in',
      rules.map((r) => r.key),
    )
    .execute()
  let wait = 0
  for (const row of rows) {
    const rule = rules.find((r) => r.key === row.key)!
    const ends = row.window_start.getTime() + rule.windowSeconds * 1000
    if (row.failures >= rule.limit && ends > now.getTime()) wait = Math.max(wait, Math.ceil((ends - now.getTime()) / 1000))
  }
  return wait
}

/** Throws 429 with Retry-After when any rule is exhausted. */
export async function assertNotThrottled(db: Kysely<DB>, rules: ThrottleRule[], now: Date, message = 'Too many failed attempts; try again later'): Promise<void> {
  const wait = await retryAfter(db, rules, now)
  if (wait > 0) throw tooManyRequests(wait, message)
}

/** Counts one failure against every rule (a closed window starts afresh). */
export async function recordFailure(db: Kysely<DB>, rules: ThrottleRule[], now: Date): Promise<void> {
  for (const rule of rules) {
    const expired = sql<boolean>`auth_failure_counters.window_start + make_interval(secs => ${rule.windowSeconds}) <= ${now}`
    await db
      .insertInto('auth_failure_counters')
      .values({ key: rule.key, window_start: now, failures: 1, updated_at: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: sql`CASE WHEN ${expired} THEN 1 ELSE auth_failure_counters.failures + 1 END`,
          window_start: sql`CASE WHEN ${expired} THEN ${now}::timestamptz ELSE auth_failure_counters.window_start END`,
          updated_at: now,
        }),
      )
      .execute()
  }
}

/** How long an address stays known for a name after a successful sign-in from it. */
export const KNOWN_ADDRESS_DAYS = 30

/**
 * True when this name signed in successfully from this address within KNOWN_ADDRESS_DAYS: the
 * per-name lock does not apply to it (decision 012), so failures sent from elsewhere cannot keep
 * the owner out. The per-address limit still holds for it.
 */
export async function isKnownAddress(db: Kysely<DB>, email: string, ip: string, now: Date): Promise<boolean> {
  if (!ip || ip === 'unknown') return false
  const since = new Date(now.getTime() - KNOWN_ADDRESS_DAYS * 86_400_000)
  const seen = await db
    .selectFrom('auth_events')
    .innerJoin('users', 'users.id', 'auth_events.user_id')
    .select('auth_events.id')
    .where('users.email', '=', email)
    .where('auth_events.outcome', '=', 'success')
    .where('auth_events.ip', '=', ip)
    .where('auth_events.created_at', '>', since)
    .limit(1)
    .executeTakeFirst()
  return Boolean(seen)
}

/** Forgets the failures of keys (after a success of that user; never the IP's). */
export async function clearFailures(db: Kysely<DB>, keys: string[]): Promise<void> {
  if (keys.length) await db.deleteFrom('auth_failure_counters').where('key', 'in', keys).execute()
}
