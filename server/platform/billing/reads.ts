import type { Kysely } from 'kysely'
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

/** A billing entity by id. */
export function billingEntityById(db: Db, id: string) {
  return db.selectFrom('billing_entities').where('billing_entities.id', '=', id)
}
