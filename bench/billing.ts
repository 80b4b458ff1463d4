/**
 * Billing benchmark (issue 18): 1,000 billing entities each paying for one account, 1,000,000
 * transactions settled last month, then timed:
 *   - the transaction list as staff (every account): page 1 and page 400 (target: page 400 no
 *     slower than 2× page 1), and one account's list page 1 and its last page,
 *   - one 500-line invoice PDF (target ≤ 300 ms),
 *   - the monthly run over every entity (target ≤ 60 s on PostgreSQL).
 *
 *   node bench/billing.ts                                          # embedded PGlite (use --entities 100)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/billing.ts [--entities 1000 --per 1000 --runs 10]
 *
 * On PostgreSQL a database of its own (rp_bench_…) is created and dropped at the end.
 */
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import pg from 'pg'
import { readListQuery } from '#common/list-query.ts'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'
import { invoicePdf } from '#server/platform/billing/documents.ts'
import { invoiceEntity } from '#server/platform/billing/invoices.ts'
import { scopedTransactionsResource, transactionsResource } from '#server/platform/billing/transactions.ts'
import { runList } from '#server/platform/list/engine.ts'

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '10' }, entities: { type: 'string', default: '1000' }, per: { type: 'string', default: '1000' } } })
const RUNS = Number(args.runs)
const ENTITIES = Number(args.entities)
const PER = Number(args.per)

async function openBenchDatabase(): Promise<{ database: Database; label: string; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL
  if (!url) {
    const database = await openDatabase({ kind: 'pglite' })
    return { database, label: 'PGlite (in memory)', drop: () => database.close() }
  }
  const name = `rp_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  const database = await openDatabase({ kind: 'postgres', url: target.toString(), max: 4 })
  return {
    database,
    label: `PostgreSQL ${target.host}/${name}`,
    async drop() {
      await database.close()
      const dropper = new pg.Client({ connectionString: url })
      await dropper.connect()
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

async function time(label: string, run: () => Promise<unknown>): Promise<number> {
  await run() // warm-up: plans, caches
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now()
    await run()
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  const p50 = quantile(samples, 0.5)
  console.log(`${label.padEnd(58)} p50 ${p50.toFixed(1).padStart(8)} ms  p95 ${quantile(samples, 0.95).toFixed(1).padStart(8)} ms`)
  return p50
}

const page = (search: string) => readListQuery(new URLSearchParams(search), { sort: '-created_at' }).query

async function main() {
  const { database, label, drop } = await openBenchDatabase()
  const db = database.db
  try {
    await migrate(database)
    const now = new Date()
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
    const loadStart = performance.now()
    await sql`INSERT INTO billing_entities (name, country, currency, billing_email, vat_id)
      SELECT 'Entity ' || i, (ARRAY['NL','DE','ES','US','JP'])[1 + i % 5], 'EUR', 'billing' || i || '@example.com', CASE WHEN i % 5 = 1 THEN 'DE123456789' END
      FROM generate_series(1, ${ENTITIES}) i`.execute(db)
    await sql`INSERT INTO accounts (name, currency, billing_entity_id) SELECT 'Account ' || be.name, 'EUR', be.id FROM billing_entities be`.execute(db)
    await sql`INSERT INTO billing_balances (billing_entity_id, currency, credit_limit_minor) SELECT id, 'EUR', 100000000 FROM billing_entities`.execute(db)
    await sql`INSERT INTO tax_rates (country, rate_percent) VALUES ('NL', 21), ('DE', 19), ('ES', 21), ('JP', 10)`.execute(db)
    await sql`INSERT INTO transactions (idempotency_key, account_id, billing_entity_id, state, kind, action, product_code, object_name, period, unit_minor, amount_minor, currency, actor_label, settled_at, created_at)
      SELECT 'bench:' || g, a.id, a.billing_entity_id, 'settled', 'domain', (ARRAY['register','renew','transfer'])[1 + g % 3], 'domain:com:renew', 'name-' || g || '.com', 1, 1000 + g % 3000, 1000 + g % 3000, 'EUR', 'bench',
        ${month}::timestamptz + ((g % 2419200) || ' seconds')::interval, ${month}::timestamptz + ((g % 2419200) || ' seconds')::interval
      FROM generate_series(1, ${ENTITIES * PER}) g JOIN (SELECT id, billing_entity_id, row_number() OVER (ORDER BY id) - 1 AS n FROM accounts) a ON a.n = g % ${ENTITIES}`.execute(db)
    await sql`ANALYZE`.execute(db)
    console.log(`${label}: ${ENTITIES} billing entities, ${ENTITIES * PER} transactions loaded in ${((performance.now() - loadStart) / 1000).toFixed(1)} s; ${RUNS} runs each`)

    const first = await time('transactions, every account: page 1 (25 rows)', () => runList(db, transactionsResource, page('page=1&limit=25'), { accountId: null }))
    const deep = await time('transactions, every account: page 400', () => runList(db, transactionsResource, page('page=400&limit=25'), { accountId: null }))
    console.log(`  page 400 / page 1: ${(deep / first).toFixed(2)}× (target ≤ 2×: ${deep <= 2 * first ? 'met' : 'MISSED'})`)
    await time('transactions, filtered by state and product', () =>
      runList(db, transactionsResource, page(`page=1&limit=25&pql=${encodeURIComponent("state equals 'settled' and product_code starts_with 'domain:com'")}`), { accountId: null }),
    )
    const account = (await db.selectFrom('accounts').select('id').where('billing_entity_id', 'is not', null).limit(1).executeTakeFirstOrThrow()).id
    await time("one account's transactions: page 1", () => runList(db, scopedTransactionsResource, page('page=1&limit=25'), { accountId: account }))
    await time("one account's transactions: last page", () => runList(db, scopedTransactionsResource, page(`page=${Math.ceil(PER / 25)}&limit=25`), { accountId: account }))

    const entities = (await db.selectFrom('billing_entities').select('id').orderBy('id').execute()).map((e) => e.id)
    const runStart = performance.now()
    let documents = 0
    for (const id of entities) documents += (await invoiceEntity(db, id, month, now)).length
    const runSeconds = (performance.now() - runStart) / 1000
    console.log(`monthly run: ${documents} invoices, ${ENTITIES * PER} lines in ${runSeconds.toFixed(1)} s (target ≤ 60 s: ${runSeconds <= 60 ? 'met' : 'MISSED'})`)
    const again = performance.now()
    for (const id of entities) documents += (await invoiceEntity(db, id, month, now)).length
    console.log(`  the run again (nothing to add): ${((performance.now() - again) / 1000).toFixed(1)} s`)

    const invoice = await db.selectFrom('invoices').selectAll().limit(1).executeTakeFirstOrThrow()
    const lines = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', invoice.id).orderBy('position').limit(500).execute()
    await time(`one ${lines.length}-line invoice PDF (target ≤ 300 ms)`, () => invoicePdf(invoice, lines))
  } finally {
    await drop()
  }
}

await main()
