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

describe.skipIf(!url)('several server processes (WEB_CONCURRENCY, PostgreSQL)', () => {
  const name = `rp_cluster_${randomBytes(4).toString('hex')}`
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rp-cluster-'))
  let server: ChildProcess
  let exited: Promise<number | null>

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const databaseUrl = new URL(url!)
    databaseUrl.pathname = `/${name}`
    server = spawn(process.execPath, [path.join(ROOT, 'server/main.ts')], {
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
      },
      stdio: 'ignore',
    })
    exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)))
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
  }, 120_000)

  afterAll(async () => {
    if (server.exitCode === null) server.kill('SIGKILL')
    for (const pid of children(server.pid!)) spawnSync('kill', ['-9', String(pid)])
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('serves from two processes, seeded once, replaces one that dies, and stops all on SIGTERM', async () => {
    const workers = await until(
      () => children(server.pid!),
      (pids) => pids.length === 2,
      'two server processes',
    )
    // Seeded once by the first process (not once per server process).
    const client = new pg.Client({ connectionString: `${url!.replace(/\/[^/]*$/, '')}/${name}` })
    await client.connect()
    const accounts = await client.query(`SELECT count(*)::int AS n FROM accounts WHERE name = 'Acme Corp'`)
    await client.end()
    expect(accounts.rows[0].n).toBe(1)
    // Requests on fresh connections are answered by both.
    const statuses = await Promise.all(Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${PORT}/healthz`, { headers: { connection: 'close' } }).then((r) => r.status)))
    expect(statuses.every((s) => s === 200)).toBe(true)

    process.kill(workers[0]!, 'SIGKILL')
    const replaced = await until(
      () => children(server.pid!),
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
    expect(await exited).toBe(0)
    expect(children(server.pid!)).toEqual([])
  }, 90_000)
})
