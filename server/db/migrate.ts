import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Database } from './database.ts'

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations')
// Any constant works; it only has to be the same in every process of this application.
const MIGRATION_LOCK_KEY = 727_100_001

/** Applies every committed SQL migration not yet applied; safe when several processes start at once. */
export async function migrate(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort()
  const client = await database.pool.connect()
  const applied: string[] = []
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`)
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const done = new Set((await client.query('SELECT id FROM schema_migrations')).rows.map((r) => r.id as string))
    if (dir === MIGRATIONS_DIR) knownAtBoot ??= files
    refuseOutOfOrder(files, done)
    for (const file of files) {
      if (done.has(file)) continue
      const sqlText = await readFile(path.join(dir, file), 'utf8')
      await client.query('BEGIN')
      try {
        await client.query(sqlText)
        await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [file])
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw new Error(`migration ${file} failed: ${(error as Error).message}`, { cause: error })
      }
      applied.push(file)
    }
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => {})
    client.release()
  }
  return applied
}

/**
 * Decision 007: a database applies the files in the order a fresh one does. A file not applied yet
 * that sorts below the newest applied one (added under it later, e.g. by a branch merged after a
 * higher number shipped) would run after files a fresh database runs after it, so the two could end
 * up different: nothing is applied and the start fails naming both files.
 */
function refuseOutOfOrder(files: string[], done: Set<string>): void {
  const newest = [...done].sort().at(-1)
  if (!newest) return
  const late = files.find((f) => !done.has(f) && f < newest)
  if (!late) return
  throw new Error(
    `migration ${late} is numbered below ${newest}, which this database has already applied: a fresh database runs ${late} first, ` +
      `so applying it now would give this database a different order. Nothing was applied. Renumber ${late} above ${newest.slice(0, 4)} ` +
      '(files are never edited once merged; an unreleased file may be renamed), see docs/decisions/007-migrations.md',
  )
}

/** The migration files committed in the repository, in order. */
export async function committedMigrations(dir = MIGRATIONS_DIR): Promise<string[]> {
  return (await readdir(dir)).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort()
}

// The migrations this process was started with. Readiness waits for those only: a file that
// appears in the folder later (a newer release unpacked beside a running one, work in progress in
// a checkout) belongs to the next process, and re-reading the folder made /readyz answer 503 for
// ever although this process's schema was complete.
let knownAtBoot: string[] | undefined

/** True when every migration this process knows (the folder as it was at boot) is recorded as applied. */
export async function isMigrated(database: Database): Promise<boolean> {
  knownAtBoot ??= await committedMigrations()
  const expected = knownAtBoot
  // Before the first migration the bookkeeping table itself is missing: not ready, not broken.
  const table = await database.pool.query(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`)
  if (!table.rows[0]?.present) return false
  const { rows } = await database.pool.query(`SELECT id FROM schema_migrations WHERE id = ANY($1::text[])`, [expected])
  return rows.length === expected.length
}
