import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'
import { createLogger } from '#server/lib/logger.ts'
import { seedDemo } from '#server/seed/demo.ts'
import { onceUnderLock } from './file-lock.ts'
import { buildDatabase, writeDataDirTarball } from './template-databases.ts'

/** The demo a test file starts from (server/seed/demo.ts `seedDemo`), by its size. */
export type DemoSeed = { domainsPerAccount: [number, number] }

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server of DATABASE_URL (dropped again by `drop`). Both start from the template
 * migrated once per run (tests/setup/global-setup.ts); `migrate` then has nothing left to apply.
 * With `seed`, from this run's template of that demo instead: seeded by the services once per run
 * and size, by the first file that asks (the seed cost each file about a CPU-second).
 */
export async function createTestDatabase(seed?: DemoSeed): Promise<Database & { drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL
  if (!url) {
    const database = await openDatabase({ kind: 'pglite', ...(seed ? { load: new Blob([await readFile(await seededPgliteTemplate(seed))]) } : await pgliteTemplateLoad()) })
    await migrate(database)
    return { ...database, drop: () => database.close() }
  }
  const copy = seed ? await postgresTemplateCopy(url, await seededPostgresTemplate(url, seed)) : await postgresTemplateCopy(url)
  const database = await openDatabase({ kind: 'postgres', url: copy.url, max: 5 })
  await migrate(database)
  return {
    ...database,
    async drop() {
      await database.close()
      await copy.drop()
    },
  }
}

/** What a PGlite database opens with to start from the run's template (`load`; nothing where there is none). */
export async function pgliteTemplateLoad(): Promise<{ load?: Blob }> {
  const template = inject('pgliteTemplate')
  return template ? { load: new Blob([await readFile(template)]) } : {}
}

/** A new database on the PostgreSQL server of `url`, made from the run's template (or `template`): its `url`, and `drop` (forcing out who is still connected). */
export async function postgresTemplateCopy(url: string, template = inject('postgresTemplate')): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rp_test_${randomBytes(6).toString('hex')}`
  await asAdmin(url, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`)
  const copy = new URL(url)
  copy.pathname = `/${name}`
  return { url: copy.toString(), drop: () => asAdmin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

async function asAdmin(url: string, statement: string) {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query(statement)
  } finally {
    await admin.end()
  }
}

const seedName = (seed: DemoSeed) => seed.domainsPerAccount.join('_')
const seedDemoSilently = (db: Database['db'], seed: DemoSeed) => seedDemo(db, createLogger('silent'), seed)

/** This run's PGlite tarball of the demo of that size, made when the first file asks (the others wait). */
async function seededPgliteTemplate(seed: DemoSeed): Promise<string> {
  const file = path.join(inject('seededTemplates').dir, `pglite-${seedName(seed)}.tar`)
  await onceUnderLock(
    `${file}.lock`,
    () => existsSync(file),
    async () => {
      const database = await openDatabase({ kind: 'pglite', ...(await pgliteTemplateLoad()) })
      try {
        await seedDemoSilently(database.db, seed)
        await writeDataDirTarball(database, file)
      } finally {
        await database.close()
      }
    },
  )
  return file
}

/** This run's PostgreSQL database of the demo of that size, made when the first file asks (the others wait on an advisory lock). */
async function seededPostgresTemplate(url: string, seed: DemoSeed): Promise<string> {
  const name = `${inject('seededTemplates').prefix}${seedName(seed)}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name])
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (exists.rowCount) return name
    // Seeded under another name and renamed when whole: a file that fails half-way leaves nothing that looks done.
    await buildDatabase(admin, url, name, inject('postgresTemplate'), (database) => seedDemoSilently(database.db, seed))
    return name
  } finally {
    await admin.end()
  }
}
