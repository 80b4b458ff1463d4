import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the background jobs (decision 024): pg-boss's tables, owned by the
 * jobs area. A job has failed when it spent its retries (state `failed`, pg-boss's `completed_on`
 * the moment it failed); pg-boss keeps it in `pgboss.job` for 12 hours, then in `pgboss.archive`
 * for 7 days: a failed job is either, counted once.
 */

/** PostgreSQL's undefined_table: pg-boss's schema is not there yet. */
const UNDEFINED_TABLE = '42P01'

/** The failed jobs since `since`, by queue: one statement over the queue and its archive. */
export async function failedJobsByQueue(db: Kysely<DB>, since: Date): Promise<{ queue: string; count: number }[]> {
  const { rows } = await sql<{ queue: string; n: string }>`
    SELECT name AS queue, count(*) AS n FROM (
      SELECT name FROM pgboss.job WHERE state = 'failed' AND completed_on >= ${since}
      UNION ALL
      SELECT name FROM pgboss.archive WHERE state = 'failed' AND completed_on >= ${since}
    ) AS failed GROUP BY name`
    .execute(db)
    // pg-boss makes its tables when the engine first starts (every server start does): before that, no job has failed.
    .catch((error: unknown) => {
      if ((error as { code?: string }).code === UNDEFINED_TABLE) return { rows: [] }
      throw error
    })
  return rows.map((r) => ({ queue: r.queue, count: Number(r.n) })).sort((a, b) => b.count - a.count || a.queue.localeCompare(b.queue))
}
