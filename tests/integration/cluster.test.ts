import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// WEB_CONCURRENCY=2: the real server as two processes on one port (PostgreSQL only: the embedded
// PGlite belongs to one process).
const url = process.env.DATABASE_URL
const ROOT = path.resolve(import.meta.dirname, '../..')
// A port free now (the server is a child process and cannot be asked to pick one and tell us).
const PORT = await new Promise<number>((resolve, reject) => {
  const probe = createNetServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as AddressInfo
    probe.close(() => resolve(port))
  })
  probe.on('error', reject)
})

const children = (pid: number) =>
  spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0)

async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, what: string, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** A cluster of the real server on a new database of its own; `env` is added to the environment. */
function startCluster(env: Record<string, string>) {
  const name = `rp_cluster_${randomBytes(4).toString('hex')}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rp-cluster-'))
  const cluster = {
    name,
    server: undefined as unknown as ChildProcess,
    exited: undefined as unknown as Promise<number | null>,
    async start() {
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      await admin.query(`CREATE DATABASE ${name}`)
      await admin.end()
      const databaseUrl = new URL(url!)
      databaseUrl.pathname = `/${name}`
      cluster.server = spawn(process.execPath, [path.join(ROOT, 'server/main.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl.toString(),
          WEB_CONCURRENCY: '2',
          REGISTRY_MODE: 'none',
          PORT: String(PORT),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          SEED_DEMO: '1',
          ...env,
        },
        stdio: 'ignore',
      })
      cluster.exited = new Promise((resolve) => cluster.server.once('exit', (code) => resolve(code)))
      await until(
        () =>
          fetch(`http://127.0.0.1:${PORT}/readyz`).then(
            (r) => r.status,
            () => 0,
          ),
        (s) => s === 200,
        'readiness',
        90_000,
      )
    },
    /** The server processes the primary forked (not the PowerDNS or Pebble it may run). */
    workers: () => children(cluster.server.pid!).filter((pid) => spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout.includes('server/main.ts')),
    async stop() {
      if (cluster.server.exitCode === null) cluster.server.kill('SIGKILL')
      for (const pid of children(cluster.server.pid!)) spawnSync('kill', ['-9', String(pid)])
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return cluster
}

describe.skipIf(!url)('several server processes (WEB_CONCURRENCY, PostgreSQL)', () => {
  const cluster = startCluster({})

  beforeAll(() => cluster.start(), 120_000)
  afterAll(() => cluster.stop())

  it('serves from two processes, seeded once, replaces one that dies, and stops all on SIGTERM', async () => {
    const { server } = cluster
    const workers = await until(
      () => cluster.workers(),
      (pids) => pids.length === 2,
      'two server processes',
    )
    // Seeded once by the first process (not once per server process).
    const client = new pg.Client({ connectionString: `${url!.replace(/\/[^/]*$/, '')}/${cluster.name}` })
    await client.connect()
    const accounts = await client.query(`SELECT count(*)::int AS n FROM accounts WHERE name = 'Acme Corp'`)
    await client.end()
    expect(accounts.rows[0].n).toBe(1)
    // Requests on fresh connections are answered by both.
    const statuses = await Promise.all(Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${PORT}/healthz`, { headers: { connection: 'close' } }).then((r) => r.status)))
    expect(statuses.every((s) => s === 200)).toBe(true)

    process.kill(workers[0]!, 'SIGKILL')
    const replaced = await until(
      () => cluster.workers(),
      (pids) => pids.length === 2 && !pids.includes(workers[0]!),
      'a replacement process',
    )
    expect(replaced).toContain(workers[1])
    await until(
      () =>
        fetch(`http://127.0.0.1:${PORT}/readyz`).then(
          (r) => r.status,
          () => 0,
        ),
      (s) => s === 200,
      'readiness after the replacement',
    )

    server.kill('SIGTERM')
    expect(await cluster.exited).toBe(0)
    expect(children(server.pid!)).toEqual([])
  }, 90_000)
})

// The local test CA (development, no ACME_DIRECTORY_URL, Pebble installed): one Pebble, started by
// the primary and used by every server process. Each process started its own in the same folder
// before: one of them could not start it, died, and was started again, over and over.
const pebble = spawnSync('sh', ['-c', 'command -v pebble']).status === 0
describe.skipIf(!url || !pebble)('several server processes with the local test CA', () => {
  const cluster = startCluster({ ACME_LOCAL_PEBBLE: '1' })

  beforeAll(() => cluster.start(), 120_000)
  afterAll(() => cluster.stop())

  it('every process offers certificates from the one local CA, and none dies starting it', async () => {
    const workers = await until(
      () => cluster.workers(),
      (pids) => pids.length === 2,
      'two server processes',
    )
    const call = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`http://127.0.0.1:${PORT}${path}`, { ...init, headers: { 'content-type': 'application/json', connection: 'close', ...init.headers } })
      return { status: response.status, json: (await response.json()) as Record<string, unknown> }
    }
    const login = await call('/v1/login', { method: 'POST', body: JSON.stringify({ username: 'admin@acme.example', password: 'portal-demo-2026' }) })
    expect(login.status).toBe(200)
    const authorization = `Bearer ${String(login.json.access_token)}`
    const me = await call('/v1/me', { headers: { authorization } })
    // Fresh connections, so both processes answer.
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(`/v1/groups/${String(me.json.group_id)}/ssl-settings`, { headers: { authorization } })))
    expect(answers.map((a) => [a.status, a.json.ca, a.json.ca_configured])).toEqual(Array.from({ length: 20 }, () => [200, 'Pebble (test CA)', true]))
    // No process was replaced meanwhile; and only one Pebble runs (the primary's).
    expect(cluster.workers().sort()).toEqual([...workers].sort())
    expect(
      spawnSync('pgrep', ['-P', String(cluster.server.pid), '-x', 'pebble'])
        .stdout.toString()
        .trim()
        .split('\n')
        .filter(Boolean),
    ).toHaveLength(1)
  }, 90_000)
})
