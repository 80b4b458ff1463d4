import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { DB } from './schema.ts'
import { PGlitePool } from './pglite-pool.ts'

/** `load`: a data folder dumped by `dumpPglite` to start from (a migrated template in tests). */
export type DatabaseTarget = { kind: 'postgres'; url: string; max?: number } | { kind: 'pglite'; dir?: string; load?: Blob }

/** Anything that runs SQL text with positional parameters: a pool, a lease, pg-boss's Db. */
export type SqlRunner = {
  query(sql: string, params?: readonly unknown[]): Promise<{ rows: any[]; rowCount: number | null }>
}

export type Database = {
  kind: DatabaseTarget['kind']
  db: Kysely<DB>
  pool: SqlRunner & { connect(): Promise<SqlRunner & { release(): void }> }
  /** LISTEN on a channel (see `Listening`); `close` of the result stops. */
  listen(channel: string, on: Listening): Promise<{ close(): Promise<void> }>
  /** PGlite only: the whole data folder as an uncompressed tarball (`load` of a later open takes it). */
  dumpDataDir?(): Promise<Blob>
  close(): Promise<void>
}

/**
 * What a listener is told: each notification's payload; `ready` once it listens (again, after a
 * lost connection: notifications in between are missed, so what depends on them starts over);
 * `lost` when it no longer hears anything.
 */
export type Listening = { notify(payload: string): void; ready(): void; lost(): void }

// Both drivers hand back the same JavaScript types (PGlite's parsers: server/db/pglite-session.ts): bigint counts as numbers (we never count
// past 2^53), dates as 'YYYY-MM-DD' strings (a calendar date has no time zone), timestamptz as Date.
const INT8 = 20
const DATE = 1082
pg.types.setTypeParser(INT8, (v: string) => Number(v))
pg.types.setTypeParser(DATE, (v: string) => v)

/** Opens PostgreSQL (DATABASE_URL) or the embedded PGlite, behind one Kysely instance. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    // No JIT compilation (decision 035): the portal's statements answer a person within a second,
    // and PostgreSQL's JIT, triggered by cost estimates, spent 2.2 s compiling the DNS report's
    // 1.5 s of work at 200,000 zones.
    const pool = new pg.Pool({ connectionString: target.url, max: target.max ?? 10, options: '-c jit=off' })
    pool.on('error', () => {
      // An idle client dropped by the server is replaced on next use; nothing to do here.
    })
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) as never }) })
    return {
      kind: 'postgres',
      db,
      pool: pool as unknown as Database['pool'],
      listen: (channel, on) => listenOnPostgres(target.url, channel, on),
      close: async () => {
        await db.destroy()
        // Kysely ends the pool only if it ever used it; migrations and probes use the pool directly.
        if (!pool.ended) await pool.end()
      },
    }
  }
  // The data folder's parent may not exist yet (DATA_DIR is only created for a generated secret).
  if (target.dir && !target.dir.startsWith('memory://')) mkdirSync(path.dirname(target.dir), { recursive: true })
  // PGlite runs in a worker thread of its own (decision 013); the pool talks to it by message.
  const pool = await PGlitePool.start({ dir: target.dir, load: target.load })
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: pool as never }) })
  return {
    kind: 'pglite',
    db,
    pool,
    dumpDataDir: () => pool.dumpDataDir(),
    async listen(channel, on) {
      const stop = await pool.listen(channel, (payload) => on.notify(payload))
      on.ready()
      return {
        close: async () => {
          on.lost()
          await stop()
        },
      }
    },
    close: async () => {
      await db.destroy()
      await pool.end()
    },
  }
}

/**
 * LISTEN on its own connection (not one of the pool's: it stays open and idle). A lost
 * connection is reported and replaced after a second, until `close`.
 */
async function listenOnPostgres(url: string, channel: string, on: Listening): Promise<{ close(): Promise<void> }> {
  let closed = false
  let client: pg.Client | null = null
  let retry: NodeJS.Timeout | undefined
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url })
    let down = false
    const lost = () => {
      if (down) return
      down = true
      on.lost()
      next.end().catch(() => {})
      if (!closed) retry = setTimeout(() => void connect().catch(() => {}), 1000)
    }
    next.on('error', lost)
    next.on('end', lost)
    next.on('notification', (message) => {
      if (message.channel === channel) on.notify(message.payload ?? '')
    })
    try {
      await next.connect()
      await next.query(`LISTEN ${pg.Client.prototype.escapeIdentifier(channel)}`)
    } catch (error) {
      lost()
      throw error
    }
    client = next
    on.ready()
  }
  await connect().catch(() => {})
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      on.lost()
      await client?.end().catch(() => {})
    },
  }
}

/** How many statements a connection keeps prepared; later new texts run unprepared on it. */
export const PREPARED_PER_CONNECTION = 200

/**
 * The pool as Kysely sees it on PostgreSQL: every statement with parameters runs as a named
 * prepared statement of its connection (decision 011). The server parses it once per connection
 * instead of per execution, and after five executions it may keep a generic plan instead of
 * planning again: the list page's statement spent 0.85 of its 1.35 ms in parse and plan.
 * A connection prepares its first PREPARED_PER_CONNECTION distinct texts — a bounded plan cache
 * per server process even if some code built SQL text from values — and runs others unprepared;
 * the pool closes idle connections, so the set renews itself. Statements without parameters (BEGIN,
 * COMMIT, SET, DDL, several statements in one text) go as they are.
 */
function preparingPool(pool: pg.Pool) {
  type Preparing = { query(text: string, values?: unknown[]): Promise<pg.QueryResult>; release(error?: Error | boolean): void }
  // One wrapper per connection, kept as long as the connection: Kysely keys its own per-connection state on it.
  const wrappers = new WeakMap<pg.PoolClient, Preparing>()
  const wrap = (client: pg.PoolClient): Preparing => {
    const names = new Map<string, string>()
    return {
      query(text, values) {
        if (!values?.length) return client.query(text, values)
        let name = names.get(text)
        if (!name && names.size < PREPARED_PER_CONNECTION) names.set(text, (name = `rp_${names.size + 1}`))
        return name ? client.query({ name, text, values }) : client.query(text, values)
      },
      release: (error) => client.release(error),
    }
  }
  return {
    async connect(): Promise<Preparing> {
      const client = await pool.connect()
      let wrapper = wrappers.get(client)
      if (!wrapper) wrappers.set(client, (wrapper = wrap(client)))
      return wrapper
    },
    end: () => pool.end(),
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
