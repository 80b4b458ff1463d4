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
    const template = inject('pgliteTemplate')
    const database = await openDatabase({ kind: 'pglite', ...(template ? { load: new Blob([await readFile(template)]) } : {}) })
    await migrate(database)
    return { ...database, drop: () => database.close() }
  }
  const name = `rp_test_${randomBytes(6).toString('hex')}`
  const template = inject('postgresTemplate')
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`)
  await admin.end()
  const testUrl = new URL(url)
  testUrl.pathname = `/${name}`
  const database = await openDatabase({ kind: 'postgres', url: testUrl.toString(), max: 5 })
  await migrate(database)
  return {
    ...database,
    async drop() {
      await database.close()
      const dropper = new pg.Client({ connectionString: url })
      await dropper.connect()
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}
