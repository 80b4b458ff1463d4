import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { LIVE_POSTURE_SQL } from './reads.ts'

/**
 * The DNS report's posture rollup (issue 29, migration 1550): the job that keeps each zone's
 * posture in dns_zone_postures, for the report to read where it is current for the zone's version
 * (dns/reads.ts computes the rest live, with the same SQL). A write of the DNS area, so here and not
 * among its reads.
 */
type Db = Kysely<DB>

/** How many zones the rollup job recomputes in one statement. */
const ROLLUP_BATCH = 5_000

/**
 * The rollup job (every 10 minutes): recomputes the posture of each zone whose rollup is missing or
 * older than its version, ROLLUP_BATCH zones a statement, until none is left; returns how many.
 */
export async function refreshZonePostures(db: Db): Promise<number> {
  const p = LIVE_POSTURE_SQL
  let total = 0
  for (;;) {
    const result = await sql`
      INSERT INTO dns_zone_postures (zone_id, zone_version, spf, dmarc, caa, caa_issuers, mx, records, record_types, record_ttls, computed_at)
      SELECT z.id, z.version, ${sql.raw(p.spf)}, ${sql.raw(p.dmarc)}, ${sql.raw(p.caa)}, ${sql.raw(p.caa_issuers)}, ${sql.raw(p.mx)}, ${sql.raw(p.records)},
             ${sql.raw(p.record_types)}, ${sql.raw(p.record_ttls)}, now()
        FROM dns_zones z LEFT JOIN dns_zone_postures zp ON zp.zone_id = z.id
       WHERE zp.zone_id IS NULL OR zp.zone_version <> z.version
       LIMIT ${ROLLUP_BATCH}
      ON CONFLICT (zone_id) DO UPDATE SET zone_version = excluded.zone_version, spf = excluded.spf, dmarc = excluded.dmarc, caa = excluded.caa,
        caa_issuers = excluded.caa_issuers, mx = excluded.mx, records = excluded.records, record_types = excluded.record_types,
        record_ttls = excluded.record_ttls, computed_at = excluded.computed_at`.execute(db)
    const n = Number(result.numAffectedRows ?? 0)
    total += n
    if (n < ROLLUP_BATCH) return total
  }
}
