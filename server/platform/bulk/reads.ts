import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the bulk jobs (decision 024): a job's items with their results and
 * baselines, for an area whose work runs as bulk jobs (a change set's stages, issue 33).
 */
export function bulkJobItems(db: Kysely<DB>, jobId: string) {
  return db.selectFrom('bulk_job_items').selectAll().where('job_id', '=', jobId).orderBy('position').execute()
}

/** A bulk job's state and counts. */
export function bulkJobProgress(db: Kysely<DB>, jobId: string) {
  return db.selectFrom('bulk_jobs').select(['id', 'state', 'total', 'done']).where('id', '=', jobId).executeTakeFirst()
}
