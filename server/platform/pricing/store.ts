import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { PricingRuleRow, Product } from '#server/db/schema-pricing.ts'
import { levelOf, ruleBook, type EngineCost, type EngineProduct, type EngineRule, type RateLookup, type RuleBook } from './engine.ts'
import { accountById } from '#server/platform/accounts/reads.ts'

/**
 * What the engine prices with, read from the database in a few statements: the rules (all of
 * them, or the global ones and one price list's), the rates and the costs of many products.
 */

export const engineRule = (row: PricingRuleRow): EngineRule => ({
  id: row.id,
  rule_name: row.rule_name,
  level: levelOf(row),
  product_id: row.product_id,
  selector: row.selector,
  kind: row.kind,
  params: row.params,
  currency: row.currency?.trim() ?? null,
  starts_at: row.starts_at ? row.starts_at.getTime() : null,
  ends_at: row.ends_at ? row.ends_at.getTime() : null,
})

export const engineProduct = (row: Pick<Product, 'id' | 'code' | 'kind' | 'action' | 'tld' | 'tags'>): EngineProduct => ({
  id: row.id,
  code: row.code,
  kind: row.kind,
  action: row.action,
  tld: row.tld,
  tags: row.tags,
})

/** The rules that price one price list: the global ones and the list's own. */
export async function loadRuleBook(db: Kysely<DB>, pricingEntityId: string): Promise<RuleBook> {
  const rows = await db
    .selectFrom('pricing_rules')
    .selectAll()
    .where((eb) => eb.or([eb('pricing_entity_id', 'is', null), eb('pricing_entity_id', '=', pricingEntityId)]))
    .execute()
  return ruleBook(rows.map(engineRule))
}

/** Every rate staff keep, as a lookup (one statement). */
export async function loadRates(db: Kysely<DB>): Promise<RateLookup> {
  const rows = await db
    .selectFrom('currency_rates')
    .select(['from_currency', 'to_currency', 'rate', 'updated_at', sql<string | null>`to_char(rate_date, 'YYYY-MM-DD')`.as('rate_date')])
    .execute()
  // A rate's date: the day it is the reference rate of (an ECB file's), else when staff set it.
  const map = new Map(rows.map((r) => [`${r.from_currency.trim()}>${r.to_currency.trim()}`, { rate: Number(r.rate), date: r.rate_date ?? r.updated_at.toISOString() }]))
  return (from, to) => map.get(`${from}>${to}`) ?? null
}

/**
 * The costs of the given products (all products when none are given), by product. With `inForceAt`,
 * only the cost in force then per product and currency (one row each, not the history).
 */
export async function loadCosts(db: Kysely<DB>, productIds?: readonly string[], inForceAt?: Date): Promise<Map<string, EngineCost[]>> {
  const out = new Map<string, EngineCost[]>()
  if (productIds && !productIds.length) return out
  let query = db.selectFrom('product_costs').select(['product_id', 'currency', 'amount_minor', 'effective_from'])
  if (productIds) query = query.where('product_id', 'in', productIds)
  if (inForceAt) query = query.distinctOn(['product_id', 'currency']).where('effective_from', '<=', inForceAt).orderBy('product_id').orderBy('currency').orderBy('effective_from', 'desc')
  for (const row of await query.execute()) {
    const from = row.effective_from
    const cost = { currency: row.currency.trim(), amount_minor: Number(row.amount_minor), effective_from: from instanceof Date ? from.getTime() : new Date(from).getTime() }
    const list = out.get(row.product_id)
    if (list) list.push(cost)
    else out.set(row.product_id, [cost])
  }
  return out
}

/** The price list an account is on: its own, or the default one (null when there is none). */
export async function entityOfAccount(db: Kysely<DB>, accountId: string): Promise<{ id: string; currencies: string[] } | null> {
  const account = await accountById(db, accountId).select(['pricing_entity_id']).executeTakeFirst()
  let query = db.selectFrom('pricing_entities').select(['id', 'currencies'])
  query = account?.pricing_entity_id ? query.where('id', '=', account.pricing_entity_id) : query.where('is_default', '=', true)
  const row = await query.executeTakeFirst()
  return row ? { id: row.id, currencies: row.currencies.map((c) => c.trim()) } : null
}
