// Makes the embedded database's data folder — PGlite's initdb, then the migrations — while
// `npm start`'s prestart builds the portal (scripts/build-if-changed.ts runs both at once): a new
// PGlite folder took 18 s to initialise on a loaded 2-core machine, an existing one 1.8 s to open
// (issue 28, item 18). Does nothing with DATABASE_URL or when the folder exists. Made under another
// name and renamed when done, so a start never finds half a folder; on failure the server makes it.
import { existsSync, renameSync, rmSync } from 'node:fs'
import path from 'node:path'
import { openDatabase } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'

const dir = path.join(path.resolve(process.env.DATA_DIR || './data'), 'pglite')
if (!process.env.DATABASE_URL && !existsSync(dir)) {
  const preparing = `${dir}.preparing-${process.pid}`
  try {
    const database = await openDatabase({ kind: 'pglite', dir: preparing })
    await migrate(database)
    await database.close()
    renameSync(preparing, dir)
  } catch (error) {
    rmSync(preparing, { recursive: true, force: true })
    process.stderr.write(`The embedded database could not be prepared ahead (the server makes it at start): ${String(error)}\n`)
  }
}
