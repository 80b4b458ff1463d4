import { Kysely, PostgresDialect } from 'kysely'
import type { Database } from '#server/db/database.ts'
import type { DB } from '#server/db/schema.ts'
import { domainsResource } from '#server/platform/domains/portfolio.ts'
import { listQueryFromUrl, runList, type ListResource } from '#server/platform/list/engine.ts'

export type CapturedQuery = { sql: string; parameters: readonly unknown[] }

/**
 * The exact SQL the list engine runs for a list URL (page query and capped count), captured from
 * a Kysely instance with a query log over the same pool — so EXPLAIN looks at what production
 * runs, not at a hand-written copy that could drift from it.
 */
export async function captureListSql(database: Database, search: string, accountId: string, resource: ListResource = { ...domainsResource, accountColumn: 'd.account_id' }): Promise<CapturedQuery[]> {
  const captured: CapturedQuery[] = []
  // Not destroyed: destroying would end the shared pool.
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: database.pool as never }),
    log: (event) => {
      if (event.level === 'query') captured.push({ sql: event.query.sql, parameters: event.query.parameters })
    },
  })
  await runList(db, resource, listQueryFromUrl(resource, new URL(`http://bench.local/?${search}`)), { accountId })
  return captured
}

/** EXPLAIN (ANALYZE when asked) of a captured query, as plain text lines. */
export async function explain(database: Database, query: CapturedQuery, options: { analyze?: boolean } = {}): Promise<string> {
  const prefix = options.analyze ? 'EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)' : 'EXPLAIN (COSTS OFF)'
  const result = await database.pool.query(`${prefix} ${query.sql}`, query.parameters)
  return result.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n')
}
