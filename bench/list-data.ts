import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * Bench data: `count` domains in one account, generated inside the database (INSERT … SELECT
 * over generate_series) so that 200k rows take seconds, not minutes. Deterministic: the same
 * count gives the same names, TLDs and dates, so figures are comparable between runs.
 *
 * This is benchmark data, not a seed: it bypasses the services (and the audit trail) on purpose.
 */
export async function generateDomains(db: Kysely<DB>, accountId: string, count: number, options: { batch?: number; prefix?: string } = {}): Promise<void> {
  const batch = options.batch ?? 50_000
  const prefix = options.prefix ?? ''
  const words = ['acme', 'rocket', 'anvil', 'falcon', 'harbor', 'summit', 'cedar', 'orbit', 'pixel', 'quartz', 'nova', 'delta', 'ember', 'lumen', 'atlas', 'vertex', 'meadow', 'cobalt', 'zephyr', 'granite', 'techno', 'sierra', 'tango', 'bravo']
  const suffixes = ['', 'shop', 'labs', 'cloud', 'group', 'online', 'store', 'direct', 'global', 'mail', 'tech', 'hub']
  const tlds = ['com', 'net', 'org', 'io', 'de', 'es', 'eu', 'shop', 'jp']
  const statuses = ['active', 'active', 'active', 'active', 'active', 'active', 'expired', 'redemption', 'pending', 'transferring']
  for (let start = 1; start <= count; start += batch) {
    const end = Math.min(count, start + batch - 1)
    await sql`
      INSERT INTO domains (account_id, name, unicode_name, tld, status, expires_at, auto_renew, registry_lock, dnssec, tags, created_at, updated_at)
      SELECT ${accountId}::uuid, n.name || '.' || n.tld, n.name || '.' || n.tld, n.tld,
             (${sql.val(statuses)}::text[])[1 + (i * 7) % ${statuses.length}],
             timestamptz '2026-01-01 00:00:00+00' + ((i * 7919) % 1460 - 365) * interval '1 day' + (i % 86400) * interval '1 second',
             i % 5 <> 0, i % 11 = 0, i % 3 = 0,
             CASE WHEN i % 4 = 0 THEN ARRAY['vip'] WHEN i % 4 = 1 THEN ARRAY['parked', 'legacy'] ELSE '{}'::text[] END,
             timestamptz '2020-01-01 00:00:00+00' + i * interval '17 minutes',
             timestamptz '2020-01-01 00:00:00+00' + i * interval '17 minutes'
      FROM generate_series(${start}::int, ${end}::int) AS i
      CROSS JOIN LATERAL (
        SELECT ${prefix} || (${sql.val(words)}::text[])[1 + i % ${words.length}]
                 || (${sql.val(suffixes)}::text[])[1 + (i / ${words.length}) % ${suffixes.length}]
                 || '-' || i::text AS name,
               (${sql.val(tlds)}::text[])[1 + (i * 31) % ${tlds.length}] AS tld
      ) AS n`.execute(db)
  }
  await sql`ANALYZE domains`.execute(db)
}
