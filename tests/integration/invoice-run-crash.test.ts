import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, spawnedDatabase, spawnedServer, until } from '#tests/support/spawned-server.ts'
import type { Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'
import { createLogger } from '#server/lib/logger.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'

// The real server, SIGKILLed in the middle of a monthly invoice run (issue 18) and started again on
// the same data: what it left has no half invoice (each document's lines add up to it) and no gap
// in the seller's numbers (one series per seller, kind and year, issue 26); after the restart the run resumes and completes, every charge of the
// month on exactly one line, numbers still gapless, every document mailed.

const url = process.env.DATABASE_URL
// 300 entities are three batches of the run (100 each, one transaction each): the kill lands after
// the first has committed and before the last has.
const ENTITIES = 300
const PER = 150

const PORT = await freePort()

// PostgreSQL only, as production runs: the job engine's own survival of SIGKILL on embedded PGlite is
// job-crash.test.ts's, run in both passes; this one costs a server start, a month of charges and a kill per pass.
describe.skipIf(!url)('a monthly invoice run survives SIGKILL of the server (PostgreSQL)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rp-invoice-crash-'))
  const logFile = path.join(dataDir, 'server.log')
  const data = spawnedDatabase(dataDir)
  const server = spawnedServer({ port: PORT, dataDir, logFile, readyMs: 120_000 })
  const api = server.api
  // The entities the run does first and last (it goes in id order).
  let first = ''
  let last = ''
  const now = new Date()
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1))
  const period = month.toISOString().slice(0, 7)

  /** The database while no server runs (PGlite is one process's). */
  async function offline<T>(read: (database: Database) => Promise<T>): Promise<T> {
    const database = await data.open()
    try {
      return await read(database)
    } finally {
      await database.close()
    }
  }

  async function start() {
    await server.start({
      ...data.env,
      // A job of the killed process is retried a few seconds after its last renewal, not 30.
      JOB_LEASE_SECONDS: '6',
      REGISTRY_MODE: 'none',
      POWERDNS_MODE: 'none',
      LOG_LEVEL: 'info',
    })
  }

  const kill = () => server.kill()

  const stop = () => server.stop()

  /** What the documents of the month say: each one's lines against it, and the seller's numbers against its series' counter. */
  const documents = () =>
    offline(async ({ db }) => {
      const invoices = (
        await sql<{ number: string; entity: string; series: string; seq: number; subtotal: string; n: number; sum: string | null; last_seq: number; mailed: boolean }>`
          SELECT i.number, i.billing_entity_id AS entity, i.series || ' ' || i.kind || ' ' || i.year AS series, i.seq, i.subtotal_minor::text AS subtotal, c.last_seq, i.mailed_at IS NOT NULL AS mailed,
            (SELECT count(*)::int FROM invoice_lines l WHERE l.invoice_id = i.id) AS n, (SELECT sum(l.amount_minor)::text FROM invoice_lines l WHERE l.invoice_id = i.id) AS sum
          FROM invoices i JOIN invoice_series c ON c.series = i.series AND c.kind = i.kind AND c.year = i.year
          WHERE i.run_period = ${`${period}-01`} ORDER BY i.series, i.kind, i.year, i.seq`.execute(db)
      ).rows
      const charges = (
        await sql<{ charges: number; lines: number; distinct_lines: number; counters: number }>`
          SELECT (SELECT count(*)::int FROM transactions WHERE state IN ('settled', 'refunded') AND settled_at >= ${month} AND settled_at < ${new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))}) AS charges,
            (SELECT count(*)::int FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE i.period = ${`${period}-01`}) AS lines,
            (SELECT count(DISTINCT l.transaction_id)::int FROM invoice_lines l JOIN invoices i ON i.id = l.invoice_id WHERE i.period = ${`${period}-01`}) AS distinct_lines,
            (SELECT coalesce(sum(last_seq), 0)::int FROM invoice_series) AS counters`.execute(db)
      ).rows[0]!
      const run = await db.selectFrom('invoice_runs').select('state').where('period', '=', `${period}-01`).executeTakeFirst()
      return { invoices, charges, run: run?.state ?? null }
    })

  /** No half invoice, no gap: every document's lines add up to it, and each series' numbers are 1…its counter, each once. */
  function expectWhole(invoices: Awaited<ReturnType<typeof documents>>['invoices']) {
    expect(invoices.filter((i) => i.n === 0 || i.sum !== i.subtotal)).toEqual([])
    const bySeries = new Map<string, typeof invoices>()
    for (const i of invoices) bySeries.set(i.series, [...(bySeries.get(i.series) ?? []), i])
    for (const [series, theirs] of bySeries) expect({ series, seqs: theirs.map((i) => i.seq) }).toEqual({ series, seqs: Array.from({ length: theirs[0]!.last_seq }, (_, k) => k + 1) })
    expect(new Set(invoices.map((i) => i.number)).size).toBe(invoices.length)
  }

  beforeAll(async () => {
    await data.create()
    // The demo (its staff sign in) and a month of charges for 300 more entities, written before the server starts.
    const database = await data.open(2)
    try {
      await migrate(database)
      const db = database.db
      await seedDemo(db, createLogger('silent'), { domainsPerAccount: [2, 1] })
      await sql`INSERT INTO billing_entities (name, country, currency, billing_email, invoice_language)
        SELECT 'Crash entity ' || i, 'NL', 'EUR', 'billing' || i || '@crash.example', (ARRAY['en', 'es', 'ja'])[1 + i % 3] FROM generate_series(1, ${ENTITIES}) i`.execute(db)
      await sql`INSERT INTO accounts (name, currency, billing_entity_id) SELECT 'Crash account ' || be.name, 'EUR', be.id FROM billing_entities be WHERE be.name LIKE 'Crash entity %'`.execute(db)
      await sql`INSERT INTO transactions (idempotency_key, account_id, billing_entity_id, state, kind, action, product_code, object_name, period, unit_minor, amount_minor, currency, actor_label, settled_at)
        SELECT 'crash:' || g, a.id, a.billing_entity_id, 'settled', 'domain', (ARRAY['register', 'renew', 'transfer'])[1 + g % 3], 'domain:com:renew', 'name-' || g || '.com', 1, 1000 + g % 3000, 1000 + g % 3000, 'EUR', 'test',
          ${month}::timestamptz + ((g % 2419200) || ' seconds')::interval
        FROM generate_series(1, ${ENTITIES * PER}) g
        JOIN (SELECT id, billing_entity_id, row_number() OVER (ORDER BY id) - 1 AS n FROM accounts WHERE name LIKE 'Crash account %') a ON a.n = g % ${ENTITIES}`.execute(db)
      first = (await db.selectFrom('billing_entities').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id
      last = (await db.selectFrom('billing_entities').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id
    } finally {
      await database.close()
    }
  }, 120_000)

  afterAll(async () => {
    await server.kill()
    await data.drop()
  })

  it('leaves no half invoice and no gap in the numbers, and the run resumes to completion', async () => {
    try {
      await start()
      const login = await api('POST', '/login', { body: { username: 'staff@example.com', password: DEMO_PASSWORD } })
      expect(login.status).toBe(200)
      const token = login.json.access_token as string
      const home = (await api('GET', '/me', { token })).json.group_id as string

      expect((await api('POST', `/groups/${home}/invoice-runs`, { token, body: { period } })).status).toBe(202)
      // Killed the moment the first batch's documents are there.
      await until(
        () => api('GET', `/groups/${home}/billing-entities/${first}/invoices`, { token }).then((r) => r.json?.data?.length ?? 0),
        (n) => n > 0,
        'the first batch of the run',
        60_000,
        10,
      )
      await kill()

      const cut = await documents()
      expect(cut.run).toBe('running')
      expect(cut.invoices.length).toBeGreaterThan(0)
      expect(cut.charges.lines).toBeLessThan(cut.charges.charges)
      expectWhole(cut.invoices)
      // No number was taken without its document.
      expect(cut.charges.counters).toBe(cut.invoices.length)

      await start()
      const relogin = await api('POST', '/login', { body: { username: 'staff@example.com', password: DEMO_PASSWORD } })
      expect(relogin.status).toBe(200)
      // The last entity's invoice is made by the resumed run, and mailed once the run is over.
      await until(
        () => api('GET', `/groups/${home}/billing-entities/${last}/invoices`, { token: relogin.json.access_token }).then((r) => r.json?.data?.[0]?.mailed_at ?? null),
        (mailed) => mailed !== null,
        'the resumed run to complete and mail',
        120_000,
        500,
      )
      await stop()
      const done = await documents()
      expect(done.run).toBe('completed')
      expect(done.invoices.filter((i) => !i.mailed)).toEqual([])
      expectWhole(done.invoices)
      // Every charge of the month on exactly one line; each entity invoiced once (one currency each), the seller's numbers from 1.
      expect(done.charges.lines).toBe(done.charges.charges)
      expect(done.charges.distinct_lines).toBe(done.charges.charges)
      expect(done.invoices.filter((i) => i.number.startsWith('INV-')).length).toBe(new Set(done.invoices.map((i) => i.entity)).size)
      expect(new Set(done.invoices.map((i) => i.entity)).size).toBeGreaterThanOrEqual(ENTITIES)
      expect(readFileSync(logFile, 'utf8')).toContain('"msg":"invoice run done"')
    } catch (error) {
      const log = readFileSync(logFile, 'utf8').split('\n')
      process.stderr.write(`--- server log (last 40 lines) ---\n${log.slice(-40).join('\n')}\n`)
      throw error
    }
  }, 300_000)
})
