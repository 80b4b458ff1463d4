import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { change } from '#server/platform/core/change.ts'
import { badRequest } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { accountQuoter } from '#server/platform/pricing/service.ts'

/**
 * Prices in the account's currency (issue 16): a TLD has a list price in its own currency; the
 * account is billed in its own (accounts.currency). A price in another currency is converted at
 * the rate staff keep in currency_rates (migration 0696), rounded half up to the minor unit of
 * the account's currency — and refused when there is no rate, never shown in the TLD's currency.
 */

/** The currency an account is billed in. */
export async function accountCurrency(db: Kysely<DB>, accountId: string): Promise<string> {
  const row = await db.selectFrom('accounts').select('currency').where('id', '=', accountId).executeTakeFirstOrThrow()
  return row.currency.trim()
}

/** The rate one unit of `from` is worth in `to`, or null when staff keep none. */
export async function rateBetween(db: Kysely<DB>, from: string, to: string): Promise<number | null> {
  if (from === to) return 1
  const row = await db.selectFrom('currency_rates').select('rate').where('from_currency', '=', from).where('to_currency', '=', to).executeTakeFirst()
  return row ? Number(row.rate) : null
}

/**
 * A prices helper for one account (issue 17, decision 300): `price(tld, period, field, action)` is
 * the quote of the pricing engine — the account's price list, in the account's currency, with the
 * chain of rules and the rates that produced it — no longer the TLD's list price. The quote is
 * kept beside the price (cart_items.quote, order_items.quote), so an order keeps what it was
 * placed at. Rules and rates are read once per helper.
 */
export async function accountPricing(db: Kysely<DB>, accountId: string) {
  const quoter = await accountQuoter(db, accountId, new Date())
  return {
    currency: quoter.currency,
    /** One item priced: its total for the period in the account's currency, and its quote (JSON). */
    async price(
      tld: { name: string; list_price_minor: number | string | null; currency: string },
      period: number,
      field = 'name',
      action = 'register',
    ): Promise<{ price_minor: number; currency: string; quote: string }> {
      const [quote] = await quoter.quote([{ tld: tld.name, action, period, field }])
      return { price_minor: quote!.total_minor, currency: quote!.currency, quote: JSON.stringify(quote) }
    },
  }
}

export type CurrencyRate = { from_currency: string; to_currency: string; rate: number; updated_at: string; rate_date: string | null }

const rateJson = (row: { from_currency: string; to_currency: string; rate: string | number; updated_at: Date; rate_date?: unknown }): CurrencyRate => ({
  from_currency: row.from_currency.trim(),
  to_currency: row.to_currency.trim(),
  rate: Number(row.rate),
  updated_at: row.updated_at.toISOString(),
  // The day it is the reference rate of (an ECB file's, issue 17), read as text; null when typed by hand.
  rate_date: typeof row.rate_date === 'string' ? row.rate_date : null,
})

/** Every exchange rate staff keep, by currency pair. */
export async function listRates(db: Kysely<DB>, scope: Scope): Promise<CurrencyRate[]> {
  requirePermission(scope.actor, 'staff')
  const rows = await db
    .selectFrom('currency_rates')
    .select(['from_currency', 'to_currency', 'rate', 'updated_at', sql<string | null>`to_char(rate_date, 'YYYY-MM-DD')`.as('rate_date')])
    .orderBy('from_currency')
    .orderBy('to_currency')
    .execute()
  return rows.map(rateJson)
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))

/** Sets (or replaces) the rate of one unit of `from` in `to` (staff), audited as invoicing. */
export async function setRate(db: Kysely<DB>, scope: Scope, from: string, to: string, rate: number): Promise<CurrencyRate> {
  requirePermission(scope.actor, 'staff')
  const errors = [
    ...(CURRENCIES.has(from) ? [] : [{ field: 'from', message: 'Not an ISO 4217 currency code' }]),
    ...(CURRENCIES.has(to) ? [] : [{ field: 'to', message: 'Not an ISO 4217 currency code' }]),
    ...(from === to ? [{ field: 'to', message: 'A currency needs no rate to itself' }] : []),
    ...(Number.isFinite(rate) && rate > 0 && rate < 1e9 ? [] : [{ field: 'rate', message: 'A rate is a positive number' }]),
  ]
  if (errors.length) throw badRequest('The exchange rate is not valid', errors)
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('currency_rates').selectAll().where('from_currency', '=', from).where('to_currency', '=', to).executeTakeFirst()
    const row = await tx
      .insertInto('currency_rates')
      .values({ from_currency: from, to_currency: to, rate: String(rate), updated_at: new Date() })
      .onConflict((oc) => oc.columns(['from_currency', 'to_currency']).doUpdateSet({ rate: String(rate), rate_date: null, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'invoicing',
      entityType: 'currency-rate',
      entityId: `${from}-${to}`,
      accountId: null,
      action: before ? 'update' : 'create',
      before: before ? { rate: Number(before.rate) } : null,
      after: { from, to, rate },
    })
    return rateJson(row)
  })
}
