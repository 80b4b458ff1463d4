import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the billing area's tables (decision 024). An area that charges
 * (blocks, SSL, orders) finds its charges by the idempotency keys it gave them. Each read takes
 * the caller's executor (the database or a `change()`'s transaction); the builders let the caller
 * pick columns and order.
 */
type Db = Kysely<DB>

/** The transactions whose idempotency key is one of `keys` or begins with one of `prefixes` (trusted key prefixes, no LIKE wildcards). */
export function chargesKeyed(db: Db, keys: string[], prefixes: string[] = []) {
  return db
    .selectFrom('transactions')
    .where((eb) => eb.or([...(keys.length ? [eb('transactions.idempotency_key', 'in', keys)] : []), ...prefixes.map((p) => eb('transactions.idempotency_key', 'like', `${p}%`))]))
}

/** These billing entities (by id). */
export function billingEntitiesByIds(db: Db, ids: string[]) {
  return db.selectFrom('billing_entities').where('billing_entities.id', 'in', ids.length ? ids : ['00000000-0000-0000-0000-000000000000'])
}

/** A billing entity by id. */
export function billingEntityById(db: Db, id: string) {
  return db.selectFrom('billing_entities').where('billing_entities.id', '=', id)
}

/**
 * The charges of an account (null: every account) settled since `from`, per month (YYYY-MM, UTC)
 * and currency: how many and their amount (minor units).
 */
export async function settledByMonth(db: Db, accountId: string | null, from: Date): Promise<{ month: string; currency: string; count: number; minor: number }[]> {
  const month = sql<string>`to_char(settled_at AT TIME ZONE 'UTC', 'YYYY-MM')`
  let query = db
    .selectFrom('transactions')
    .select([month.as('month'), 'currency', sql<string>`count(*)`.as('n'), sql<string>`sum(amount_minor)`.as('minor')])
    .where('state', '=', 'settled')
    .where('settled_at', '>=', from)
    .groupBy([month, 'currency'])
  if (accountId !== null) query = query.where('account_id', '=', accountId)
  return (await query.execute()).map((r) => ({ month: r.month, currency: r.currency.trim(), count: Number(r.n), minor: Number(r.minor) }))
}
