import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the audit trail (decision 024). The trail is written by
 * `core/change.ts`'s audit writer only; an area's own log (the DNS log of a zone) is a list over
 * the entries of its area, whose resource names them through this one fragment.
 */

/** The SQL naming the audit entries as `<alias>` (in a list resource's `from` or a subquery); the alias is trusted, never input. */
export const auditEntries = (alias: string) => `audit_entries ${alias}`

/**
 * What changed in an account (null: every account) in `[from, until)`, in these areas: entries
 * counted per week (its Monday, YYYY-MM-DD, UTC), per kind (`area.action`) and per actor (the
 * `topActors` most active by label) — one pass over the period's entries.
 */
export async function activityBreakdown(db: Kysely<DB>, accountId: string | null, from: Date, until: Date, areas: readonly string[], topActors: number) {
  const scoped = accountId === null ? sql`TRUE` : sql`ae.account_id = ${accountId}`
  const { rows } = await sql<{ dim: string; key: string; n: string }>`
    SELECT v.dim, v.key, count(*) AS n
    FROM audit_entries ae
    CROSS JOIN LATERAL (
      SELECT 'week', to_char(date_trunc('week', ae.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')
      UNION ALL SELECT 'kind', ae.area || '.' || ae.action UNION ALL SELECT 'actor', ae.actor_label UNION ALL SELECT '', ''
    ) v(dim, key)
    WHERE ${scoped} AND ae.created_at >= ${from} AND ae.created_at < ${until} AND ae.area IN (${sql.join(areas.map((a) => sql`${a}`))})
    GROUP BY v.dim, v.key`.execute(db)
  const counts = rows.map((row) => ({ dim: row.dim, key: row.key, count: Number(row.n) }))
  const actors = counts
    .filter((c) => c.dim === 'actor')
    .sort((a, b) => b.count - a.count)
    .slice(topActors)
  return counts.filter((c) => !actors.includes(c))
}
