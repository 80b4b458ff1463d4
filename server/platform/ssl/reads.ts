import { sql, type Kysely, type SelectQueryBuilder } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the SSL area's tables (decision 024): the certificates counted for
 * the SSL report (issue 29), and which host names no valid certificate of ours covers.
 */
type Db = Kysely<DB>

/** A certificate that covers its names now: issued or expiring, not past its end. */
const VALID = sql<boolean>`c.status IN ('issued', 'expiring') AND c.not_after > now()`

/**
 * The certificates of an account (null: every account) counted by status, CA, key type, month of
 * expiry (YYYY-MM, those not yet past and valid) and the renewals that failed: one pass.
 */
export async function certificateBreakdown(db: Db, accountId: string | null) {
  const scoped = accountId === null ? sql`TRUE` : sql`c.account_id = ${accountId}`
  const { rows } = await sql<{ dim: string; key: string; n: string }>`
    SELECT v.dim, v.key, count(*) AS n
    FROM ssl_certificates c
    CROSS JOIN LATERAL (
      SELECT 'status', c.status::text UNION ALL SELECT 'ca', c.ca UNION ALL SELECT 'key_type', c.key_type
      UNION ALL SELECT 'expiry_month', to_char(c.not_after AT TIME ZONE 'UTC', 'YYYY-MM') WHERE ${VALID}
      UNION ALL SELECT 'failed_renewal', 'failed' WHERE c.status = 'failed' AND c.origin = 'renewal'
      UNION ALL SELECT '', ''
    ) v(dim, key)
    WHERE ${scoped}
    GROUP BY v.dim, v.key`.execute(db)
  return rows.map((row) => ({ dim: row.dim, key: row.key, count: Number(row.n) }))
}

/**
 * Of the host names `hosts` answers (columns `name` and `account_id`: the DNS area's read of the
 * names with an address record), those no valid certificate of the same account covers — by its
 * name or a wildcard one label up: how many, and the first `named` by name.
 */
export async function uncoveredHosts(db: Db, hosts: SelectQueryBuilder<DB, never, { name: string; account_id: string }>, named: number) {
  // The names the valid certificates cover, per account, once; then two anti-joins (the host
  // itself, the wildcard one label up), each a hash join: one probe per certificate name (a GIN
  // probe per host took minutes at 2M records, issue 29). Counted and named in one statement.
  const { rows } = await sql<{ name: string; account_id: string; total: string }>`
    WITH covered AS MATERIALIZED (
      SELECT DISTINCT c.account_id, n.name FROM ssl_certificates c CROSS JOIN LATERAL unnest(c.names) AS n(name) WHERE ${VALID}
    ), uncovered AS MATERIALIZED (
      SELECT h.name, h.account_id FROM (${hosts}) h
       WHERE NOT EXISTS (SELECT 1 FROM covered v WHERE v.account_id = h.account_id AND v.name = h.name)
         AND NOT EXISTS (SELECT 1 FROM covered v WHERE v.account_id = h.account_id AND v.name = '*.' || substring(h.name from position('.' in h.name) + 1))
    )
    SELECT u.name, u.account_id, t.total FROM (SELECT count(*) AS total FROM uncovered) t LEFT JOIN LATERAL (SELECT * FROM uncovered ORDER BY name LIMIT ${named}) u ON TRUE`.execute(db)
  return { count: Number(rows[0]?.total ?? 0), named: rows.filter((r) => r.name !== null).map((r) => ({ name: r.name, account_id: r.account_id })) }
}

/** The account's certificates naming any of these hosts (or a wildcard one label up), newest first: intelligence's SSL focus (issue 32). */
export async function certificatesNaming(db: Db, accountId: string, hosts: string[]) {
  if (!hosts.length) return []
  const wildcards = hosts.map((h) => `*.${h.slice(h.indexOf('.') + 1)}`)
  const { rows } = await sql<{ id: string; common_name: string; names: string[]; status: string; ca: string; key_type: string; not_after: Date | null; origin: string; valid: boolean }>`
    SELECT c.id, c.common_name, c.names, c.status, c.ca, c.key_type, c.not_after, c.origin, (${VALID}) AS valid
      FROM ssl_certificates c
     WHERE c.account_id = ${accountId} AND c.names && ${[...hosts, ...wildcards]}::text[]
     ORDER BY c.not_after DESC NULLS LAST, c.id
     LIMIT 500`.execute(db)
  return rows
}
