import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the orders area's tables (decision 024). Each read takes the
 * caller's executor (the database or a `change()`'s transaction).
 */
type Db = Kysely<DB>

/** How many orders of an account (null: every account) wait (pending or processing) and how many failed: one count. */
export async function orderCounts(db: Db, accountId: string | null): Promise<{ pending: number; failed: number }> {
  let query = db
    .selectFrom('orders')
    .select([sql<string>`count(*) FILTER (WHERE state IN ('pending', 'processing'))`.as('pending'), sql<string>`count(*) FILTER (WHERE state = 'failed')`.as('failed')])
  if (accountId !== null) query = query.where('account_id', '=', accountId)
  const row = await query.executeTakeFirstOrThrow()
  return { pending: Number(row.pending), failed: Number(row.failed) }
}

/** An order's state (a transaction that charged it shows it), or undefined. */
export async function orderState(db: Db, id: string) {
  return (await db.selectFrom('orders').select('state').where('id', '=', id).executeTakeFirst())?.state
}

/** The order items registering a transfer of this name that are still processing (a registry's message about it wakes them). */
export async function processingTransferItems(db: Db, name: string): Promise<string[]> {
  return (await db.selectFrom('order_items').select('id').where('name', '=', name).where('type', '=', 'transfer').where('state', '=', 'processing').execute()).map((r) => r.id)
}

/** The orders of an account (null: every account) made since `from`, counted by state. */
export async function ordersByState(db: Db, accountId: string | null, from: Date): Promise<{ state: string; count: number }[]> {
  let query = db
    .selectFrom('orders')
    .select(['state', sql<string>`count(*)`.as('n')])
    .where('created_at', '>=', from)
    .groupBy('state')
  if (accountId !== null) query = query.where('account_id', '=', accountId)
  return (await query.execute()).map((r) => ({ state: r.state, count: Number(r.n) }))
}
