import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { onceUnderLock } from '../support/file-lock.ts'
import { SERVER_ENV } from './env.ts'

// Every e2e portal server starts from a copy of one migrated and seeded data folder (database,
// local registry, secret) instead of migrating and seeding its own: the template is made once by
// the real server (server/main.ts on an empty folder, then stopped), and kept between runs for as
// long as the code it comes from is unchanged (a hash of server/, app/lib/, the lock file and
// these files) and it is less than a day old. The integration tests that start a seeded server on
// PGlite copy the same folder (tests/support/spawned-server.ts), so a run seeds the demo once. No
// Playwright import here: the launcher runs without it.

const SOURCES = ['server', 'app/lib', 'package-lock.json', 'tests/e2e/template.ts', 'tests/e2e/env.ts']
const MAX_AGE_MS = 24 * 3600_000
const READY_TIMEOUT_MS = 180_000
const DONE = '.template-complete'

function hashSources(): string {
  const hash = createHash('sha256')
  const visit = (entry: string) => {
    const stat = statSync(entry)
    if (stat.isDirectory()) {
      for (const name of readdirSync(entry).sort()) visit(path.join(entry, name))
    } else {
      hash.update(entry).update('\0').update(readFileSync(entry)).update('\0')
    }
  }
  for (const source of SOURCES) visit(source)
  hash.update(JSON.stringify(SERVER_ENV))
  return hash.digest('hex').slice(0, 16)
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/**
 * A private copy of the built portal in `dir`/build, taken under /tmp/e2e.lock (the lock builds
 * and copies of build/ share, see package.json and bench/portal.ts): a rebuild of the shared
 * build/ during a run would otherwise pull the pages' scripts from under the servers. Servers
 * started with `dir` as their working folder (server/main.ts reads build/ from there) use it.
 */
export function snapshotBuild(dir: string) {
  mkdirSync(dir, { recursive: true })
  const copy = `rm -rf '${dir}/build' && cp -r build '${dir}/build'`
  const locked = spawnSync('flock', ['/tmp/e2e.lock', 'sh', '-c', copy], { stdio: 'inherit' })
  const result = locked.error ? spawnSync('sh', ['-c', copy], { stdio: 'inherit' }) : locked
  if (result.status !== 0) throw new Error(`could not copy build/ to ${dir}`)
}

/** The real server, server/main.ts of this checkout, run in `cwd` (where it finds its build/). */
export function spawnServer(cwd: string, env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, [path.resolve('server/main.ts')], { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] })
}

/** Runs server/main.ts on an empty folder until it is ready (migrated, seeded, registry preloaded), then stops it. */
async function seedInto(dir: string, cwd: string) {
  const port = await freePort()
  const server = spawnServer(cwd, { ...process.env, ...SERVER_ENV, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, WORKER: '0' })
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)))
  const deadline = Date.now() + READY_TIMEOUT_MS
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status,
      () => 0,
    )
    if (status === 200) break
    if (server.exitCode !== null) throw new Error(`the template server exited with code ${server.exitCode}`)
    if (Date.now() > deadline) {
      server.kill('SIGKILL')
      throw new Error(`the template server was not ready within ${READY_TIMEOUT_MS} ms`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  // A clean stop: PGlite writes its folder out as it closes.
  server.kill('SIGTERM')
  const code = await exited
  if (code !== 0) throw new Error(`the template server stopped with code ${code}`)
}

/** The seeded template folder for the code as it is now, made when missing or stale (by a server run in `cwd`). Returns its path. */
export async function ensureTemplate(cwd: string): Promise<string> {
  const dir = path.resolve(`data/e2e-template-${hashSources()}`)
  const done = path.join(dir, DONE)
  const fresh = () => existsSync(done) && Date.now() - statSync(done).mtimeMs < MAX_AGE_MS
  if (fresh()) return dir
  mkdirSync(path.dirname(dir), { recursive: true })
  // The e2e launcher and the integration tests that start a seeded server ask at the same time in .ci/run: one seeds, the others wait.
  await onceUnderLock(`${dir}.lock`, fresh, () => makeTemplate(dir, cwd), 2 * READY_TIMEOUT_MS)
  return dir
}

/** Seeds the template `dir` anew (by a server run in `cwd`) and removes the templates of other code. */
async function makeTemplate(dir: string, cwd: string) {
  const started = Date.now()
  const building = `${dir}.building-${process.pid}`
  rmSync(building, { recursive: true, force: true })
  try {
    await seedInto(building, cwd)
    writeFileSync(path.join(building, DONE), new Date().toISOString())
    rmSync(dir, { recursive: true, force: true })
    renameSync(building, dir)
  } finally {
    rmSync(building, { recursive: true, force: true })
  }
  // Templates of other code are of no more use.
  for (const name of readdirSync('data')) {
    if (name.startsWith('e2e-template-') && path.resolve('data', name) !== dir && !name.includes('.building-') && !name.endsWith('.lock'))
      rmSync(path.resolve('data', name), { recursive: true, force: true })
  }
  console.log(`e2e: seeded template made in ${((Date.now() - started) / 1000).toFixed(1)} s (${path.relative('.', dir)})`)
}

/** Replaces `dataDir` with a copy of the seeded template. */
export async function prepareDataDir(dataDir: string, cwd: string) {
  const template = await ensureTemplate(cwd)
  rmSync(dataDir, { recursive: true, force: true })
  cpSync(template, dataDir, { recursive: true })
  rmSync(path.join(dataDir, DONE), { force: true })
}
