import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import path from 'node:path'
import { openDatabase } from '#server/db/database.ts'
import { prepareDataDir } from '#tests/e2e/template.ts'
import { pgliteTemplateLoad, postgresTemplateCopy } from './database.ts'

// The real server (server/main.ts) as a child process, for the tests that kill it and start it
// again on the same data (decision 102): its own port and data folder, its output in a log file.

const ROOT = path.resolve(import.meta.dirname, '../..')

/** A port nobody listens on now (the OS's choice). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
    probe.on('error', reject)
  })

/** Asks `read` every `everyMs` until `ok` holds of its answer; fails after `ms` naming `what` and the last answer. */
export async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string, ms: number, everyMs = 200): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)?.slice(0, 500)}`)
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
}

/**
 * The data a spawned server runs on, beside its `dataDir`: `create()` (before its first start) makes
 * it from the run's template, as every test database is (migrating from nothing at the server's start
 * took most of its readiness on a busy machine) — on PostgreSQL (DATABASE_URL) a database of its own,
 * which `env` hands the server, otherwise the PGlite data folder `dataDir/pglite` the server opens.
 * `open(max)` connects the test itself (on PGlite only while no server runs: it is one process's);
 * `drop()` drops the database and removes `dataDir`.
 */
export function spawnedDatabase(dataDir: string, options: { seeded?: boolean } = {}) {
  const url = process.env.DATABASE_URL
  const pglite = path.join(dataDir, 'pglite')
  let copy: Awaited<ReturnType<typeof postgresTemplateCopy>> | undefined
  return {
    async create() {
      if (url) copy = await postgresTemplateCopy(url)
      // `seeded`, on PGlite: the whole data folder (database, local registry, secret) is a copy of
      // the demo the e2e servers start from, seeded by the real server once for every checkout's
      // code (tests/e2e/template.ts) — the first start's seed is the costliest part of such a test.
      else if (options.seeded) await prepareDataDir(dataDir, ROOT)
      else await (await openDatabase({ kind: 'pglite', dir: pglite, ...(await pgliteTemplateLoad()) })).close()
    },
    /** What the server's environment adds: its DATABASE_URL on PostgreSQL. */
    get env(): Record<string, string> {
      return copy ? { DATABASE_URL: copy.url } : {}
    },
    open: (max = 1) => (copy ? openDatabase({ kind: 'postgres', url: copy.url, max }) : openDatabase({ kind: 'pglite', dir: pglite })),
    async drop() {
      await copy?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * The server on `port` with DATA_DIR `dataDir`: `start(env)` spawns it (the test's environment
 * without DATABASE_URL, plus `env`) and waits until /readyz answers 200; `kill` is SIGKILL, `stop`
 * SIGTERM, each waiting for the exit and answering its code; `api` calls its Platform API.
 */
export function spawnedServer({ port, dataDir, logFile, readyMs = 120_000 }: { port: number; dataDir: string; logFile: string; readyMs?: number }) {
  const base = `http://127.0.0.1:${port}`
  let child: ChildProcess | undefined
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null
  const end = async (signal: NodeJS.Signals): Promise<number | null | undefined> => {
    const process = child
    if (!process || !running()) return undefined
    const exited = new Promise<number | null>((resolve) => process.once('exit', resolve))
    process.kill(signal)
    return exited
  }
  /**
   * Waits until /readyz answers 200 (`ms` at most, `readyMs` unless told), naming `what` if it does
   * not; a server that exits meanwhile fails the wait at once, with the end of its log.
   */
  const ready = (what = 'readiness', ms = readyMs) =>
    until(
      () => {
        if (child && !running()) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before ${what}:\n${tail(logFile)}`)
        return fetch(`${base}/readyz`).then(
          (r) => r.status,
          () => 0,
        )
      },
      (s) => s === 200,
      what,
      ms,
    )
  return {
    base,
    running,
    ready,
    /** The process id of the server (the primary, when it runs several processes). */
    get pid() {
      return child?.pid
    },
    async start(env: Record<string, string>) {
      const log = openSync(logFile, 'a')
      const { DATABASE_URL: _ignored, ...inherited } = process.env
      child = spawn(process.execPath, [path.join(ROOT, 'server/main.ts')], {
        cwd: ROOT,
        env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PASSWORD_HASH_COST: '10', ...env },
        stdio: ['ignore', log, log],
      })
      closeSync(log)
      await ready()
    },
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    async api(method: string, urlPath: string, options: { token?: string; body?: unknown } = {}) {
      const response = await fetch(`${base}/v1${urlPath}`, {
        method,
        headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(options.body ? { 'content-type': 'application/json' } : {}) },
        ...(options.body ? { body: JSON.stringify(options.body) } : {}),
      })
      const text = await response.text()
      return { status: response.status, json: text ? JSON.parse(text) : undefined }
    },
  }
}

/** The last lines of a log file, for a failure's message. */
const tail = (file: string, lines = 15) => (existsSync(file) ? readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') : '')
