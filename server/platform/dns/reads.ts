import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { TTL_BUCKETS } from '#common/reports.ts'
import { DNS_RECORD_TYPES } from '#common/lists/dns.ts'

/**
 * What other areas may read of the DNS area's tables (decision 024): zones, their records, and the
 * rule that a zone is live (served, holding its name) once its control is established — written
 * once here. Each read takes the caller's executor (the database or a `change()`'s transaction);
 * the ones returning a query builder let the caller choose columns or embed them in one statement.
 */
type Db = Kysely<DB>

/** The live zones: control established (verified). */
export function liveZones(db: Db) {
  return db.selectFrom('dns_zones').where('dns_zones.verified_at', 'is not', null)
}

/** The zones of an account in any state; null is every account (staff in their own group). */
export function zonesOf(db: Db, accountId: string | null) {
  const zones = db.selectFrom('dns_zones')
  return accountId === null ? zones : zones.where('dns_zones.account_id', '=', accountId)
}

/** The account's live zone holding a name: the longest of the name and its parents (`names`) that is a live zone of the account. */
export function hostingZone(db: Db, accountId: string, names: string[]) {
  return liveZones(db)
    .select(['dns_zones.id', 'dns_zones.name'])
    .where('dns_zones.account_id', '=', accountId)
    .where('dns_zones.name', 'in', names)
    .orderBy(sql`length(dns_zones.name)`, 'desc')
    .executeTakeFirst()
}

/** The live zone of a portfolio domain, if it is hosted here (its DNSSEC then sets the domain's DS). */
export function liveZoneOfDomain(db: Db, domainId: string) {
  return liveZones(db).select(['dns_zones.id', 'dns_zones.name', 'dns_zones.dnssec_state']).where('dns_zones.domain_id', '=', domainId).executeTakeFirst()
}

/** A zone's publishing state (a job waiting for its record to be served). */
export function zonePublishState(db: Db, zoneId: string) {
  return db.selectFrom('dns_zones').select(['publish_state', 'published_serial', 'serial', 'last_error']).where('id', '=', zoneId).executeTakeFirstOrThrow()
}

/** A zone's record sets at a name of one type. */
export function zoneRecordsAt(db: Db, zoneId: string, name: string, type: string) {
  return db.selectFrom('dns_records').where('dns_records.zone_id', '=', zoneId).where('dns_records.name', '=', name).where('dns_records.type', '=', type)
}

/** The records of an account; null is every account. */
export function recordsOf(db: Db, accountId: string | null) {
  const records = db.selectFrom('dns_records')
  return accountId === null ? records : records.where('dns_records.account_id', '=', accountId)
}

/** Which of these record ids still exist, in one query. */
export async function presentRecordIds(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return []
  return (await db.selectFrom('dns_records').select('id').where('id', 'in', ids).execute()).map((r) => r.id)
}

/** Record ids, for a membership test against another table's ids (`id IN (…)`). */
export function recordIds(db: Db) {
  return db.selectFrom('dns_records').select('dns_records.id')
}

/**
 * The SQL a list resource of another area joins a record and its zone by (its `from`):
 * `JOIN dns_records <r> ON <r>.id = <on> JOIN dns_zones <z> ON <z>.id = <r>.zone_id`. The aliases
 * and `on` are the resource's own trusted names, never input.
 */
export const joinRecordsAndZones = (r: string, z: string, on: string) => `JOIN dns_records ${r} ON ${r}.id = ${on} JOIN dns_zones ${z} ON ${z}.id = ${r}.zone_id`

/** What the zones of an account (null: every account) need attention for: publishing failed, or PowerDNS drifted from our records. */
const DRIFTING = sql<boolean>`drift IS NOT NULL AND (coalesce(jsonb_array_length(drift->'missing'), 0) + coalesce(jsonb_array_length(drift->'unexpected'), 0) + coalesce(jsonb_array_length(drift->'different'), 0)) > 0`

/** How many zones fail to publish or drift, and the first `named` of them (failing first, then by name): two indexed queries. */
export async function zonesInTrouble(db: Db, accountId: string | null, named: number) {
  const [counts, first] = await Promise.all([
    zonesOf(db, accountId)
      .select([sql<string>`count(*) FILTER (WHERE publish_state = 'failed')`.as('failing'), sql<string>`count(*) FILTER (WHERE publish_state <> 'failed' AND ${DRIFTING})`.as('drifting')])
      .executeTakeFirstOrThrow(),
    zonesOf(db, accountId)
      .select(['id', 'name', 'domain_id', sql<'failing' | 'drifting'>`CASE WHEN publish_state = 'failed' THEN 'failing' ELSE 'drifting' END`.as('problem')])
      .where(sql<boolean>`(publish_state = 'failed' OR (${DRIFTING}))`)
      .orderBy(sql`publish_state = 'failed'`, 'desc')
      .orderBy('name')
      .limit(named)
      .execute(),
  ])
  return { failing: Number(counts.failing), drifting: Number(counts.drifting), named: first.map((z) => ({ id: z.id, name: z.name, domain_id: z.domain_id, problem: z.problem })) }
}

/* --- The DNS report (issue 29): each zone's posture, as a list and as counts ------------------ */

/** The records of zone `z` at a name (trusted SQL: `name` is this file's own expression). */
const recordsAt = (name: string, type: string) => `FROM dns_records r WHERE r.zone_id = z.id AND r.name = ${name} AND r.type = '${type}'`

/**
 * The SQL of each posture of a zone aliased `z`, computed from its records — the one definition the
 * report's zone list filters by, its figures count by and the rollup job stores. SPF: the apex's
 * `v=spf1` ending `-all` (hard), `~all` (soft), anything else (open) or none; DMARC: `_dmarc`'s
 * policy; CAA and the CAs its `issue` and `issuewild` name; MX at the apex; the record count.
 */
export const LIVE_POSTURE_SQL = {
  spf: `(SELECT CASE WHEN count(*) = 0 THEN 'missing' WHEN bool_or(lower(rtrim(r.content, '" ')) LIKE '%-all') THEN 'hard' WHEN bool_or(lower(rtrim(r.content, '" ')) LIKE '%~all') THEN 'soft' ELSE 'open' END ${recordsAt('z.name', 'TXT')} AND lower(r.content) LIKE '"v=spf1%')`,
  dmarc: `(SELECT CASE WHEN count(*) = 0 THEN 'missing' WHEN bool_or(lower(r.content) ~ '(^|[;" ])p *= *reject') THEN 'reject' WHEN bool_or(lower(r.content) ~ '(^|[;" ])p *= *quarantine') THEN 'quarantine' ELSE 'none' END ${recordsAt("'_dmarc.' || z.name", 'TXT')} AND lower(r.content) LIKE '"v=dmarc1%')`,
  caa: `EXISTS (SELECT 1 ${recordsAt('z.name', 'CAA')})`,
  caa_issuers: `(SELECT coalesce(string_agg(DISTINCT i.issuer, ' '), '') FROM (SELECT lower(btrim(split_part(split_part(r.content, ' ', 3), ';', 1), '"')) AS issuer ${recordsAt('z.name', 'CAA')} AND split_part(r.content, ' ', 2) IN ('issue', 'issuewild')) i WHERE i.issuer <> '')`,
  mx: `EXISTS (SELECT 1 ${recordsAt('z.name', 'MX')})`,
  records: '(SELECT count(*)::int FROM dns_records r WHERE r.zone_id = z.id)',
  record_types: `(SELECT ARRAY[${DNS_RECORD_TYPES.map((type) => `count(*) FILTER (WHERE r.type = '${type}')`).join(', ')}]::integer[] FROM dns_records r WHERE r.zone_id = z.id)`,
  record_ttls: `(SELECT ARRAY[${TTL_BUCKETS.map(([key]) => `count(*) FILTER (WHERE ${ttlBucketSql('r.ttl')} = '${key}')`).join(', ')}]::integer[] FROM dns_records r WHERE r.zone_id = z.id)`,
} as const

/** The TTL bucket (common/reports.ts TTL_BUCKETS) of a TTL column, as SQL (trusted: the buckets are constants). */
function ttlBucketSql(ttl: string) {
  return `(CASE ${TTL_BUCKETS.map(([key, , to]) => (to === null ? `ELSE '${key}'` : `WHEN ${ttl} <= ${to} THEN '${key}'`)).join(' ')} END)`
}

type PostureColumn = keyof typeof LIVE_POSTURE_SQL
/** A posture read from the rollup (`zp`, dns_zone_postures) where it is current for the zone's version, else computed live. */
const rolledUp = (column: PostureColumn) => `(CASE WHEN zp.zone_version = z.version THEN zp.${column} ELSE ${LIVE_POSTURE_SQL[column]} END)`

/**
 * The posture of a zone aliased `z` beside its rollup aliased `zp` (`zonesFrom`): exact whatever the
 * rollup job's progress (a zone changed since is computed live), and one indexed read per zone where
 * the rollup is current (issue 29: 500,000 zones in the report's time). Drift from PowerDNS at the
 * last check.
 */
export const ZONE_POSTURE_SQL = {
  spf: rolledUp('spf'),
  dmarc: rolledUp('dmarc'),
  caa: rolledUp('caa'),
  caa_issuers: rolledUp('caa_issuers'),
  mx: rolledUp('mx'),
  drift: `(CASE WHEN z.drift_checked_at IS NULL THEN 'unchecked' WHEN z.drift IS NOT NULL AND (coalesce(jsonb_array_length(z.drift->'missing'), 0) + coalesce(jsonb_array_length(z.drift->'unexpected'), 0) + coalesce(jsonb_array_length(z.drift->'different'), 0)) > 0 THEN 'drifting' ELSE 'in_sync' END)`,
  records: rolledUp('records'),
} as const

/** The SQL naming the zones as `z` with their posture rollup as `zp`, for a list resource of the report (its `from`), with the account joined by the caller. */
export const zonesFrom = (z: string) => `dns_zones ${z} LEFT JOIN dns_zone_postures zp ON zp.zone_id = ${z}.id`

/** The zone dimensions the DNS report counts, in the order of the GROUPING SETS below. */
const ZONE_DIMENSIONS = ['publish_state', 'dnssec_state', 'drift', 'spf', 'dmarc', 'caa', 'mx', 'stale'] as const

/**
 * The zones of an account (null: every account) counted by publishing state, DNSSEC state, drift,
 * SPF, DMARC, CAA (and each CA named), MX and staleness (not changed since `staleBefore`), and their
 * records by type and TTL bucket — exact, whatever the rollup job's progress: each zone's posture
 * and record counts are read from its rollup where it is current for the zone's version
 * (dns_zone_postures, dns/postures.ts) and computed live for the zones changed since. One pass over
 * the zones with GROUPING SETS (one row per figure, not one per zone and dimension), and the records
 * of the changed zones only (issue 29: 500,000 zones and 5M records in the report's second).
 */
export async function dnsPosture(db: Db, accountId: string | null, staleBefore: Date) {
  const scoped = accountId === null ? sql`TRUE` : sql`z.account_id = ${accountId}`
  const p = ZONE_POSTURE_SQL
  const dims = sql.raw(ZONE_DIMENSIONS.join(', '))
  const zoneFigures = sql<{ g: number; n: string } & Record<(typeof ZONE_DIMENSIONS)[number], string | null>>`
    WITH s AS MATERIALIZED (
      SELECT z.publish_state::text AS publish_state, z.dnssec_state::text AS dnssec_state, ${sql.raw(p.drift)} AS drift, ${sql.raw(p.spf)} AS spf,
             ${sql.raw(p.dmarc)} AS dmarc, (${sql.raw(p.caa)})::text AS caa, ${sql.raw(p.caa_issuers)} AS caa_issuers, (${sql.raw(p.mx)})::text AS mx,
             CASE WHEN z.updated_at < ${staleBefore} THEN 'stale' ELSE 'recent' END AS stale
        FROM ${sql.raw(zonesFrom('z'))} WHERE ${scoped})
    SELECT GROUPING(${dims}) AS g, ${dims}, count(*) AS n FROM s
     GROUP BY GROUPING SETS (${sql.raw(ZONE_DIMENSIONS.map((d) => `(${d})`).join(', '))}, ())
    UNION ALL
    SELECT -1, i, NULL, NULL, NULL, NULL, NULL, NULL, NULL, count(*) FROM s, unnest(string_to_array(nullif(s.caa_issuers, ''), ' ')) i GROUP BY i`.execute(db)
  // The records: the current rollups' counts summed position by position (one row), and the
  // changed zones' records counted live.
  const sums = (column: string, length: number) => Array.from({ length }, (_, i) => `coalesce(sum(zp.${column}[${i + 1}]), 0)`).join(', ')
  const rolledRecords = sql<{ counts: (string | number)[] }>`
    SELECT ARRAY[${sql.raw(sums('record_types', DNS_RECORD_TYPES.length))}, ${sql.raw(sums('record_ttls', TTL_BUCKETS.length))}]::bigint[] AS counts
      FROM ${sql.raw(zonesFrom('z'))}
     WHERE ${scoped} AND zp.zone_version = z.version`.execute(db)
  const liveRecords = sql<{ dim: string; key: string; n: string }>`
    SELECT CASE WHEN GROUPING(r.type) = 0 THEN 'record_type' ELSE 'ttl' END AS dim, coalesce(r.type, ${sql.raw(ttlBucketSql('r.ttl'))}) AS key, count(*) AS n
      FROM ${sql.raw(zonesFrom('z'))} JOIN dns_records r ON r.zone_id = z.id
     WHERE ${scoped} AND zp.zone_version IS DISTINCT FROM z.version
     GROUP BY GROUPING SETS ((r.type), (${sql.raw(ttlBucketSql('r.ttl'))}))`.execute(db)
  const [zones, rolled, live] = await Promise.all([zoneFigures, rolledRecords, liveRecords])
  const figures = new Map<string, { dim: string; key: string; count: number }>()
  const add = (dim: string, key: string, n: string | number) => {
    const id = `${dim}\u0000${key}`
    const figure = figures.get(id) ?? { dim, key, count: 0 }
    figure.count += Number(n)
    figures.set(id, figure)
  }
  const all = (1 << ZONE_DIMENSIONS.length) - 1
  for (const row of zones.rows) {
    if (row.g === -1) add('caa_issuer', row.publish_state!, row.n)
    else if (row.g === all) add('', '', row.n)
    else {
      // GROUPING(...) has a 0 bit, counted from the last dimension, for the one grouped by.
      const index = ZONE_DIMENSIONS.findIndex((_, i) => (row.g & (1 << (ZONE_DIMENSIONS.length - 1 - i))) === 0)
      const dim = ZONE_DIMENSIONS[index]!
      add(dim, row[dim] ?? '', row.n)
    }
  }
  const counts = (rolled.rows[0]?.counts ?? []).map(Number)
  const keys = [...DNS_RECORD_TYPES.map((type) => ['record_type', type] as const), ...TTL_BUCKETS.map(([key]) => ['ttl', key] as const)]
  keys.forEach(([dim, key], i) => {
    if (counts[i]) add(dim, key, counts[i])
  })
  for (const row of live.rows) add(row.dim, row.key, row.n)
  return [...figures.values()]
}

/** The distinct host names of an account's live zones (null: every account) that answer an address (A or AAAA), with their account. */
export function addressedNames(db: Db, accountId: string | null) {
  return recordsOf(db, accountId)
    .innerJoin('dns_zones', 'dns_zones.id', 'dns_records.zone_id')
    .where('dns_zones.verified_at', 'is not', null)
    .where('dns_records.type', 'in', ['A', 'AAAA'])
    .select(['dns_records.name', 'dns_records.account_id'])
    .distinct()
}

/**
 * The records of these zones at owner names given relative to each zone ('@' its apex, 'www'),
 * every type, in one statement: what a change set over many zones previews and applies against
 * (issue 33). Rows carry their zone's id and name.
 */
export async function recordsAtRelativeNames(db: Db, zoneIds: string[], relativeNames: string[]) {
  if (zoneIds.length === 0 || relativeNames.length === 0) return []
  const result = await sql<{ zone_id: string; id: string; name: string; type: string; ttl: number; content: string }>`
    SELECT r.zone_id, r.id, r.name, r.type, r.ttl, r.content
      FROM dns_zones z
      JOIN dns_records r ON r.zone_id = z.id
     WHERE z.id = ANY(${zoneIds}::uuid[])
       AND r.name = ANY(ARRAY(SELECT CASE WHEN n = '@' THEN z.name ELSE n || '.' || z.name END FROM unnest(${relativeNames}::text[]) n))`.execute(db)
  return result.rows
}

/** The publishing state of many zones, in one statement (a change set's health check). */
export function zonesPublishStates(db: Db, zoneIds: string[]) {
  return db
    .selectFrom('dns_zones')
    .select(['id', 'name', 'publish_state', 'published_serial', 'serial', 'last_error', 'verified_at'])
    .where('id', 'in', zoneIds.length ? zoneIds : ['00000000-0000-0000-0000-000000000000'])
    .execute()
}

/**
 * The mail and CAA posture of an account's live zones at these names (its domains' names), one row
 * per zone, in one statement per 10,000 names (intelligence's security score, issue 32): whether the
 * apex has CAA, an SPF TXT and MX, whether `_dmarc` has a DMARC TXT, any `*._domainkey` record
 * exists, `_mta-sts` an STSv1 TXT. Only the records at those names are read.
 */
export async function zoneMailPosture(db: Db, accountId: string, names: string[]) {
  const rows: { zone_id: string; zone: string; caa: boolean; spf: boolean; mx: boolean; dmarc: boolean; dkim: boolean; mta_sts: boolean }[] = []
  for (let i = 0; i < names.length; i += 10_000) {
    const chunk = names.slice(i, i + 10_000)
    const result = await sql<(typeof rows)[number]>`
      SELECT z.id AS zone_id, z.name AS zone,
             coalesce(bool_or(r.type = 'CAA' AND r.name = z.name), false) AS caa,
             coalesce(bool_or(r.type = 'TXT' AND r.name = z.name AND r.content ILIKE '"v=spf1%'), false) AS spf,
             coalesce(bool_or(r.type = 'MX' AND r.name = z.name), false) AS mx,
             coalesce(bool_or(r.type = 'TXT' AND r.name = '_dmarc.' || z.name AND r.content ILIKE '"v=DMARC1%'), false) AS dmarc,
             coalesce(bool_or(r.name LIKE '%._domainkey.' || z.name), false) AS dkim,
             coalesce(bool_or(r.type = 'TXT' AND r.name = '_mta-sts.' || z.name AND r.content ILIKE '"v=STSv1%'), false) AS mta_sts
        FROM dns_zones z
        LEFT JOIN dns_records r ON r.zone_id = z.id
         AND (r.name = z.name OR r.name = '_dmarc.' || z.name OR r.name = '_mta-sts.' || z.name OR r.name LIKE '%._domainkey.' || z.name)
       WHERE z.account_id = ${accountId} AND z.name = ANY(${chunk}::text[]) AND z.verified_at IS NOT NULL
       GROUP BY z.id`.execute(db)
    rows.push(...result.rows)
  }
  return rows
}

/** The queries our PowerDNS answered for each of these zones since a time (the sampled statistics of decision 202), one statement. */
export async function zoneQueriesSince(db: Db, zoneIds: string[], since: Date) {
  if (!zoneIds.length) return new Map<string, number>()
  const result = await sql<{ zone_id: string; queries: string }>`
    SELECT zone_id, sum(queries) AS queries FROM dns_zone_statistics
     WHERE zone_id = ANY(${zoneIds}::uuid[]) AND bucket_start >= ${since}
     GROUP BY zone_id`.execute(db)
  return new Map(result.rows.map((r) => [r.zone_id, Number(r.queries)]))
}
