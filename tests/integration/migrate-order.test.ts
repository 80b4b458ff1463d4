import { randomBytes } from 'node:crypto'
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'

// Decision 007: an older database applies new files in the order a fresh one does, or `migrate`
// refuses. A file slipped in under the newest applied one is refused, naming both, and nothing runs.

const DATABASE_URL = process.env.DATABASE_URL
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** A new, empty database: PGlite, or one of its own on the PostgreSQL server of DATABASE_URL. */
async function emptyDatabase(): Promise<Database> {
  if (!DATABASE_URL) {
    const database = await openDatabase({ kind: 'pglite' })
    cleanups.push(() => database.close())
    return database
  }
  const name = `rp_migrate_order_${randomBytes(6).toString('hex')}`
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
  const url = new URL(DATABASE_URL)
  url.pathname = `/${name}`
  const database = await openDatabase({ kind: 'postgres', url: url.toString(), max: 2 })
  cleanups.push(() => database.close())
  return database
}

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rp-migrations-order-'))
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text)
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

const appliedIds = async (database: Database) => (await database.pool.query('SELECT id FROM schema_migrations ORDER BY id')).rows.map((r) => r.id as string)
const tableExists = async (database: Database, table: string) => (await database.pool.query('SELECT to_regclass($1) IS NOT NULL AS present', [table])).rows[0]?.present as boolean

describe('migrate keeps the order of a fresh database', () => {
  it('refuses a file numbered below one already applied, naming both, and applies nothing', async () => {
    const database = await emptyDatabase()
    const dir = await migrationsDir({
      '0100_first.sql': 'CREATE TABLE order_first (n int);',
      '0300_third.sql': 'CREATE TABLE order_third (n int);',
    })
    expect(await migrate(database, dir)).toEqual(['0100_first.sql', '0300_third.sql'])

    // Merged later under 0300 (its branch was older), together with a newer file above it.
    await writeFile(path.join(dir, '0200_slipped_in.sql'), 'CREATE TABLE order_slipped (n int);')
    await writeFile(path.join(dir, '0400_fourth.sql'), 'CREATE TABLE order_fourth (n int);')
    const refused = await migrate(database, dir).then(
      () => null,
      (error: Error) => error.message,
    )
    expect(refused).toMatch(/migration 0200_slipped_in\.sql is numbered below 0300_third\.sql, which this database has already applied/)
    expect(refused).toMatch(/Nothing was applied/)
    expect(await appliedIds(database)).toEqual(['0100_first.sql', '0300_third.sql'])
    expect(await tableExists(database, 'order_slipped')).toBe(false)
    expect(await tableExists(database, 'order_fourth')).toBe(false)

    // Renumbered above the newest applied, it runs in the same place as on a fresh database.
    await rename(path.join(dir, '0200_slipped_in.sql'), path.join(dir, '0500_slipped_in.sql'))
    expect(await migrate(database, dir)).toEqual(['0400_fourth.sql', '0500_slipped_in.sql'])
    expect(await appliedIds(database)).toEqual(['0100_first.sql', '0300_third.sql', '0400_fourth.sql', '0500_slipped_in.sql'])
  })

  it('a fresh database applies the same files in file order, low numbers included', async () => {
    const database = await emptyDatabase()
    const dir = await migrationsDir({
      '0300_third.sql': 'CREATE TABLE fresh_third (n int);',
      '0100_first.sql': 'CREATE TABLE fresh_first (n int);',
      '0200_second.sql': 'CREATE TABLE fresh_second (n int);',
    })
    expect(await migrate(database, dir)).toEqual(['0100_first.sql', '0200_second.sql', '0300_third.sql'])
    expect(await migrate(database, dir)).toEqual([])
  })
})
