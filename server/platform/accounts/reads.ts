import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the accounts table (decision 024). The table carries columns other
 * areas added and keep (pricing's `pricing_entity_id`, billing's `billing_entity_id`): they read
 * them here and change them through accounts/writes.ts. Each read takes the caller's executor (the
 * database or a `change()`'s transaction); the builders let the caller pick columns (or lock the
 * row with `forUpdate()`).
 */
type Db = Pick<Kysely<DB>, 'selectFrom'>

/** An account by id. */
export function accountById(db: Db, id: string) {
  return db.selectFrom('accounts').where('accounts.id', '=', id)
}

/** These accounts (by id). */
export function accountsByIds(db: Db, ids: string[]) {
  return db.selectFrom('accounts').where('accounts.id', 'in', ids.length ? ids : ['00000000-0000-0000-0000-000000000000'])
}

/** The SQL of the billing entity paying for the account whose id is `accountColumn` (a list column; trusted SQL, never input). */
export const billingEntityOfAccount = (accountColumn: string) => `(SELECT ba.billing_entity_id FROM accounts ba WHERE ba.id = ${accountColumn})`

/** The accounts a billing entity pays for. */
export function accountsPaidBy(db: Db, billingEntityId: string) {
  return db.selectFrom('accounts').where('accounts.billing_entity_id', '=', billingEntityId)
}

/** The accounts priced by a price list (the default one also prices the accounts that name none). */
export function accountsPricedBy(db: Db, entity: { id: string; is_default: boolean }) {
  return db
    .selectFrom('accounts')
    .where((eb) => (entity.is_default ? eb.or([eb('accounts.pricing_entity_id', '=', entity.id), eb('accounts.pricing_entity_id', 'is', null)]) : eb('accounts.pricing_entity_id', '=', entity.id)))
}

/**
 * The SQL a list resource of another area joins an account by (in its `from`): `JOIN accounts
 * <alias> ON <alias>.<by> = <on>`, by the account's id or by the billing entity paying for it; `left`
 * for a LEFT JOIN. Aliases and `on` are the resource's own trusted names, never input.
 */
export const joinAccounts = (alias: string, on: string, options: { by?: 'id' | 'billing_entity_id'; left?: boolean } = {}) =>
  `${options.left ? 'LEFT JOIN' : 'JOIN'} accounts ${alias} ON ${alias}.${options.by ?? 'id'} = ${on}`

/** The SQL of a list column counting the accounts that meet a condition on `<alias>` (trusted SQL, never input). */
export const countAccounts = (alias: string, condition: string) => `(SELECT count(*)::int FROM accounts ${alias} WHERE ${condition})`
