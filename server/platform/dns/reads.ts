import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

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
