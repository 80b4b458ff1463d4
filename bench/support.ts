/**
 * What the database benchmarks share: a database of their own to fill and drop, and the timing of
 * a call (a warm-up, then p50/p95 over a number of runs).
 *
 * Without DATABASE_URL: an embedded PGlite in memory. With it: a new database `rp_bench_…` on that
 * server, migrated, dropped at the end unless `keep`; `template` makes it a copy of a kept database
 * (CREATE DATABASE … TEMPLATE: a file copy, seconds for a million rows), so a bench can time a
 * change again on the same data without generating it again. A copy is not migrated: a migration
 * added since would be out of its order (apply one by hand to the kept database).
 */
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'

export type BenchDatabase = { database: Database; label: string; name: string | null; drop(): Promise<void> }

export async function openBenchDatabase(options: { template?: string; keep?: boolean } = {}): Promise<BenchDatabase> {
  const url = process.env.DATABASE_URL
  if (!url) {
    const database = await openDatabase({ kind: 'pglite' })
    await migrate(database)
    return { database, label: 'PGlite (in memory)', name: null, drop: () => database.close() }
  }
  const name = `rp_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(options.template ? `CREATE DATABASE ${name} TEMPLATE ${pg.escapeIdentifier(options.template)}` : `CREATE DATABASE ${name}`)
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  const database = await openDatabase({ kind: 'postgres', url: target.toString(), max: 4 })
  if (!options.template) await migrate(database)
  return {
    database,
    label: `PostgreSQL ${target.host}/${name}${options.template ? ` (a copy of ${options.template})` : ''}`,
    name,
    async drop() {
      await database.close()
      if (options.keep) return void console.log(`kept database ${name} (--template ${name} copies it)`)
      const dropper = new pg.Client({ connectionString: url })
      await dropper.connect()
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!

/** Times `run` `runs` times after one warm-up (plans, caches) and prints p50 and p95, with the target when there is one. */
export async function time(label: string, runs: number, run: () => Promise<unknown>, targetMs?: number): Promise<{ p50: number; p95: number }> {
  await run()
  const samples: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await run()
    samples.push(performance.now() - start)
  }
  samples.sort((a, b) => a - b)
  const p50 = quantile(samples, 0.5)
  const p95 = quantile(samples, 0.95)
  const target = targetMs === undefined ? '' : `  (target ≤ ${targetMs} ms: ${p95 <= targetMs ? 'met' : 'MISSED'})`
  console.log(`${label.padEnd(58)} p50 ${p50.toFixed(1).padStart(8)} ms  p95 ${p95.toFixed(1).padStart(8)} ms${target}`)
  return { p50, p95 }
}

/** The machine's load average now (the benches print it: a shared machine's figures depend on it). */
export const loadAverage = async () =>
  (await import('node:os'))
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
