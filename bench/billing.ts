/**
 * Billing benchmark (issue 18): 1,000 billing entities each paying for one account, 1,000,000
 * transactions settled last month, then timed:
 *   - the transaction list as staff (every account): page 1 and page 400 (target: page 400 no
 *     slower than 2× page 1), and one account's list page 1 and its last page,
 *   - one 500-line invoice PDF (target ≤ 300 ms),
 *   - the monthly run over every entity (target ≤ 60 s on PostgreSQL), the run again (adds nothing)
 *     and the mail job after it (no SMTP),
 *   - beside the run, before and after it (issue 34): its floor, the same aggregation as one SQL
 *     statement — every charge of the month written as a line (the same description, position
 *     and amount) into a table shaped like invoice_lines, and each entity's count and sum from
 *     those lines — and the run's ratio to it (target ≤ 3×),
 *
 *   node bench/billing.ts                                          # embedded PGlite (use --entities 100)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/billing.ts [--entities 1000 --per 1000 --runs 10]
 *
 * On PostgreSQL a database of its own (rp_bench_…) is created and dropped at the end.
 * `--load-only` generates the data and keeps that database (printing its name); `--template NAME`
 * then times a copy of it (seconds to make) instead of generating the data again.
 */
import { parseArgs } from 'node:util'
import { sql, type Kysely } from 'kysely'
import { readListQuery } from '#common/list-query.ts'
import type { DB } from '#server/db/schema.ts'
import type { Jobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import { invoicePdf } from '#server/platform/billing/documents.ts'
import { mailIssuedInvoices, runInvoices } from '#server/platform/billing/invoices.ts'
import { scopedTransactionsResource, transactionsResource } from '#server/platform/billing/transactions.ts'
import { runList } from '#server/platform/list/engine.ts'
import { loadAverage, openBenchDatabase, time as timeRuns } from './support.ts'

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    entities: { type: 'string', default: '1000' },
    per: { type: 'string', default: '1000' },
    'load-only': { type: 'boolean', default: false },
    template: { type: 'string' },
  },
})
const RUNS = Number(args.runs)
const time = (label: string, run: () => Promise<unknown>) => timeRuns(label, RUNS, run).then((t) => t.p50)

const page = (search: string) => readListQuery(new URLSearchParams(search), { sort: '-created_at' }).query

/** The bench data (through SQL, no audit): entities each paying for one account, `per` charges each settled last month, one in a hundred refunded since. */
async function load(db: Kysely<DB>, entities: number, per: number, month: Date) {
  await sql`INSERT INTO billing_entities (name, country, currency, billing_email, vat_id)
    SELECT 'Entity ' || i, (ARRAY['NL','DE','ES','US','JP'])[1 + i % 5], 'EUR', 'billing' || i || '@example.com', CASE WHEN i % 5 = 1 THEN 'DE123456789' END
    FROM generate_series(1, ${entities}) i`.execute(db)
  await sql`INSERT INTO accounts (name, currency, billing_entity_id) SELECT 'Account ' || be.name, 'EUR', be.id FROM billing_entities be`.execute(db)
  await sql`INSERT INTO billing_balances (billing_entity_id, currency, credit_limit_minor) SELECT id, 'EUR', 100000000 FROM billing_entities`.execute(db)
  await sql`INSERT INTO tax_rates (country, rate_percent) VALUES ('NL', 21), ('DE', 19), ('ES', 21), ('JP', 10)`.execute(db)
  // Consecutive charges belong to different entities: an entity's charges are spread over the table, as over time.
  await sql`INSERT INTO transactions (idempotency_key, account_id, billing_entity_id, state, kind, action, product_code, object_name, period, unit_minor, amount_minor, currency, actor_label, settled_at, created_at, updated_at)
    SELECT 'bench:' || g, a.id, a.billing_entity_id, CASE WHEN g % 100 = 7 THEN 'refunded' ELSE 'settled' END, 'domain', (ARRAY['register','renew','transfer'])[1 + g % 3], 'domain:com:renew', 'name-' || g || '.com', 1, 1000 + g % 3000, 1000 + g % 3000, 'EUR', 'bench',
      ${month}::timestamptz + ((g % 2419200) || ' seconds')::interval, ${month}::timestamptz + ((g % 2419200) || ' seconds')::interval, ${month}::timestamptz + ((g % 2419200) || ' seconds')::interval
    FROM generate_series(1, ${entities * per}) g JOIN (SELECT id, billing_entity_id, row_number() OVER (ORDER BY id) - 1 AS n FROM accounts) a ON a.n = g % ${entities}`.execute(db)
  await sql`VACUUM ANALYZE`.execute(db)
}

/**
 * The floor of the monthly run: what it aggregates, as one SQL statement — every charge of the month
 * (settled, or refunded since) written as a line with the run's description, position and amount
 * into a table shaped like invoice_lines (its primary key too; no trigger), and each entity's line
 * count and sum written from those lines. No numbers, tax, documents, events or audit. The tables
 * are made before and dropped after; the time is the statement's (its transaction's) alone.
 */
async function invoiceFloor(db: Kysely<DB>, month: Date): Promise<{ seconds: number; lines: number; documents: number }> {
  const end = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1))
  await sql`DROP TABLE IF EXISTS bench_floor_lines, bench_floor_sums`.execute(db)
  await sql`CREATE TABLE bench_floor_lines (LIKE invoice_lines INCLUDING DEFAULTS INCLUDING INDEXES)`.execute(db)
  await sql`CREATE TABLE bench_floor_sums (invoice_id uuid PRIMARY KEY, lines integer NOT NULL, total_minor bigint NOT NULL)`.execute(db)
  const words = JSON.stringify({ register: 'Registration', transfer: 'Transfer', renew: 'Renewal' })
  const started = performance.now()
  const documents = await db.transaction().execute(async (tx) => {
    // As the run sets its batches.
    await sql`SET LOCAL work_mem = '64MB'`.execute(tx)
    await sql`SET LOCAL jit = off`.execute(tx)
    const result = await sql`
      WITH ins AS (
        INSERT INTO bench_floor_lines (invoice_id, position, transaction_id, description, quantity, unit_minor, amount_minor)
        SELECT t.billing_entity_id,
          row_number() OVER (PARTITION BY t.billing_entity_id ORDER BY array_position(ARRAY['domain','ssl','block','service'], t.kind), array_position(ARRAY['register','transfer','renew','restore','trade','registry-lock','order','subscribe'], t.action), t.object_name, t.settled_at, t.id),
          t.id,
          coalesce(${words}::jsonb ->> (t.kind || ':' || t.action), ${words}::jsonb ->> t.action, t.action) || ' ' || coalesce(nullif(t.object_name, ''), t.product_code)
            || ' (' || t.period || ' ' || CASE WHEN t.period = 1 THEN 'year' ELSE 'years' END || ')',
          1, t.amount_minor, t.amount_minor
        FROM transactions t
        WHERE t.state IN ('settled', 'refunded') AND t.settled_at >= ${month} AND t.settled_at < ${end}
        RETURNING invoice_id, amount_minor)
      INSERT INTO bench_floor_sums (invoice_id, lines, total_minor) SELECT invoice_id, count(*), sum(amount_minor) FROM ins GROUP BY invoice_id`.execute(tx)
    return Number(result.numAffectedRows ?? 0)
  })
  const seconds = (performance.now() - started) / 1000
  const lines = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM bench_floor_lines`.execute(db)).rows[0]!.n
  await sql`DROP TABLE bench_floor_lines, bench_floor_sums`.execute(db)
  return { seconds, lines, documents }
}

async function main() {
  const { database, label, drop } = await openBenchDatabase({ ...(args.template ? { template: args.template } : {}), keep: args['load-only'] })
  const db = database.db
  try {
    const now = new Date()
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
    if (!args.template) {
      const loadStart = performance.now()
      await load(db, Number(args.entities), Number(args.per), month)
      console.log(`${label}: loaded in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`)
      if (args['load-only']) return
    }
    const counts = (await sql<{ entities: number; charges: number }>`SELECT (SELECT count(*)::int FROM billing_entities) AS entities, (SELECT count(*)::int FROM transactions) AS charges`.execute(db))
      .rows[0]!
    const ENTITIES = counts.entities
    const PER = Math.round(counts.charges / counts.entities)
    console.log(`${label}: ${ENTITIES} billing entities, ${counts.charges} transactions; ${RUNS} runs each; load average ${await loadAverage()}`)

    const first = await time('transactions, every account: page 1 (25 rows)', () => runList(db, transactionsResource, page('page=1&limit=25'), { accountId: null }))
    const deep = await time('transactions, every account: page 400', () => runList(db, transactionsResource, page('page=400&limit=25'), { accountId: null }))
    console.log(`  page 400 / page 1: ${(deep / first).toFixed(2)}× (target ≤ 2×: ${deep <= 2 * first ? 'met' : 'MISSED'})`)
    await time('transactions, filtered by state and product', () =>
      runList(db, transactionsResource, page(`page=1&limit=25&pql=${encodeURIComponent("state equals 'settled' and product_code starts_with 'domain:com'")}`), { accountId: null }),
    )
    const account = (await db.selectFrom('accounts').select('id').where('billing_entity_id', 'is not', null).limit(1).executeTakeFirstOrThrow()).id
    await time("one account's transactions: page 1", () => runList(db, scopedTransactionsResource, page('page=1&limit=25'), { accountId: account }))
    await time("one account's transactions: last page", () => runList(db, scopedTransactionsResource, page(`page=${Math.ceil(PER / 25)}&limit=25`), { accountId: account }))

    const floorOnce = () => invoiceFloor(db, month)
    const floorBefore = await floorOnce()
    console.log(
      `floor (the same aggregation as one statement) before the run: ${floorBefore.lines} lines, ${floorBefore.documents} sums in ${floorBefore.seconds.toFixed(1)} s; load average ${await loadAverage()}`,
    )

    // The job's own function: batches of entities, each one transaction; the mail is queued (here: counted) and sent by its own job, timed after.
    let queued = 0
    const deps = { db, logger: createLogger('silent'), now: () => now, jobs: { send: async () => void queued++ } as unknown as Jobs }
    const period = month.toISOString().slice(0, 10)
    const runStart = performance.now()
    const documents = await runInvoices(deps, period)
    const runSeconds = (performance.now() - runStart) / 1000
    const lines = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM invoice_lines`.execute(db)).rows[0]!.n
    console.log(`monthly run: ${documents} documents, ${lines} lines in ${runSeconds.toFixed(1)} s (target ≤ 60 s: ${runSeconds <= 60 ? 'met' : 'MISSED'}); load average ${await loadAverage()}`)
    const floorAfter = await floorOnce()
    const floor = (floorBefore.seconds + floorAfter.seconds) / 2
    console.log(
      `floor after the run: ${floorAfter.seconds.toFixed(1)} s; the run / its floor: ${(runSeconds / floor).toFixed(2)}× (target ≤ 3×: ${runSeconds <= 3 * floor ? 'met' : 'MISSED'}); load average ${await loadAverage()}`,
    )
    const again = performance.now()
    const more = await runInvoices(deps, period)
    console.log(`  the run again: ${more} documents added in ${((performance.now() - again) / 1000).toFixed(1)} s`)
    const mailStart = performance.now()
    const mailed = await mailIssuedInvoices({ ...deps, mailer: { send: async () => {} } })
    console.log(`  the mail job after it (${queued} queued): ${mailed} documents marked mailed in ${((performance.now() - mailStart) / 1000).toFixed(1)} s (the SMTP time not counted)`)

    const invoice = await db.selectFrom('invoices').selectAll().limit(1).executeTakeFirstOrThrow()
    const some = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', invoice.id).orderBy('position').limit(500).execute()
    await time(`one ${some.length}-line invoice PDF (target ≤ 300 ms)`, () => invoicePdf({ ...invoice, language: 'en' }, some))
    await time(`the same in Japanese (Noto Sans JP subset)`, () => invoicePdf({ ...invoice, language: 'ja' }, some))
  } finally {
    await drop()
  }
}

await main()
