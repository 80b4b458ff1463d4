import { sql } from 'kysely'
import { createPowerDnsClient, type PowerDnsSettings } from '#server/integrations/powerdns/client.ts'
import { badRequest } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { getZone, powerDnsSettings } from './zones.ts'

/**
 * Query counts per zone, from PowerDNS Authoritative 4.7's statistics API. That version has no
 * per-zone counters: it has the global `udp-queries`/`tcp-queries` counters and the `queries`
 * ring, the last N (10,000 by default) questions as "qname/qtype" with counts. So each run:
 * - reads the counters and the ring, and maps each qname to the longest zone it falls in;
 * - while the ring has not wrapped since PowerDNS started, it holds every question, so the new
 *   queries of a zone are exactly its ring count minus the last one;
 * - once it has wrapped, the ring is a sample of the latest questions: the exact number of new
 *   queries (counter difference) is shared out by each zone's part of the ring. Exact for steady
 *   traffic, an estimate otherwise; decision 202 says why this is the honest best with 4.7.
 * A restart (uptime going back) starts from zero again. Counts go to 5-minute buckets.
 */
export const BUCKET_SECONDS = 300
export const STATISTICS_JOB = 'dns.statistics'

const bucketOf = (date: Date) => new Date(Math.floor(date.getTime() / (BUCKET_SECONDS * 1000)) * BUCKET_SECONDS * 1000)

/** The zone a query name falls in: the longest of our zone names it ends with. */
export function zoneFor(qname: string, zones: Map<string, string>): string | undefined {
  let name = qname.toLowerCase().replace(/\.$/, '')
  for (;;) {
    const id = zones.get(name)
    if (id) return id
    const dot = name.indexOf('.')
    if (dot < 0) return undefined
    name = name.slice(dot + 1)
  }
}

export type CollectResult = { newQueries: number; perZone: Record<string, number>; ringWrapped: boolean; estimated: boolean }

/** One collection run against one PowerDNS server. */
export async function collectStatistics(deps: PlatformDeps, settings: PowerDnsSettings | undefined = powerDnsSettings(deps)): Promise<CollectResult | null> {
  if (!settings) return null
  const server = settings.apiUrl
  // One collection per server at a time: two at once would both count the same new queries.
  return deps.db.transaction().execute(async (tx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`dns.statistics ${server}`}))`.execute(tx)
    const client = createPowerDnsClient(settings)
    const items = await client.statistics()
    const number = (name: string) => Number((items.find((i) => i.name === name)?.value as string | undefined) ?? 0)
    const total = number('udp-queries') + number('tcp-queries')
    const uptime = number('uptime')
    const ringSize = number('ring-queries-size')
    const ringCapacity = number('ring-queries-capacity')
    const ring = (items.find((i) => i.name === 'queries' && i.type === 'RingStatisticItem')?.value ?? []) as { name: string; value: string }[]

    const zones = new Map((await tx.selectFrom('dns_zones').select(['id', 'name']).where('verified_at', 'is not', null).execute()).map((z) => [z.name, z.id]))
    const ringCounts: Record<string, number> = {}
    let ringTotal = 0
    for (const entry of ring) {
      const count = Number(entry.value)
      ringTotal += count
      const zoneId = zoneFor(entry.name.slice(0, entry.name.lastIndexOf('/')), zones)
      if (zoneId) ringCounts[zoneId] = (ringCounts[zoneId] ?? 0) + count
    }
    // Wrapped when the ring is full and the server has seen more questions than it holds.
    const wrapped = ringCapacity > 0 && ringSize >= ringCapacity && total > ringCapacity
    const now = deps.now()
    const last = await tx.selectFrom('dns_statistics_cursor').selectAll().where('server', '=', server).forUpdate().executeTakeFirst()
    const restarted = !last || uptime < last.uptime || total < last.total_queries
    const previousTotal = restarted ? 0 : last.total_queries
    const newQueries = total - previousTotal
    const perZone: Record<string, number> = {}
    let estimated = false
    if (!wrapped) {
      const before = restarted ? {} : last.ring_counts
      for (const [zoneId, count] of Object.entries(ringCounts)) {
        const delta = count - (before[zoneId] ?? 0)
        if (delta > 0) perZone[zoneId] = delta
      }
    } else if (newQueries > 0 && ringTotal > 0) {
      estimated = true
      // The ring covers the latest min(N, ring) questions; the new ones are the latest of those.
      for (const [zoneId, count] of Object.entries(ringCounts)) {
        const share = Math.round((newQueries * count) / ringTotal)
        if (share > 0) perZone[zoneId] = share
      }
    }
    const bucket = bucketOf(now)
    const known = new Set(zones.values())
    const rows = Object.entries(perZone).filter(([zoneId]) => known.has(zoneId))
    if (rows.length) {
      await tx
        .insertInto('dns_zone_statistics')
        .values(rows.map(([zone_id, queries]) => ({ zone_id, bucket_start: bucket, queries })))
        .onConflict((oc) => oc.columns(['zone_id', 'bucket_start']).doUpdateSet({ queries: sql<number>`dns_zone_statistics.queries + excluded.queries` }))
        .execute()
    }
    const cursor = { total_queries: total, uptime, ring_wrapped: wrapped, ring_counts: JSON.stringify(ringCounts), collected_at: now }
    await tx
      .insertInto('dns_statistics_cursor')
      .values({ server, ...cursor })
      .onConflict((oc) => oc.column('server').doUpdateSet(cursor))
      .execute()
    return { newQueries, perZone, ringWrapped: wrapped, estimated }
  })
}

export type ZoneStatistics = {
  zone_id: string
  from: string
  to: string
  bucket_seconds: number
  total: number
  buckets: { start: string; queries: number }[]
}

const MAX_RANGE_DAYS = 93

/** Query counts of a zone between `from` (inclusive) and `to` (exclusive), one entry per bucket with queries. */
export async function zoneStatistics(deps: PlatformDeps, scope: Scope, zoneId: string, range: { from?: string; to?: string }): Promise<ZoneStatistics> {
  const zone = await getZone(deps.db, scope, zoneId)
  const to = range.to ? new Date(range.to) : deps.now()
  const from = range.from ? new Date(range.from) : new Date(to.getTime() - 24 * 3600 * 1000)
  const errors = []
  if (Number.isNaN(from.getTime())) errors.push({ field: 'from', message: 'not a date and time (ISO 8601)' })
  if (Number.isNaN(to.getTime())) errors.push({ field: 'to', message: 'not a date and time (ISO 8601)' })
  if (!errors.length && from >= to) errors.push({ field: 'from', message: 'must be before to' })
  if (!errors.length && to.getTime() - from.getTime() > MAX_RANGE_DAYS * 86400_000) errors.push({ field: 'to', message: `the range is at most ${MAX_RANGE_DAYS} days` })
  if (errors.length) throw badRequest('The range is not valid', errors)
  const rows = await deps.db
    .selectFrom('dns_zone_statistics')
    .select(['bucket_start', 'queries'])
    .where('zone_id', '=', zone.id)
    .where('bucket_start', '>=', from)
    .where('bucket_start', '<', to)
    .orderBy('bucket_start')
    .execute()
  const buckets = rows.map((r) => ({ start: new Date(r.bucket_start).toISOString(), queries: Number(r.queries) }))
  return { zone_id: zone.id, from: from.toISOString(), to: to.toISOString(), bucket_seconds: BUCKET_SECONDS, total: buckets.reduce((sum, b) => sum + b.queries, 0), buckets }
}
