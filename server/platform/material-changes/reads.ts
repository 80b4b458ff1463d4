import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the material-changes area's tables (decision 024). Each read takes
 * the caller's executor (the database or a `change()`'s transaction).
 */

/** How many material change requests of an account (null: every account) wait for a decision. */
export async function pendingRequestCount(db: Kysely<DB>, accountId: string | null): Promise<number> {
  let query = db
    .selectFrom('material_change_requests')
    .select(sql<string>`count(*)`.as('n'))
    .where('state', '=', 'pending')
  if (accountId !== null) query = query.where('account_id', '=', accountId)
  return Number((await query.executeTakeFirstOrThrow()).n)
}
