import type { Kysely } from 'kysely'
import type { Quote } from '#common/pricing.ts'
import { SSL_PERIODS, SSL_PRODUCT_IDS } from '#common/ssl.ts'
import type { DB } from '#server/db/schema.ts'
import type { SslCertificate } from '#server/db/schema-ssl.ts'
import { chargeKey, releaseCharge, reserveCharges, settleCharge } from '#server/platform/billing/transactions.ts'
import type { Tx } from '#server/platform/core/change.ts'
import { AppError, fieldError, refused } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { accountQuoter } from '#server/platform/pricing/service.ts'
import { accountById } from '#server/platform/accounts/reads.ts'
import { activeProductsCoded } from '#server/platform/pricing/reads.ts'
import { chargesKeyed } from '#server/platform/billing/reads.ts'

/**
 * SSL charges (issue 19, decision 301): an order, and a renewal of its coverage term, are charged
 * like a domain order — priced now by the pricing engine (the product `ssl:{product}:order`, or
 * `ssl:{product}:renew` where the registrar sells one), reserved in the transaction that stores
 * the certificate and queues its issuance (so a charge past the balance or credit limit is refused
 * before anything reaches the CA), settled in the transaction that stores the issued certificate,
 * released when the CA refuses or the order is cancelled. A reissue and the short-lived renewals
 * inside a paid term are free.
 */

export type SslPrice = { quote: Quote; code: string } | null

/** The product code of an SSL product in the price list. */
export const sslProductCode = (product: string, action: 'order' | 'renew') => `ssl:${product}:${action}`

/**
 * The quote of an SSL product for a period, in the account's currency. An account no billing
 * entity pays for and no price list prices is not charged (null), as a domain renewal; otherwise
 * an unpriced product is refused beside the product field.
 */
export async function quoteSsl(db: Kysely<DB>, accountId: string, product: string, periodMonths: number, action: 'order' | 'renew', now: Date): Promise<SslPrice> {
  let code = sslProductCode(product, 'order')
  if (action === 'renew') {
    const renew = await activeProductsCoded(db, [sslProductCode(product, 'renew')])
      .select('code')
      .executeTakeFirst()
    if (renew) code = renew.code
  }
  const account = await accountById(db, accountId).select('billing_entity_id').executeTakeFirstOrThrow()
  try {
    const quoter = await accountQuoter(db, accountId, now)
    const [quote] = await quoter.quote([{ tld: '', action, period: periodMonths / 12, field: 'product', code }])
    return { quote: quote!, code }
  } catch (error) {
    if (!account.billing_entity_id) return null
    if (error instanceof AppError && error.status === 409) throw refused('ssl.no-price', error.message, [fieldError('product', 'ssl.no-price', error.message)], error.extra)
    throw error
  }
}

/**
 * Reserves the charge of a certificate inside the transaction that stores it (refused past the
 * limit). `action` names what is bought (ssl-renew:{term}:{end}); the key returned adds the product,
 * period and price (`chargeKey`), so a renewal for another period is never the charge of a refused one.
 */
export async function reserveSslCharge(tx: Tx, scope: Scope, cert: Pick<SslCertificate, 'account_id' | 'common_name'>, price: SslPrice, of: string, action: 'order' | 'renew') {
  if (!price) return null
  const key = chargeKey(of, { product_code: price.code, period: price.quote.period, amount_minor: price.quote.total_minor, currency: price.quote.currency })
  await reserveCharges(tx, scope, cert.account_id, [
    {
      key,
      kind: 'ssl',
      action,
      object_name: cert.common_name,
      period: price.quote.period,
      amount_minor: price.quote.total_minor,
      currency: price.quote.currency,
      quote: price.quote,
      product_code: price.code,
    },
  ])
  return key
}

/** The CA issued: the certificate's charge is settled (in the transaction that stores it). */
export async function settleSslCharge(tx: Tx, scope: Scope, cert: Pick<SslCertificate, 'charge_key'>) {
  if (cert.charge_key) await settleCharge(tx, scope, cert.charge_key)
}

/** The CA refused or the order was cancelled: its reserved charge is released, the money given back. */
export async function releaseSslCharge(tx: Tx, scope: Scope, cert: Pick<SslCertificate, 'charge_key'>, reason: string) {
  if (cert.charge_key) await releaseCharge(tx, scope, cert.charge_key, reason)
}

export type SslPriceRow = { product: string; action: 'order' | 'renew'; period_months: number; amount_minor: number; currency: string }

/** The account's prices of every SSL product and period (the order form and the renewal show them); an unpriced one is left out. */
export async function sslPrices(db: Kysely<DB>, accountId: string, now: Date): Promise<SslPriceRow[]> {
  // The active SSL products, order and renew, in one query.
  const active = new Set(
    (
      await activeProductsCoded(
        db,
        SSL_PRODUCT_IDS.flatMap((p) => [sslProductCode(p, 'order'), sslProductCode(p, 'renew')]),
      )
        .select('code')
        .execute()
    ).map((r) => r.code),
  )
  const renewCodes = new Set(SSL_PRODUCT_IDS.map((p) => sslProductCode(p, 'renew')).filter((code) => active.has(code)))
  const offered = new Set(SSL_PRODUCT_IDS.map((p) => sslProductCode(p, 'order')).filter((code) => active.has(code)))
  const quoter = await accountQuoter(db, accountId, now).catch(() => null)
  if (!quoter) return []
  const rows: SslPriceRow[] = []
  // One quote per product and period (each alone: items of one product quoted together would count as a volume);
  // the renewal is the order's price unless a renewal product is sold.
  for (const product of SSL_PRODUCT_IDS)
    for (const period_months of SSL_PERIODS)
      for (const action of ['order', 'renew'] as const) {
        const code = action === 'renew' && renewCodes.has(sslProductCode(product, 'renew')) ? sslProductCode(product, 'renew') : sslProductCode(product, 'order')
        if (!offered.has(code) && !renewCodes.has(code)) continue
        const same = action === 'renew' && code === sslProductCode(product, 'order') ? rows.find((r) => r.product === product && r.period_months === period_months && r.action === 'order') : undefined
        if (same) {
          rows.push({ ...same, action })
          continue
        }
        const quote = await quoter
          .quote([{ tld: '', action, period: period_months / 12, code }])
          .then(([q]) => q!)
          .catch(() => null)
        if (quote) rows.push({ product, action, period_months, amount_minor: quote.total_minor, currency: quote.currency })
      }
  return rows
}

export type SslCharge = { transaction_id: string; state: string; amount_minor: number; currency: string; action: string }

/** The charge of one certificate, as the API shows it (null: free or not charged). */
export async function chargeOf(db: Kysely<DB> | Tx, cert: Pick<SslCertificate, 'charge_key'>): Promise<SslCharge | null> {
  if (!cert.charge_key) return null
  const row = await chargesKeyed(db, [cert.charge_key]).select(['id', 'state', 'amount_minor', 'currency', 'action']).executeTakeFirst()
  return row ? { transaction_id: row.id, state: row.state, amount_minor: Number(row.amount_minor), currency: row.currency.trim(), action: row.action } : null
}

/** Every transaction of a coverage term (its order and the renewals of the term), for /ssls/{id}/transactions. */
export async function termTransactionIds(db: Kysely<DB>, termId: string): Promise<string[]> {
  const keys = (await db.selectFrom('ssl_certificates').select('charge_key').where('term_id', '=', termId).where('charge_key', 'is not', null).$narrowType<{ charge_key: string }>().execute()).map(
    (c) => c.charge_key,
  )
  if (keys.length === 0) return []
  return (await chargesKeyed(db, keys).select('id').execute()).map((r) => r.id)
}
