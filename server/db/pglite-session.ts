import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { PGlite, protocol, types as pgliteTypes } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

/**
 * The one PGlite session and who may use it (decisions 002, 013). This module runs where PGlite
 * lives: in the database's worker thread (server/db/pglite-worker.ts), or in process for the unit
 * tests of the lease rules. It imports nothing of the server, so the worker loads only PGlite.
 */

// Both drivers hand back the same JavaScript types: bigint counts as numbers (we never count
// past 2^53), dates as 'YYYY-MM-DD' strings (a calendar date has no time zone), timestamptz as Date.
const INT8 = 20
const DATE = 1082

/**
 * What every PGlite of a process can share: the compiled WASM modules and the bundle of share
 * files, made once (a new worker would otherwise compile PGlite's 9 MB of WASM again: about a
 * second each time a test file opens a database).
 */
export type PGliteAssets = { pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module; fsBundle: Blob }

let assets: Promise<PGliteAssets> | undefined
export function pgliteAssets(): Promise<PGliteAssets> {
  assets ??= (async () => {
    // createRequire, not import.meta.resolve: Vitest's module runner has no import.meta.resolve.
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
    const [pglite, initdb, bundle] = await Promise.all(['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((file) => readFile(path.join(dist, file))))
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([WebAssembly.compile(pglite!), WebAssembly.compile(initdb!)])
    return { pgliteWasmModule, initdbWasmModule, fsBundle: new Blob([bundle!]) }
  })()
  return assets
}

/** The embedded database as the server uses it: pg_trgm, and the JS types of node-postgres. */
export function createPGlite(options: { dir?: string; load?: Blob; assets?: PGliteAssets }): Promise<PGlite> {
  return PGlite.create({
    dataDir: options.dir,
    ...(options.load ? { loadDataDir: options.load } : {}),
    ...options.assets,
    extensions: { pg_trgm },
    parsers: { [INT8]: (v: string) => Number(v), [DATE]: (v: string) => v },
    serializers: { [pgliteTypes.DATE]: (v: unknown) => String(v) },
  })
}

export type QueryResult = { rows: any[]; rowCount: number; command: string }

/** What a lease asks of the session. `lease` numbers are the caller's; 0 is "no lease" (one statement on its own). */
export type SessionOp =
  | { kind: 'query'; lease: number; sql: string; params?: readonly unknown[] }
  | { kind: 'release'; lease: number }
  | { kind: 'listen'; id: number; channel: string }
  | { kind: 'unlisten'; id: number }
  | { kind: 'dump' }
  | { kind: 'close' }

/** A statement's answer, and whether its lease now holds the session (a transaction is open on it). */
export type StatementAnswer = QueryResult & { holds: boolean }

type Job = { op: SessionOp; resolve(value: unknown): void; reject(error: unknown): void }

/**
 * Runs what leases ask, one thing at a time, in the order asked — except that while a lease has
 * a transaction open, only that lease's statements run: everyone else's wait until it commits,
 * rolls back or is released (a release rolls back what it left open). So a transaction never sees
 * another caller's statement, and a statement outside any transaction runs as soon as it is its
 * turn, without waiting for its caller to give a lease back — the lease bookkeeping costs no round
 * trip between threads. A caller's own statements always keep their order.
 */
export class PGliteSession {
  readonly #db: PGlite
  readonly #notify: (channel: string, payload: string) => void
  readonly #queue: Job[] = []
  readonly #listening = new Map<number, () => Promise<void>>()
  readonly #prepared = new Map<string, Prepared>()
  #holder: number | null = null
  #busy = false
  #closed = false

  constructor(db: PGlite, notify: (channel: string, payload: string) => void) {
    this.#db = db
    this.#notify = notify
  }

  run(op: SessionOp): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error('the embedded database is closed'))
    return new Promise((resolve, reject) => {
      this.#queue.push({ op, resolve, reject })
      this.#pump()
    })
  }

  #pump(): void {
    if (this.#busy) return
    const holder = this.#holder
    const index = holder === null ? (this.#queue.length ? 0 : -1) : this.#queue.findIndex((job) => 'lease' in job.op && job.op.lease === holder)
    if (index < 0) return
    const job = this.#queue.splice(index, 1)[0]!
    this.#busy = true
    this.#do(job.op)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.#busy = false
        this.#pump()
      })
  }

  async #do(op: SessionOp): Promise<unknown> {
    const db = this.#db
    switch (op.kind) {
      case 'query': {
        let result: QueryResult
        try {
          result = await this.#statement(op.sql, op.params)
        } finally {
          // A statement on its own (lease 0) must not leave a transaction open for anyone.
          if (op.lease === 0 && db.isInTransaction()) await db.exec('ROLLBACK').catch(() => {})
          this.#holder = op.lease !== 0 && db.isInTransaction() ? op.lease : null
        }
        return { ...result, holds: this.#holder === op.lease } satisfies StatementAnswer
      }
      case 'release':
        if (this.#holder === op.lease) {
          this.#holder = null
          // A lease given back in the middle of a transaction must not leak it to the next caller.
          if (db.isInTransaction()) await db.exec('ROLLBACK')
        }
        return null
      case 'listen':
        this.#listening.set(op.id, await db.listen(op.channel, (payload) => this.#notify(op.channel, payload)))
        return null
      case 'unlisten': {
        const stop = this.#listening.get(op.id)
        this.#listening.delete(op.id)
        await stop?.()
        return null
      }
      case 'dump':
        return db.dumpDataDir('none')
      case 'close':
        this.#closed = true
        for (const job of this.#queue.splice(0)) job.reject(new Error('the embedded database is closed'))
        await db.close()
        return null
    }
  }

  async #statement(sql: string, params?: readonly unknown[]): Promise<QueryResult> {
    if (params && params.length > 0) {
      const prepared = this.#prepared.get(sql) ?? (this.#prepared.size < PREPARED_STATEMENTS ? await this.#prepare(sql) : undefined)
      if (prepared) return this.#execute(prepared, sql, params)
      const result = await this.#db.query(sql, params as unknown[])
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length, command: commandOf(sql) }
    }
    // Without parameters, allow several statements (migrations) through the simple protocol.
    const results = await this.#db.exec(sql)
    const last = results.at(-1)
    return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0, command: commandOf(sql) }
  }

  /**
   * A named prepared statement of the session for a text with parameters (as decision 011 does on
   * PostgreSQL): PostgreSQL parses it once, and after five executions may keep a generic plan. Its
   * parameter types and result columns are asked once (Describe). PGlite's own `query` parses,
   * describes and plans every time, in six calls into the WASM module; an execution here is one call
   * (Bind, Execute, Sync in one message) — the list page's statement went from ~14 ms to ~2 ms.
   */
  async #prepare(sql: string): Promise<Prepared> {
    const name = `rp_${this.#prepared.size + 1}`
    const { messages } = await this.#db.execProtocol(concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]))
    const parameters = messages.find((m): m is ParameterDescriptionMessage => m.name === 'parameterDescription')
    const columns = messages.find((m): m is RowDescriptionMessage => m.name === 'rowDescription')
    const prepared: Prepared = { name, parameterTypes: parameters?.dataTypeIDs ?? [], fields: columns?.fields.map((f) => ({ name: f.name, type: f.dataTypeID })) ?? [] }
    this.#prepared.set(sql, prepared)
    return prepared
  }

  async #execute(prepared: Prepared, sql: string, params: readonly unknown[]): Promise<QueryResult> {
    const db = this.#db
    // Values are written as PGlite's query writes them: by the parameter's type, else as text.
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = db.serializers[prepared.parameterTypes[i]!]
      return serializer ? (serializer(value) as string) : String(value)
    })
    const { messages } = await db.execProtocol(concat([serialize.bind({ statement: prepared.name, values }), serialize.execute({}), serialize.sync()]))
    const rows: Record<string, unknown>[] = []
    let affected: number | undefined
    for (const message of messages) {
      if (message.name === 'dataRow') {
        const row: Record<string, unknown> = {}
        const fields = (message as DataRowMessage).fields
        for (let i = 0; i < prepared.fields.length; i++) {
          const field = prepared.fields[i]!
          row[field.name] = pgliteTypes.parseType(fields[i] ?? null, field.type, db.parsers)
        }
        rows.push(row)
      } else if (message.name === 'commandComplete') {
        const [command, ...rest] = (message as CommandCompleteMessage).text.split(' ')
        if (command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE' || command === 'COPY') affected = Number(rest.at(-1))
      }
    }
    return { rows, rowCount: affected ?? rows.length, command: commandOf(sql) }
  }
}

/** How many texts the session keeps prepared (as PREPARED_PER_CONNECTION on PostgreSQL); later new texts run unprepared. */
const PREPARED_STATEMENTS = 200
type Prepared = { name: string; parameterTypes: number[]; fields: { name: string; type: number }[] }
const serialize = protocol.serialize
type DataRowMessage = InstanceType<typeof protocol.messages.DataRowMessage>
type CommandCompleteMessage = InstanceType<typeof protocol.messages.CommandCompleteMessage>
type ParameterDescriptionMessage = InstanceType<typeof protocol.messages.ParameterDescriptionMessage>
type RowDescriptionMessage = InstanceType<typeof protocol.messages.RowDescriptionMessage>

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

function commandOf(sql: string): string {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge|select)\b/i.exec(sql)
  return (match?.[1] ?? 'SELECT').toUpperCase()
}

/** A database error as data (structured clone keeps only an Error's message): its message and its fields (code, constraint, detail …). */
export type ErrorData = { message: string; fields: Record<string, string | number | boolean> }

export function errorData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { message: String(error), fields: {} }
  const fields: ErrorData['fields'] = {}
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value
  }
  return { message: error.message, fields }
}
