import type { Context } from 'hono'
import type { Kysely } from 'kysely'
import type { AuthEventKind, AuthEventOutcome } from '#server/db/schema-auth.ts'
import type { DB } from '#server/db/schema.ts'
import type { PlatformEnv } from '#server/platform/core/http.ts'

/** Who is at the other end: the portal forwards the browser's address and user agent. */
export type Client = { ip: string; userAgent: string }

/** The client of a request: first hop of X-Forwarded-For, else X-Real-IP, else unknown. */
export function clientOf(c: Context<PlatformEnv>): Client {
  const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
  const ip = forwarded || c.req.header('x-real-ip')?.trim() || 'unknown'
  return { ip: ip.slice(0, 100), userAgent: (c.req.header('user-agent') ?? '').slice(0, 500) }
}

export type AuthEventInput = {
  kind: AuthEventKind
  outcome: AuthEventOutcome
  reason: string
  user?: { id: string; account_id: string; email: string } | null
  email?: string | null
}

/**
 * Appends to the authentication log. Failures are written outside any transaction of the
 * request, so that the attempt stays on record although the request itself fails.
 */
export async function recordAuthEvent(db: Pick<Kysely<DB>, 'insertInto'>, client: Client, event: AuthEventInput, now: Date): Promise<void> {
  await db
    .insertInto('auth_events')
    .values({
      user_id: event.user?.id ?? null,
      account_id: event.user?.account_id ?? null,
      email: (event.user?.email ?? event.email ?? null)?.slice(0, 320) ?? null,
      kind: event.kind,
      outcome: event.outcome,
      reason: event.reason,
      ip: client.ip,
      user_agent: client.userAgent,
      created_at: now,
    })
    .execute()
}
