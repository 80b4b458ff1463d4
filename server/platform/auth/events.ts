import type { Context } from 'hono'
import type { Kysely } from 'kysely'
import type { AuthEventKind, AuthEventOutcome } from '#server/db/schema-auth.ts'
import type { DB } from '#server/db/schema.ts'
import type { Client, PlatformEnv } from '#server/platform/core/http.ts'

export type { Client }

/**
 * The client of a request, as the server in front of the API established it (server/http:
 * the socket, X-Forwarded-For only from a TRUST_PROXY hop). Headers of the request are never
 * trusted here: without the server's word the address is unknown.
 */
export function clientOf(c: Context<PlatformEnv>): Client {
  const client = c.env?.client
  return { ip: (client?.ip ?? 'unknown').slice(0, 100), userAgent: (client?.userAgent ?? c.req.header('user-agent') ?? '').slice(0, 500) }
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
