import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { ProductKind } from '#common/pricing.ts'

/**
 * What other areas may read of the pricing area's tables — its product catalogue among them
 * (decision 024). Each read takes the caller's executor (the database or a `change()`'s
 * transaction); the builders let the caller pick columns.
 */
type Db = Kysely<DB>

/** A product by id, active or not (what a block or a certificate was bought as). */
export function productById(db: Db, id: string) {
  return db.selectFrom('products').where('products.id', '=', id)
}

/** A product by code, active or not (what a charge was made for). */
export function productByCode(db: Db, code: string) {
  return db.selectFrom('products').where('products.code', '=', code)
}

/**
 * The SQL of a list column naming the product of a code (trusted SQL, never input: `code` is the
 * list resource's own column), for lists of other areas that keep a product's code (transactions).
 */
export const productNameOfCode = (code: string) => `(SELECT p.name FROM products p WHERE p.code = ${code})`

/** The active products of these codes (one query for a list of codes). */
export function activeProductsCoded(db: Db, codes: string[]) {
  return db.selectFrom('products').where('products.is_active', '=', true).where('products.code', 'in', codes)
}

/** The active products of a kind and action on sale (the order forms' offers). */
export function activeProductsOf(db: Db, kind: ProductKind, action: string) {
  return db.selectFrom('products').where('products.is_active', '=', true).where('products.kind', '=', kind).where('products.action', '=', action)
}
