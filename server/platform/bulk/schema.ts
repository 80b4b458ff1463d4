import type { ColumnType } from 'kysely'

/**
 * The columns migration 0695 adds to the bulk job tables, joined to their declarations by
 * merging (as schema-tray.ts joins `DB`), so that the shared schema files need no edit.
 */
declare module '#server/db/schema-tray.ts' {
  interface BulkJobsTable {
    /** The run working the job now: a run that finds another id here stops. */
    run_id: string | null
  }
  interface BulkJobItemsTable {
    /** How often the item was started; above one, an earlier attempt may have reached the registry. */
    attempts: ColumnType<number, number | undefined, number>
    /** The subject's state before the first attempt (a renewal: `{ expires_at }`). */
    baseline: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>
  }
}

export {}
