import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { accountQuoter } from '#server/platform/pricing/service.ts'

/**
 * Prices in the account's currency (issue 16): a TLD has a list price in its own currency; the
 * account is billed in its own (accounts.currency). A price in another currency is converted at
 * the rate staff keep in currency_rates (migration 0696), rounded half up to the minor unit of
 * the account's currency — and refused when there is no rate, never shown in the TLD's currency.
 */

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

/** The exchange rates staff keep are the pricing area's (decision 024): its routes here call them there. */
export { listRates, setRate, type CurrencyRate } from '#server/platform/pricing/rates.ts'
