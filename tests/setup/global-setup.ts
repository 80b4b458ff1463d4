import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { openDatabase } from '#server/db/database.ts'
import { committedMigrations, migrate } from '#server/db/migrate.ts'
import { buildDatabase, writeDataDirTarball } from '#tests/support/template-databases.ts'

const MIGRATIONS_DIR = path.resolve('server/db/migrations')
const CACHE_DIR = path.resolve('node_modules/.cache/registrar-portal')

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data folder (tarball path) every test database starts from. */
    pgliteTemplate: string
    /** On PostgreSQL: a migrated database every test database is created from (CREATE DATABASE … TEMPLATE). */
    postgresTemplate: string
    /**
     * This run's seeded templates (tests/support/database.ts `createTestDatabase(seed)`): the folder
     * of its PGlite tarballs and the prefix of its PostgreSQL databases, one per demo size, made by
     * the first file that asks and removed when the run ends. The demo's dates follow the day it is
     * seeded, so a seeded template lives one run, never in the cache.
     */
    seededTemplates: { dir: string; prefix: string }
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
  const url = process.env.DATABASE_URL
  project.provide('postgresTemplate', url ? await postgresTemplate(url, key) : '')
  // The run's seeded templates: named after the moment it started, so that one left by a run that
  // was killed is recognised as old by the next (and dropped), never taken for the next run's own.
  const started = Date.now()
  const seeded = { dir: await mkdtemp(path.join(tmpdir(), 'rp-seeded-')), prefix: `rp_seeded_${started.toString(36)}_${process.pid}_` }
  project.provide('seededTemplates', seeded)
  if (url) await dropSeededTemplates(url, (name) => Number.parseInt(name.split('_')[2] ?? '', 36) < started - 6 * 3600_000)
  return async () => {
    await rm(seeded.dir, { recursive: true, force: true })
    if (url) await dropSeededTemplates(url, (name) => name.startsWith(seeded.prefix))
  }
}

/** Drops the seeded template databases (`rp_seeded_…`) whose name `which` picks. */
async function dropSeededTemplates(url: string, which: (name: string) => boolean) {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'rp\\_seeded\\_%'`)
    for (const { datname } of rows) if (which(datname)) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
  } finally {
    await admin.end()
  }
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
    await writeDataDirTarball(database, file)
  } finally {
    await database.close()
  }
  return file
}

/** How many templates of other migrations are kept beside this run's (the newest). */
const KEPT_OTHER_TEMPLATES = 3

async function postgresTemplate(url: string, key: string): Promise<string> {
  const name = `rp_template_${key}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    // Newest first (a database's oid grows with each one made).
    const existing = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'rp\\_template\\_%' ORDER BY oid DESC`)
    if (existing.rows.some((row) => row.datname === name)) return name
    // Built under another name and renamed when complete, so a run that stops half-way leaves no template that looks whole.
    await buildDatabase(admin, url, name, undefined, migrate)
    // Other migrations' templates go but the newest few: a run of other code on the same server at
    // the same time (another checkout) may be copying its own (dropping every other one failed such a run).
    for (const row of existing.rows.slice(KEPT_OTHER_TEMPLATES)) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`)
    return name
  } finally {
    await admin.end()
  }
}
