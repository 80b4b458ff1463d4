import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '#server/db/database.ts'
import { committedMigrations, migrate } from '#server/db/migrate.ts'

const MIGRATIONS_DIR = path.resolve('server/db/migrations')
const CACHE_DIR = path.resolve('node_modules/.cache/registrar-portal')

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data folder (tarball path) every test database starts from. */
    pgliteTemplate: string
    /** On PostgreSQL: a migrated database every test database is created from (CREATE DATABASE … TEMPLATE). */
    postgresTemplate: string
  }
}

/**
 * Migrates once per run instead of once per test file: a PGlite data folder dumped to a tarball
 * (kept between runs, keyed on the migrations' content), and on PostgreSQL a template database
 * (same key). Each test file then starts from a copy (tests/support/database.ts).
 */
export default async function setup(project: TestProject) {
  const key = await migrationsKey()
  project.provide('pgliteTemplate', await pgliteTemplate(key))
  project.provide('postgresTemplate', process.env.DATABASE_URL ? await postgresTemplate(process.env.DATABASE_URL, key) : '')
}

async function migrationsKey(): Promise<string> {
  const hash = createHash('sha256')
  for (const file of await committedMigrations(MIGRATIONS_DIR)) {
    hash
      .update(file)
      .update('\0')
      .update(await readFile(path.join(MIGRATIONS_DIR, file)))
      .update('\0')
  }
  return hash.digest('hex').slice(0, 16)
}

async function pgliteTemplate(key: string): Promise<string> {
  const file = path.join(CACHE_DIR, `pglite-${key}.tar`)
  if (existsSync(file)) return file
  await mkdir(CACHE_DIR, { recursive: true })
  // Another key's template goes; this key's partial files are another run's, building the same template at the same time.
  for (const old of await readdir(CACHE_DIR)) if (old.startsWith('pglite-') && !old.startsWith(`pglite-${key}.`)) await rm(path.join(CACHE_DIR, old), { force: true })
  const database = await openDatabase({ kind: 'pglite' })
  try {
    await migrate(database)
    const dump = await database.dumpDataDir!()
    const partial = `${file}.${process.pid}`
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
    await rename(partial, file)
  } finally {
    await database.close()
  }
  return file
}

async function postgresTemplate(url: string, key: string): Promise<string> {
  const name = `rp_template_${key}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    const existing = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'rp\\_template\\_%'`)
    if (existing.rows.some((row) => row.datname === name)) return name
    // Built under another name and renamed when complete, so a run that stops half-way leaves no template that looks whole.
    const building = `${name}_building`
    await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${building}`)
    const target = new URL(url)
    target.pathname = `/${building}`
    const database = await openDatabase({ kind: 'postgres', url: target.toString(), max: 2 })
    try {
      await migrate(database)
    } finally {
      await database.close()
    }
    await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
    for (const row of existing.rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`)
    return name
  } finally {
    await admin.end()
  }
}
