import { rename, writeFile } from 'node:fs/promises'
import type pg from 'pg'
import { openDatabase, type Database } from '#server/db/database.ts'

// How the test runs' templates are written (tests/setup/global-setup.ts: the migrated ones;
// tests/support/database.ts: the run's seeded ones), so that one stopped half-way never looks whole.

/** Writes a PGlite database's data folder to the tarball `file`: to a file of this process first, renamed when complete. */
export async function writeDataDirTarball(database: Database, file: string) {
  const dump = await database.dumpDataDir!()
  const partial = `${file}.${process.pid}`
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
  await rename(partial, file)
}

/**
 * Makes the database `name` on the server of `url` (through its `admin` connection): created under
 * another name (from `template` when given), filled by `fill`, then renamed to `name`.
 */
export async function buildDatabase(admin: pg.Client, url: string, name: string, template: string | undefined, fill: (database: Database) => Promise<unknown>) {
  const building = `${name}_building`
  await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${building}${template ? ` TEMPLATE ${template}` : ''}`)
  const target = new URL(url)
  target.pathname = `/${building}`
  const database = await openDatabase({ kind: 'postgres', url: target.toString(), max: 2 })
  try {
    await fill(database)
  } finally {
    await database.close()
  }
  await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
}
