import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { can, isStaff, reachOf, type Scope } from '#server/platform/core/scope.ts'
import { findZoneOverlaps } from '#server/platform/dns/service.ts'

/** The expiry windows the home page counts, in days. */
export const EXPIRY_WINDOWS = [30, 60, 90] as const
/** How many zones in trouble the summary names (the count covers them all). */
const ZONES_NAMED = 5

export type Summary = {
  /** The day the windows start (UTC, YYYY-MM-DD). */
  today: string
  expiring: { days: number; until: string; total: number; auto_renew_off: number }[] | null
  zones: { failing: number; drifting: number; named: { id: string; name: string; domain_id: string | null; problem: 'failing' | 'drifting' }[] } | null
  differences: number | null
  orders: { pending: number; failed: number } | null
  material_changes: { pending: number } | null
  /** Staff in their own group: zones at, inside or above another account's domain or zone (issue 26), the first named. */
  zone_overlaps: { count: number; named: { zone: string; other: string }[] } | null
}

const day = (d: Date) => d.toISOString().slice(0, 10)

/**
 * What needs attention in the scope's account (every account for staff in their own group): one
 * count per question, each the total of the list the portal links it to, and only the parts the
 * actor may read (null otherwise). A handful of indexed counts; no list is read whole.
 */
export async function readSummary(db: Kysely<DB>, scope: Scope, now: Date): Promise<Summary> {
  const reach = reachOf(scope)
  const inAccount = <T extends string>(column: T) => (reach === null ? sql<boolean>`true` : sql<boolean>`${sql.ref(column)} = ${reach}`)
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  const until = (days: number) => new Date(today.getTime() + (days + 1) * 86_400_000)
  const domains = can(scope.actor, 'domain-viewer')
  const dns = can(scope.actor, 'dns-viewer')

  const expiring = domains
    ? await db
        .selectFrom('domains')
        .select(
          EXPIRY_WINDOWS.flatMap((days) => [
            sql<string>`count(*) FILTER (WHERE expires_at < ${until(days)})`.as(`total_${days}`),
            sql<string>`count(*) FILTER (WHERE expires_at < ${until(days)} AND NOT auto_renew)`.as(`off_${days}`),
          ]),
        )
        .where('status', '<>', 'deleted')
        .where('expires_at', '>=', today)
        .where('expires_at', '<', until(Math.max(...EXPIRY_WINDOWS)))
        .where(inAccount('account_id'))
        .executeTakeFirstOrThrow()
    : null

  const drifting = sql<boolean>`drift IS NOT NULL AND (coalesce(jsonb_array_length(drift->'missing'), 0) + coalesce(jsonb_array_length(drift->'unexpected'), 0) + coalesce(jsonb_array_length(drift->'different'), 0)) > 0`
  const zones = dns
    ? await Promise.all([
        db
          .selectFrom('dns_zones')
          .select([sql<string>`count(*) FILTER (WHERE publish_state = 'failed')`.as('failing'), sql<string>`count(*) FILTER (WHERE publish_state <> 'failed' AND ${drifting})`.as('drifting')])
          .where(inAccount('account_id'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('dns_zones')
          .select(['id', 'name', 'domain_id', sql<'failing' | 'drifting'>`CASE WHEN publish_state = 'failed' THEN 'failing' ELSE 'drifting' END`.as('problem')])
          .where(inAccount('account_id'))
          .where(sql<boolean>`(publish_state = 'failed' OR (${drifting}))`)
          .orderBy(sql`publish_state = 'failed'`, 'desc')
          .orderBy('name')
          .limit(ZONES_NAMED)
          .execute(),
      ])
    : null

  const [differences, orders, material] = domains
    ? await Promise.all([
        db
          .selectFrom('domain_differences as x')
          .select(sql<string>`count(*)`.as('n'))
          .where('x.resolved_at', 'is', null)
          .where(inAccount('x.account_id'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('orders')
          .select([sql<string>`count(*) FILTER (WHERE state IN ('pending', 'processing'))`.as('pending'), sql<string>`count(*) FILTER (WHERE state = 'failed')`.as('failed')])
          .where(inAccount('account_id'))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('material_change_requests')
          .select(sql<string>`count(*)`.as('n'))
          .where('state', '=', 'pending')
          .where(inAccount('account_id'))
          .executeTakeFirstOrThrow(),
      ])
    : [null, null, null]
  // What PowerDNS may answer for another account: staff see it across every account.
  const overlaps = reach === null && isStaff(scope.actor) ? await findZoneOverlaps(db) : null

  const row = expiring as Record<string, string> | null
  return {
    today: day(today),
    expiring: row
      ? EXPIRY_WINDOWS.map((days) => ({ days, until: day(new Date(until(days).getTime() - 86_400_000)), total: Number(row[`total_${days}`]), auto_renew_off: Number(row[`off_${days}`]) }))
      : null,
    zones: zones
      ? { failing: Number(zones[0].failing), drifting: Number(zones[0].drifting), named: zones[1].map((z) => ({ id: z.id, name: z.name, domain_id: z.domain_id, problem: z.problem })) }
      : null,
    differences: differences ? Number(differences.n) : null,
    orders: orders ? { pending: Number(orders.pending), failed: Number(orders.failed) } : null,
    material_changes: material ? { pending: Number(material.n) } : null,
    zone_overlaps: overlaps ? { count: overlaps.length, named: overlaps.slice(0, ZONES_NAMED).map((o) => ({ zone: o.inner.name, other: o.outer.name })) } : null,
  }
}
