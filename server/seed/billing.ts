import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { createBillingEntity, recordPayment, setAccountEntity } from '#server/platform/billing/service.ts'
import { runInvoices, setTaxRate, startInvoiceRun } from '#server/platform/billing/invoices.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { renewDomain, type LifecycleDeps } from '#server/platform/domains/lifecycle.ts'

/**
 * Demo billing (issue 18), through the services the API uses: Acme Corp is paid for by a US
 * entity on credit, Globex by a Spanish one that prepays (with its VAT id, invoices in Spanish);
 * a payment and an adjustment each. Their charges come from real renewals (`seedDemoRenewals`,
 * once the registry holds the demo's domains).
 */
export async function seedBilling(db: Kysely<DB>, accounts: { acme: string; globex: string }) {
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
}

/**
 * The demo's charges, made by real renewals: per client account, a few .com domains the registry
 * holds are renewed a year through the renewal service the portal and the API use (charged at the
 * account's price list, the registry renews them, the charge settles with the new expiry), and one
 * is asked for ten years, which the registry refuses (past its ten-year maximum), so its charge is
 * released. They are made at last month's clock, so they settle in last month. Never the quiet demo domains (the browser tests rely on them being left alone), nor a
 * brand or registry-locked name; the farthest expiries first, so no name moves into or out of the
 * 30/60/90-day windows the dashboard counts. Without a registry for .com, nothing is renewed.
 */
export async function seedDemoRenewals(deps: LifecycleDeps, quiet: readonly string[]) {
  // Made on the 15th of last month (issue 28): the renewal service settles a charge at its clock,
  // so they are last month's charges, which the demo's run of that month invoices (seedDemoInvoices).
  const today = deps.now()
  deps = { ...deps, now: () => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 15, 12)) }
  let renewed = 0
  let refused = 0
  if (!deps.registries?.forTld('com')) return { renewed, refused }
  for (const name of ['Acme Corp', 'Globex']) {
    const domains = await deps.db
      .selectFrom('domains')
      .innerJoin('accounts', 'accounts.id', 'domains.account_id')
      .select(['domains.id', 'domains.account_id'])
      .where('accounts.name', '=', name)
      .where('domains.tld', '=', 'com')
      .where('domains.status', '=', 'active')
      .where('domains.registry', 'is not', null)
      .where('domains.registry_lock', '=', false)
      .where('domains.name', 'not in', [...quiet])
      .where(sql<boolean>`NOT ('brand' = ANY(domains.tags))`)
      .orderBy('domains.expires_at', 'desc')
      .orderBy('domains.name')
      .limit(4)
      .execute()
    for (const [index, domain] of domains.entries()) {
      const scope = systemScope('demo-seed', domain.account_id)
      const refusedOne = domains.length > 1 && index === Math.min(3, domains.length - 1)
      try {
        await renewDomain(deps, scope, domain.id, refusedOne ? 10 : 1)
        renewed++
      } catch (error) {
        if (!refusedOne) throw error
        refused++
      }
    }
  }
  deps.logger.info('demo renewals made at the registry', { renewed, refused })
  return { renewed, refused }
}

/**
 * Last month's invoice run (issue 28), once the demo's charges exist: started as staff start it
 * (`startInvoiceRun`: the run recorded, its job queued), and made here by the job's own function
 * (`runInvoices`), so each client has issued invoices from the first sign-in whether or not this
 * process works jobs (the e2e template is seeded by a server that does not). The queued job, when
 * a worker takes it, finds the month's documents made and adds nothing.
 */
export async function seedDemoInvoices(deps: Pick<PlatformDeps, 'db' | 'jobs' | 'logger' | 'now'> & { config?: object }) {
  const today = deps.now()
  const period = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1)).toISOString().slice(0, 7)
  await startInvoiceRun(deps, systemScope('demo-seed'), period)
  const made = await runInvoices(deps, `${period}-01`)
  deps.logger.info('demo invoices issued', { period, made })
  return made
}
