import { PGlite, types as pgliteTypes } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { DB } from './schema.ts'
import { PGlitePool } from './pglite-pool.ts'

export type DatabaseTarget = { kind: 'postgres'; url: string; max?: number } | { kind: 'pglite'; dir?: string }

/** Anything that runs SQL text with positional parameters: a pool, a lease, pg-boss's Db. */
export type SqlRunner = {
  query(sql: string, params?: readonly unknown[]): Promise<{ rows: any[]; rowCount: number | null }>
}

export type Database = {
  kind: DatabaseTarget['kind']
  db: Kysely<DB>
  pool: SqlRunner & { connect(): Promise<SqlRunner & { release(): void }> }
  close(): Promise<void>
}

// Both drivers hand back the same JavaScript types: bigint counts as numbers (we never count
// past 2^53), dates as 'YYYY-MM-DD' strings (a calendar date has no time zone), timestamptz as Date.
const INT8 = 20
const DATE = 1082
pg.types.setTypeParser(INT8, (v: string) => Number(v))
pg.types.setTypeParser(DATE, (v: string) => v)

/** Opens PostgreSQL (DATABASE_URL) or the embedded PGlite, behind one Kysely instance. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.max ?? 10 })
    pool.on('error', () => {
      // An idle client dropped by the server is replaced on next use; nothing to do here.
    })
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) })
    return {
      kind: 'postgres',
      db,
      pool: pool as unknown as Database['pool'],
      close: async () => {
        await db.destroy()
        // Kysely ends the pool only if it ever used it; migrations and probes use the pool directly.
        if (!pool.ended) await pool.end()
      },
    }
  }
  const pglite = await PGlite.create({
    dataDir: target.dir,
    extensions: { pg_trgm },
    parsers: { [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v },
    serializers: { [pgliteTypes.DATE]: (v: unknown) => String(v) },
  })
  const pool = new PGlitePool(pglite)
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: pool as never }) })
  return {
    kind: 'pglite',
    db,
    pool,
    close: async () => {
      await db.destroy()
      await pool.end()
    },
  }
}

/**
 * One connection of the PostgreSQL pool, held for a piece of work that needs the driver itself
 * (a COPY stream) inside a Kysely transaction: `db` runs every query on that connection, so a
 * transaction begun on it and the COPY written to `client` are the same session. `release` gives
 * the connection back (or discards it after an error). PGlite has no COPY stream: null there.
 */
export async function leaseConnection(database: Database): Promise<{ db: Kysely<DB>; client: pg.PoolClient; release(error?: Error): void } | null> {
  if (database.kind !== 'postgres') return null
  const client = await (database.pool as unknown as pg.Pool).connect()
  // Kysely asks its pool for a connection per transaction and releases it after: here it gets the
  // leased one each time and its release is ours to do.
  const held = { query: client.query.bind(client), release: () => {} }
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: { connect: async () => held, end: async () => {} } as never }) })
  let released = false
  return {
    db,
    client,
    release(error) {
      if (released) return
      released = true
      client.release(error ?? false)
    },
  }
}

