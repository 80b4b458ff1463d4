import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, spawnedDatabase, spawnedServer, until } from '../support/spawned-server.ts'

// WEB_CONCURRENCY=2: the real server as two processes on one port (PostgreSQL only: the embedded
// PGlite belongs to one process).
const url = process.env.DATABASE_URL

const children = (pid: number) =>
  spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0)

/**
 * A cluster of the real server on a database of its own (spawnedDatabase: a copy of the run's
 * migrated, empty template), `env` added to its environment; `workers()` are the server processes the primary
 * forked (not the PowerDNS or Pebble it may run beside them).
 */
function serverCluster(env: Record<string, string>) {
  // Made when it starts: a describe that is skipped (no PostgreSQL) leaves nothing behind.
  let database: ReturnType<typeof spawnedDatabase> | undefined
  let server: ReturnType<typeof spawnedServer> | undefined
  const cluster = {
    get server() {
      return server!
    },
    get databaseUrl() {
      return database!.env.DATABASE_URL!
    },
    async start() {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'rp-cluster-'))
      database = spawnedDatabase(dataDir)
      await database.create()
      server = spawnedServer({ port: await freePort(), dataDir, logFile: path.join(dataDir, 'server.log'), readyMs: 90_000 })
      await server.start({ ...database.env, WEB_CONCURRENCY: '2', REGISTRY_MODE: 'none', LOG_LEVEL: 'warn', SEED_DEMO: '1', ...env })
    },
    workers: () => children(server!.pid!).filter((pid) => spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout.includes('server/main.ts')),
    async stop() {
      // What the primary runs (its server processes, a PowerDNS or Pebble) is found before it is
      // killed: after, they belong to init and would be left running.
      const left = server?.pid ? children(server.pid) : []
      await server?.kill()
      for (const pid of left) spawnSync('kill', ['-9', String(pid)])
      await database?.drop()
    },
  }
  return cluster
}

describe.skipIf(!url)('several server processes (WEB_CONCURRENCY, PostgreSQL)', () => {
  const cluster = serverCluster({})

  beforeAll(() => cluster.start(), 120_000)
  afterAll(() => cluster.stop())

  it('serves from two processes, seeded once, replaces one that dies, and stops all on SIGTERM', async () => {
    const { server } = cluster
    const workers = await until(
      () => cluster.workers(),
      (pids) => pids.length === 2,
      'two server processes',
      30_000,
    )
    // Seeded once by the first process (not once per server process).
    const client = new pg.Client({ connectionString: cluster.databaseUrl })
    await client.connect()
    const accounts = await client.query(`SELECT count(*)::int AS n FROM accounts WHERE name = 'Acme Corp'`)
    await client.end()
    expect(accounts.rows[0].n).toBe(1)
    // Requests on fresh connections are answered by both.
    const statuses = await Promise.all(Array.from({ length: 20 }, () => fetch(`${server.base}/healthz`, { headers: { connection: 'close' } }).then((r) => r.status)))
    expect(statuses.every((s) => s === 200)).toBe(true)

    process.kill(workers[0]!, 'SIGKILL')
    const replaced = await until(
      () => cluster.workers(),
      (pids) => pids.length === 2 && !pids.includes(workers[0]!),
      'a replacement process',
      30_000,
    )
    expect(replaced).toContain(workers[1])
    await server.ready('readiness after the replacement', 30_000)

    const primary = server.pid!
    expect(await server.stop()).toBe(0)
    expect(children(primary)).toEqual([])
  }, 90_000)
})

// The local test CA (development, no ACME_DIRECTORY_URL, Pebble installed): one Pebble, started by
// the primary and used by every server process. Each process started its own in the same folder
// before: one of them could not start it, died, and was started again, over and over.
const pebble = spawnSync('sh', ['-c', 'command -v pebble']).status === 0
describe.skipIf(!url || !pebble)('several server processes with the local test CA', () => {
  const cluster = serverCluster({ ACME_LOCAL_PEBBLE: '1' })

  beforeAll(() => cluster.start(), 120_000)
  afterAll(() => cluster.stop())

  it('every process offers certificates from the one local CA, and none dies starting it', async () => {
    const { server } = cluster
    const workers = await until(
      () => cluster.workers(),
      (pids) => pids.length === 2,
      'two server processes',
      30_000,
    )
    const login = await server.api('POST', '/login', { body: { username: 'admin@acme.example', password: 'portal-demo-2026' } })
    expect(login.status).toBe(200)
    const token = String(login.json.access_token)
    const me = await server.api('GET', '/me', { token })
    // Fresh connections, so both processes answer.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${server.base}/v1/groups/${String(me.json.group_id)}/ssl-settings`, { headers: { authorization: `Bearer ${token}`, connection: 'close' } }).then(async (r) => ({
          status: r.status,
          json: (await r.json()) as Record<string, unknown>,
        })),
      ),
    )
    expect(answers.map((a) => [a.status, a.json.ca, a.json.ca_configured])).toEqual(Array.from({ length: 20 }, () => [200, 'Pebble (test CA)', true]))
    // No process was replaced meanwhile; and only one Pebble runs (the primary's).
    expect(cluster.workers().sort()).toEqual([...workers].sort())
    expect(
      spawnSync('pgrep', ['-P', String(server.pid), '-x', 'pebble'])
        .stdout.toString()
        .trim()
        .split('\n')
        .filter(Boolean),
    ).toHaveLength(1)
  }, 90_000)

  it('killed with SIGKILL, the primary takes its server processes and its Pebble along (issue 26)', async () => {
    const { server } = cluster
    const left = children(server.pid!)
    expect(left.length).toBeGreaterThanOrEqual(3)
    expect(await server.kill()).toBe(null)
    // The server processes exit when the primary's channel closes; the Pebble by its parent-death signal.
    await until(
      () => left.filter(alive),
      (running) => running.length === 0,
      'the primary’s processes to end',
      15_000,
    )
  }, 60_000)
})

/** Running (a zombie nobody reaped yet has ended). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}
