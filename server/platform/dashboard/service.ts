import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { can, isStaff, reachOf, type Scope } from '#server/platform/core/scope.ts'
import { findZoneOverlaps } from '#server/platform/dns/service.ts'
import { zonesInTrouble } from '#server/platform/dns/reads.ts'
import { expiringCounts, openDifferenceCount } from '#server/platform/domains/reads.ts'
import { pendingRequestCount } from '#server/platform/material-changes/reads.ts'
import { orderCounts } from '#server/platform/orders/reads.ts'

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
 * actor may read (null otherwise). A handful of indexed counts, each the owning area's read
 * (decision 024); no list is read whole.
 */
export async function readSummary(db: Kysely<DB>, scope: Scope, now: Date): Promise<Summary> {
  const reach = reachOf(scope)
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()))
  const until = (days: number) => new Date(today.getTime() + (days + 1) * 86_400_000)
  const domains = can(scope.actor, 'domain-viewer')
  const dns = can(scope.actor, 'dns-viewer')

  // Each count is its area's read (decision 024): the same six indexed queries, at once.
  const [expiring, zones, differences, orders, material] = await Promise.all([
    domains ? expiringCounts(db, reach, today, EXPIRY_WINDOWS, until) : null,
    dns ? zonesInTrouble(db, reach, ZONES_NAMED) : null,
    domains ? openDifferenceCount(db, reach) : null,
    domains ? orderCounts(db, reach) : null,
    domains ? pendingRequestCount(db, reach) : null,
  ])
  // What PowerDNS may answer for another account: staff see it across every account.
  const overlaps = reach === null && isStaff(scope.actor) ? await findZoneOverlaps(db) : null

  return {
    today: day(today),
    expiring: expiring ? expiring.map((w) => ({ days: w.days, until: day(new Date(until(w.days).getTime() - 86_400_000)), total: w.total, auto_renew_off: w.auto_renew_off })) : null,
    zones,
    differences,
    orders,
    material_changes: material === null ? null : { pending: material },
    zone_overlaps: overlaps ? { count: overlaps.length, named: overlaps.slice(0, ZONES_NAMED).map((o) => ({ zone: o.inner.name, other: o.outer.name })) } : null,
  }
}
