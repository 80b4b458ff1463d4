import type { PGlite } from '@electric-sql/pglite'

type QueryResult = { rows: any[]; rowCount: number; command: string }

export type PoolClient = {
  query(sql: string, params?: readonly unknown[]): Promise<QueryResult>
  release(): void
}

/**
 * A node-postgres-shaped pool over one in-process PGlite instance.
 *
 * PGlite has a single session, so a "connection" is an exclusive lease on it: a transaction
 * opened on a lease can never see another caller's statements interleaved. Kysely's
 * PostgresDialect and pg-boss both run on this shape, as they do on a real pg.Pool.
 */
export class PGlitePool {
  readonly #db: PGlite
  #tail: Promise<void> = Promise.resolve()
  #ended = false

  constructor(db: PGlite) {
    this.#db = db
  }

  async connect(): Promise<PoolClient> {
    if (this.#ended) throw new Error('pool has ended')
    let release!: () => void
    const previous = this.#tail
    this.#tail = new Promise<void>((resolve) => (release = resolve))
    await previous
    let released = false
    return {
      query: (sql, params) => this.#run(sql, params),
      release: () => {
        if (released) return
        released = true
        // A lease given back in the middle of a transaction must not leak it to the next caller.
        if (this.#db.isInTransaction()) {
          this.#db.exec('ROLLBACK').finally(release)
        } else {
          release()
        }
      },
    }
  }

  async query(sql: string, params?: readonly unknown[]): Promise<QueryResult> {
    const client = await this.connect()
    try {
      return await client.query(sql, params)
    } finally {
      client.release()
    }
  }

  async #run(sql: string, params?: readonly unknown[]): Promise<QueryResult> {
    if (params && params.length > 0) {
      const result = await this.#db.query(sql, params as unknown[])
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length, command: commandOf(sql) }
    }
    // Without parameters, allow several statements (migrations) through the simple protocol.
    const results = await this.#db.exec(sql)
    const last = results.at(-1)
    return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0, command: commandOf(sql) }
  }

  async end(): Promise<void> {
    if (this.#ended) return
    this.#ended = true
    await this.#tail
    await this.#db.close()
  }
}

function commandOf(sql: string): string {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge|select)\b/i.exec(sql)
  return (match?.[1] ?? 'SELECT').toUpperCase()
}
