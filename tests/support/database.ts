import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import pg from 'pg'
import { inject } from 'vitest'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server of DATABASE_URL (dropped again by `drop`). Both start from the template
 * migrated once per run (tests/setup/global-setup.ts); `migrate` then has nothing left to apply.
 */
export async function createTestDatabase(): Promise<Database & { drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL
  if (!url) {
    const database = await openDatabase({ kind: 'pglite', ...(await pgliteTemplateLoad()) })
    await migrate(database)
    return { ...database, drop: () => database.close() }
  }
  const copy = await postgresTemplateCopy(url)
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

/** A new database on the PostgreSQL server of `url`, made from the run's template: its `url`, and `drop` (forcing out who is still connected). */
export async function postgresTemplateCopy(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rp_test_${randomBytes(6).toString('hex')}`
  const template = inject('postgresTemplate')
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
