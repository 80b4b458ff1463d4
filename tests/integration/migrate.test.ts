import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '#server/db/database.ts'
import { committedMigrations, isMigrated, migrate } from '#server/db/migrate.ts'

const DATABASE_URL = process.env.DATABASE_URL
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** A new, empty PostgreSQL database (not migrated), dropped after the file. */
async function emptyPostgres(): Promise<string> {
  const name = `rp_migrate_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  cleanups.push(async () => {
    const dropper = new pg.Client({ connectionString: DATABASE_URL })
    await dropper.connect()
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await dropper.end()
  })
  const url = new URL(DATABASE_URL!)
  url.pathname = `/${name}`
  return url.toString()
}

async function open(url?: string): Promise<Database> {
  const database = url ? await openDatabase({ kind: 'postgres', url, max: 2 }) : await openDatabase({ kind: 'pglite' })
  cleanups.push(() => database.close())
  return database
}

/** Migrations of the test only: they count how often each ran, and the second takes its time. */
async function probeMigrations(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rp-migrations-'))
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text)
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

describe('migrate', () => {
  it('applies every committed migration once, then nothing; readiness follows', async () => {
    const database = await open(DATABASE_URL ? await emptyPostgres() : undefined)
    expect(await isMigrated(database)).toBe(false)
    const first = await migrate(database)
    expect(first).toEqual(await committedMigrations())
    expect(first).toContain('0003_rate_limits.sql')
    expect(await isMigrated(database)).toBe(true)
    expect(await migrate(database)).toEqual([])
  })

  it('rolls back a failing migration entirely and names it', async () => {
    const database = await open(DATABASE_URL ? await emptyPostgres() : undefined)
    const dir = await probeMigrations({
      '0001_ok.sql': 'CREATE TABLE probe_ok (n int);',
      '0002_broken.sql': 'CREATE TABLE probe_half (n int);\nINSERT INTO no_such_table VALUES (1);',
    })
    await expect(migrate(database, dir)).rejects.toThrow(/migration 0002_broken.sql failed/)
    const { rows } = await database.pool.query(`SELECT to_regclass('probe_ok') AS ok, to_regclass('probe_half') AS half`)
    expect(rows[0]).toEqual({ ok: 'probe_ok', half: null })
    expect((await database.pool.query('SELECT id FROM schema_migrations')).rows).toEqual([{ id: '0001_ok.sql' }])
  })

  it.skipIf(!DATABASE_URL)(
    'applies each migration exactly once when two processes migrate at the same time (PostgreSQL only: PGlite is one in-process database that a second process cannot open)',
    async () => {
      const url = await emptyPostgres()
      const [a, b] = [await open(url), await open(url)]
      const dir = await probeMigrations({
        '0001_counter.sql': "CREATE TABLE runs (migration text NOT NULL);\nINSERT INTO runs VALUES ('0001');",
        // Slow enough that, without the lock, the other process would start it too.
        '0002_slow.sql': "SELECT pg_sleep(0.3);\nINSERT INTO runs VALUES ('0002');",
        '0003_more.sql': "INSERT INTO runs VALUES ('0003');",
      })
      const [appliedA, appliedB] = await Promise.all([migrate(a, dir), migrate(b, dir)])
      // One process did all the work; the other waited for the lock and found nothing left.
      expect([appliedA, appliedB].map((l) => l.length).sort()).toEqual([0, 3])
      expect([...appliedA, ...appliedB].sort()).toEqual(['0001_counter.sql', '0002_slow.sql', '0003_more.sql'])
      const runs = await a.pool.query('SELECT migration, count(*)::int AS n FROM runs GROUP BY migration ORDER BY migration')
      expect(runs.rows).toEqual([
        { migration: '0001', n: 1 },
        { migration: '0002', n: 1 },
        { migration: '0003', n: 1 },
      ])
      const recorded = await a.pool.query('SELECT id FROM schema_migrations ORDER BY id')
      expect(recorded.rows.map((r) => r.id)).toEqual(['0001_counter.sql', '0002_slow.sql', '0003_more.sql'])
    },
  )

  it.skipIf(!DATABASE_URL)('runs the committed migrations from two handles at once without error (PostgreSQL only)', async () => {
    const url = await emptyPostgres()
    const [a, b] = [await open(url), await open(url)]
    const [appliedA, appliedB] = await Promise.all([migrate(a), migrate(b)])
    expect([...appliedA, ...appliedB].sort()).toEqual(await committedMigrations())
    expect(Math.min(appliedA.length, appliedB.length)).toBe(0)
    expect((await isMigrated(a)) && (await isMigrated(b))).toBe(true)
  })
})
