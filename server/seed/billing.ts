import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { createBillingEntity, recordPayment, setAccountEntity } from '#server/platform/billing/service.ts'
import { setTaxRate } from '#server/platform/billing/invoices.ts'
import { releaseCharge, reserveCharges, settleCharge } from '#server/platform/billing/transactions.ts'
import { change } from '#server/platform/core/change.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { accountPricing } from '#server/platform/orders/pricing.ts'

/**
 * Demo billing (issue 18), through the services the API uses: Acme Corp is paid for by a US
 * entity on credit, Globex by a Spanish one that prepays (with its VAT id, invoices in Spanish);
 * a payment and an adjustment each, and a few renewal charges of their domains (not the quiet ones)
 * at the quotes of their price lists (settled, one released), so the transaction screens have rows.
 * These charges stand for renewals the demo's registry never made (issue 18 leaves it to a later
 * pass to make them real renewals, which need the registries the seed runs without).
 */
export async function seedBilling(db: Kysely<DB>, accounts: { acme: string; globex: string }, quiet: readonly string[]) {
  const scope = systemScope('demo-seed')
  // The tax table staff keep (standard rates; the US has none at the federal level).
  for (const [country, rate, name] of [
    ['NL', 21, 'BTW'],
    ['DE', 19, 'MwSt'],
    ['ES', 21, 'IVA'],
    ['FR', 20, 'TVA'],
    ['GB', 20, 'VAT'],
    ['JP', 10, '消費税'],
    ['US', 0, 'Sales tax'],
  ] as const)
    await setTaxRate(db, scope, country, rate, name)
  const acme = await createBillingEntity(db, scope, {
    name: 'Acme Corp Billing',
    address: { street1: '100 Market Street', city: 'San Francisco', state: 'CA', postcode: '94105' },
    country: 'US',
    vat_id: null,
    currency: 'USD',
    payment_terms_days: 30,
    invoice_language: 'en',
    billing_email: 'billing@acme.example',
    credit_limit: '5000.00',
  })
  await setAccountEntity(db, scope, acme.id, accounts.acme, true)
  await recordPayment(db, scope, acme.id, { kind: 'payment', currency: 'USD', amount: '1,000.00', reference: 'Wire 2026-0415' })
  const globex = await createBillingEntity(db, scope, {
    name: 'Globex Ibérica S.L.',
    address: { street1: 'Calle de Alcalá 42', city: 'Madrid', postcode: '28014' },
    country: 'ES',
    vat_id: 'ESB12345678',
    currency: 'EUR',
    payment_terms_days: 14,
    invoice_language: 'es',
    billing_email: 'facturas@globex.example',
  })
  await setAccountEntity(db, scope, globex.id, accounts.globex, true)
  await recordPayment(db, scope, globex.id, { kind: 'payment', currency: 'EUR', amount: '2000', reference: 'SEPA 7731' })
  await recordPayment(db, scope, globex.id, { kind: 'adjustment', currency: 'EUR', amount: '25.00', reason: 'Goodwill credit for the March outage' })

  for (const accountId of [accounts.acme, accounts.globex]) {
    // Never the quiet demo domains, which the browser tests rely on being left alone.
    const domains = await db
      .selectFrom('domains')
      .select(['id', 'name', 'unicode_name', 'tld'])
      .where('account_id', '=', accountId)
      .where('tld', '=', 'com')
      .where('name', 'not in', [...quiet])
      .orderBy('name')
      .limit(4)
      .execute()
    const pricing = await accountPricing(db, accountId)
    const account = { ...scope, accountId }
    for (const [index, domain] of domains.entries()) {
      const price = await pricing.price({ name: domain.tld, list_price_minor: null, currency: pricing.currency }, 1, 'name', 'renew')
      const key = `demo-renewal:${domain.id}`
      await change(db, account, async (tx) => {
        await reserveCharges(tx, account, accountId, [
          {
            key,
            kind: 'domain',
            action: 'renew',
            object_name: domain.unicode_name,
            period: 1,
            amount_minor: price.price_minor,
            currency: price.currency,
            quote: JSON.parse(price.quote),
            domain_id: domain.id,
          },
        ])
        if (index === 3) await releaseCharge(tx, account, key, 'The registry refused the renewal (2304 object status prohibits operation)')
        else await settleCharge(tx, account, key, domain.id)
      })
    }
  }
}
