import type { ColumnType } from 'kysely'

/**
 * pg-boss 10's own tables (schema pgboss, made and migrated by pg-boss, never by our migrations):
 * the columns the jobs area reads. A job that spent its retries is `failed`, its `output` the
 * error; pg-boss moves finished jobs to `archive` after a while (12 hours) and drops them from
 * there after 7 days. Only `server/jobs/jobs.ts` (the engine) and the jobs area name them.
 */
export interface PgBossJobTable {
  id: string
  name: string
  data: ColumnType<unknown, never, never>
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed'
  retry_limit: number
  retry_count: number
  created_on: Date
  started_on: Date | null
  completed_on: Date | null
  output: ColumnType<unknown, never, never>
}

export interface PgBossArchiveTable extends PgBossJobTable {
  archived_on: Date
}
