import { Worker } from 'node:worker_threads'
import type { PGlite } from '@electric-sql/pglite'
import { pgliteAssets, PGliteSession, type ErrorData, type QueryResult, type SessionOp, type StatementAnswer } from './pglite-session.ts'
import type { WorkerRequest, WorkerStart } from './pglite-worker.ts'

export type PoolClient = {
  query(sql: string, params?: readonly unknown[]): Promise<QueryResult>
  release(): void
}

/** Where the session runs: a worker thread (the server), or this thread (unit tests of the lease rules). */
type Backend = {
  run(op: SessionOp): Promise<unknown>
  /** Called with each NOTIFY heard. */
  onNotify?: (channel: string, payload: string) => void
  terminate(): Promise<void>
}

/**
 * A node-postgres-shaped pool over the one PGlite session (decisions 002, 013).
 *
 * PGlite has a single session, so a "connection" is a lease on it: a transaction opened on a lease
 * never sees another caller's statements interleaved — they wait until it ends, and a lease given
 * back mid-transaction is rolled back first. Statements outside a transaction simply take their
 * turn. Kysely's PostgresDialect and pg-boss both run on this shape, as they do on a real pg.Pool.
 *
 * `PGlitePool.start` runs PGlite in a worker thread: its WASM and its JS leave the server's event
 * loop, so the render and the database use both cores. `new PGlitePool(pglite)` runs the same
 * rules on an instance of this thread.
 */
export class PGlitePool {
  readonly #backend: Backend
  readonly #listeners = new Map<number, { channel: string; on(payload: string): void }>()
  readonly #open = new Set<number>()
  #leases = 0
  #listens = 0
  #ended = false
  #drained: (() => void) | null = null

  constructor(db: PGlite | Backend) {
    if ('run' in db) {
      this.#backend = db
    } else {
      const session = new PGliteSession(db, (channel, payload) => this.#notified(channel, payload))
      this.#backend = { run: (op) => session.run(op), terminate: async () => {} }
    }
    this.#backend.onNotify = (channel, payload) => this.#notified(channel, payload)
  }

  /** PGlite in its own worker thread: a folder (or in memory), optionally started from a `dumpDataDir` tarball. */
  static async start(options: { dir?: string; load?: Blob } = {}): Promise<PGlitePool> {
    return new PGlitePool(await startWorker(options))
  }

  async connect(): Promise<PoolClient> {
    if (this.#ended) throw new Error('pool has ended')
    const lease = ++this.#leases
    this.#open.add(lease)
    // What the session last said: does this lease hold it (a transaction open)? Statements in flight?
    let holds = false
    let inFlight = 0
    let released = false
    return {
      query: async (sql, params) => {
        if (released) throw new Error('this lease was released')
        inFlight++
        try {
          const answer = (await this.#backend.run({ kind: 'query', lease, sql, params })) as StatementAnswer
          holds = answer.holds
          return { rows: answer.rows, rowCount: answer.rowCount, command: answer.command }
        } finally {
          inFlight--
        }
      },
      release: () => {
        if (released) return
        released = true
        const done = () => {
          this.#open.delete(lease)
          if (this.#open.size === 0) this.#drained?.()
        }
        // Nothing to tell the session when the lease holds nothing and waits for nothing.
        if (!holds && inFlight === 0) return done()
        this.#backend
          .run({ kind: 'release', lease })
          .catch(() => {})
          .finally(done)
      },
    }
  }

  /** One statement on its own (lease 0): it takes its turn, never inside someone's transaction. */
  async query(sql: string, params?: readonly unknown[]): Promise<QueryResult> {
    if (this.#ended) throw new Error('pool has ended')
    const answer = (await this.#backend.run({ kind: 'query', lease: 0, sql, params })) as StatementAnswer
    return { rows: answer.rows, rowCount: answer.rowCount, command: answer.command }
  }

  /** LISTEN on a channel of the session; `on` hears each payload. The result stops listening. */
  async listen(channel: string, on: (payload: string) => void): Promise<() => Promise<void>> {
    const id = ++this.#listens
    this.#listeners.set(id, { channel, on })
    try {
      await this.#backend.run({ kind: 'listen', id, channel })
    } catch (error) {
      this.#listeners.delete(id)
      throw error
    }
    return async () => {
      if (!this.#listeners.delete(id) || this.#ended) return
      await this.#backend.run({ kind: 'unlisten', id })
    }
  }

  /** The whole data folder as an uncompressed tarball, taken between transactions. */
  async dumpDataDir(): Promise<Blob> {
    const value = await this.#backend.run({ kind: 'dump' })
    if (value instanceof Blob) return value
    const { bytes, type } = value as { bytes: ArrayBuffer; type: string }
    return new Blob([bytes], { type })
  }

  /** Waits until every lease is given back, then closes the database; new leases are refused from the start. */
  async end(): Promise<void> {
    if (this.#ended) return
    this.#ended = true
    if (this.#open.size) await new Promise<void>((resolve) => (this.#drained = resolve))
    try {
      await this.#backend.run({ kind: 'close' })
    } finally {
      await this.#backend.terminate()
    }
  }

  #notified(channel: string, payload: string): void {
    for (const listener of this.#listeners.values()) if (listener.channel === channel) listener.on(payload)
  }
}

/** Starts pglite-worker.ts and resolves once its PGlite is open (or rejects with why it could not open). */
async function startWorker(options: { dir?: string; load?: Blob }): Promise<Backend> {
  const start: WorkerStart = { dir: options.dir, assets: await pgliteAssets(), ...(options.load ? { load: { bytes: await options.load.arrayBuffer(), type: options.load.type } } : {}) }
  const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), {
    workerData: start,
    transferList: start.load ? [start.load.bytes] : [],
  })
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: unknown): void; stack: Error }>()
  let next = 0
  let stopped: Error | null = null
  // The worker keeps the process alive only while it has work in hand (a script that awaits a
  // query must not exit under it; an idle server is kept alive by its sockets, not by this).
  const settle = () => (pending.size ? worker.ref() : worker.unref())
  const backend: Backend = {
    run(op) {
      if (stopped) return Promise.reject(stopped)
      const id = ++next
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, stack: new Error() })
        settle()
        worker.postMessage({ id, op } satisfies WorkerRequest)
      })
    },
    async terminate() {
      stopped ??= new Error('the embedded database is closed')
      await worker.terminate()
    },
  }
  await new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      stopped ??= error
      for (const call of pending.values()) call.reject(error)
      pending.clear()
      reject(error)
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(stopped ?? new Error(`the embedded database's thread stopped (exit code ${code})`)))
    worker.on('message', (message: { id: number; ok: boolean; value?: unknown; error?: ErrorData } | { notify: string; payload: string } | { ready: true } | { failed: ErrorData }) => {
      if ('notify' in message) return backend.onNotify?.(message.notify, message.payload)
      if ('ready' in message) return resolve()
      if ('failed' in message) {
        void worker.terminate()
        return fail(rebuildError(message.failed, new Error()))
      }
      const call = pending.get(message.id)
      if (!call) return
      pending.delete(message.id)
      settle()
      if (message.ok) call.resolve(message.value)
      else call.reject(rebuildError(message.error!, call.stack))
    })
  })
  return backend
}

/**
 * The session's error on this side: same message and fields (code, constraint, detail …) as the
 * driver's DatabaseError, which is what pg-like code reads, with the stack of the caller here.
 */
function rebuildError(data: ErrorData, at: Error): Error {
  const error = Object.assign(new Error(data.message), data.fields)
  error.stack = `${data.fields.name === undefined ? 'Error' : String(data.fields.name)}: ${data.message}\n${at.stack?.split('\n').slice(1).join('\n') ?? ''}`
  return error
}
