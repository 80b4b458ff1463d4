/**
 * Pricing benchmark (issue 17): a price list in 3 currencies over 1,500 offered TLDs × 6 actions
 * (9,000 products, 27,000 prices) with 50 rules of each of the four levels, then timed:
 *   - every product of the list priced (target ≤ 200 ms on PostgreSQL),
 *   - a quote of a 1,000-item cart (target ≤ 100 ms),
 *   - the first page of the applicable-rules screen's API call (target ≤ 100 ms).
 *
 *   node bench/pricing.ts                                  # embedded PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/pricing.ts [--runs 20]
 *
 * On PostgreSQL a database of its own (rp_bench_…) is created and dropped at the end.
 */
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { setRate } from '#server/platform/pricing/rates.ts'
import { accountQuoter, applicableRules, assignPricingEntity, createPricingEntity, priceEntity } from '#server/platform/pricing/service.ts'
import { loadCosts, loadRates, loadRuleBook } from '#server/platform/pricing/store.ts'
import { importIanaTlds } from '#server/platform/tlds/service.ts'
import { openBenchDatabase, time } from './support.ts'

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '20' }, tlds: { type: 'string', default: '1500' } } })
const RUNS = Number(args.runs)
const TLDS = Number(args.tlds)

async function main() {
  const { database, label, drop } = await openBenchDatabase()
  const db = database.db
  try {
    const scope = systemScope('bench')
    const now = new Date()
    await importIanaTlds(db, scope)
    // 1,500 offered TLDs: the trigger of migration 0700 makes their 9,000 domain products.
    const names = (await db.selectFrom('tlds').select('name').orderBy('name').limit(TLDS).execute()).map((r) => r.name)
    await db
      .updateTable('tlds')
      .set({ is_offered: true, list_price_minor: 1000, currency: 'EUR', periods: [1, 2, 3, 5, 10] })
      .where('name', 'in', names)
      .execute()
    await sql`INSERT INTO product_costs (product_id, currency, amount_minor, effective_from)
      SELECT id, 'EUR', 500 + (abs(hashtext(code)) % 3000), '2025-01-01' FROM products`.execute(db)
    // A cost rise announced for next year on a third of them.
    await sql`INSERT INTO product_costs (product_id, currency, amount_minor, effective_from)
      SELECT id, 'EUR', 900 + (abs(hashtext(code)) % 3000), ${new Date(Date.UTC(now.getUTCFullYear() + 1, 0, 1))} FROM products WHERE abs(hashtext(code)) % 3 = 0`.execute(db)
    for (const [from, to, rate] of [
      ['EUR', 'USD', 1.08],
      ['EUR', 'JPY', 162],
    ] as const)
      await setRate(db, scope, from, to, rate)
    const entity = await createPricingEntity(db, scope, { name: 'Bench', currencies: ['EUR', 'USD', 'JPY'], is_default: true })
    const account = await createAccount(db, scope, { name: 'Bench buyer', currency: 'USD' })
    await assignPricingEntity(db, scope, account.id, entity.id)

    // 50 rules of each level, of every kind, written straight in (the service previews each; the
    // bench times pricing, not the preview).
    const products = await db.selectFrom('products').select(['id', 'tld', 'action']).orderBy('code').execute()
    const kinds = ['margin', 'markup', 'fixed', 'minimum-margin', 'rounding', 'promotion', 'volume'] as const
    const params = (kind: (typeof kinds)[number], i: number) =>
      kind === 'margin'
        ? { percent: 20 + (i % 30) }
        : kind === 'minimum-margin'
          ? { percent: 5 }
          : kind === 'rounding'
            ? { mode: i % 2 ? 'ends-99' : 'whole' }
            : kind === 'volume'
              ? {
                  tiers: [
                    { min_quantity: 10, percent_off: 5 },
                    { min_quantity: 100, percent_off: 10 },
                  ],
                }
              : { amount_minor: 999 + i * 10, ...(kind === 'promotion' ? { first_year_only: i % 2 === 0 } : {}) }
    const rows = []
    for (const level of ['global-product', 'global-custom', 'entity-product', 'entity-custom'] as const) {
      for (let i = 0; i < 50; i++) {
        const kind = level.endsWith('custom') && i < 4 ? 'margin' : kinds[i % kinds.length]!
        const custom = level.endsWith('custom')
        rows.push({
          rule_name: `${level}-${i}`,
          pricing_entity_id: level.startsWith('entity') ? entity.id : null,
          product_id: custom ? null : products[(i * 97 + (level.startsWith('entity') ? 13 : 0)) % products.length]!.id,
          // Custom rules select a group of 30 TLDs, or all domain products of some actions.
          selector: custom
            ? JSON.stringify(
                i < 4
                  ? { kinds: ['domain'] }
                  : i % 2
                    ? { tlds: names.slice((i * 30) % names.length, ((i * 30) % names.length) + 30) }
                    : { actions: ['register', 'renew'], tlds: names.slice(i * 7, i * 7 + 200) },
              )
            : null,
          kind,
          params: JSON.stringify(params(kind, i)),
          currency: ['markup', 'fixed', 'promotion'].includes(kind) ? 'EUR' : null,
          starts_at: kind === 'promotion' ? new Date(now.getTime() - 86_400_000) : null,
          ends_at: kind === 'promotion' ? new Date(now.getTime() + 30 * 86_400_000) : null,
        })
      }
    }
    await db.insertInto('pricing_rules').values(rows).execute()
    const counts = await sql<{ products: number; rules: number }>`SELECT (SELECT count(*)::int FROM products) AS products, (SELECT count(*)::int FROM pricing_rules) AS rules`.execute(db)
    console.log(`${label}: ${counts.rows[0]!.products} products × 3 currencies, ${counts.rows[0]!.rules} rules, ${RUNS} runs each`)

    const result = await priceEntity(db, entity.id, now)
    console.log(`  priced ${result.priced}, unpriced ${result.unpriced}`)
    await time('price every product of the list (27,000 prices)', RUNS, () => priceEntity(db, entity.id, now), 200)
    // Where the time goes: the reads alone (products, costs in force, rules, rates).
    await time(
      '  of which: reading products, costs, rules and rates',
      RUNS,
      () =>
        Promise.all([
          db.selectFrom('products').select(['id', 'code', 'kind', 'action', 'tld', 'tags']).where('is_active', '=', true).execute(),
          loadCosts(db, undefined, now),
          loadRuleBook(db, entity.id),
          loadRates(db),
        ]),
      200,
    )

    const cart = Array.from({ length: 1000 }, (_, i) => ({ tld: names[(i * 7) % names.length]!, action: i % 3 === 0 ? 'transfer' : 'register', period: 1 + (i % 3), field: `items.${i}.name` }))
    await time('quote a 1,000-item cart (account list, USD)', RUNS, async () => (await accountQuoter(db, account.id, now)).quote(cart), 100)

    const staff = { ...scope }
    await time('applicable rules, first page (25 products × 3 currencies)', RUNS, () => applicableRules(db, staff, entity.id, { page: 1, limit: 25 }, now), 100)
    await time('applicable rules, a search (q=domain:co)', RUNS, () => applicableRules(db, staff, entity.id, { page: 1, limit: 25, q: 'domain:co' }, now), 100)
  } finally {
    await drop()
  }
}

await main()
