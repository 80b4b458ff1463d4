/**
 * What the HTTP benchmarks share: a private copy of the built portal, the real server started from
 * it, sign-in through the /login form, a bounded load loop (wrk when installed), and the 1M-domain
 * PostgreSQL data set of bench:domains (generated once, reusable with --database).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { openDatabase, type Database } from '#server/db/database.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { assignRegistrants, generateContacts, generateDomains } from './list-data.ts'

export const ROOT = path.resolve(import.meta.dirname, '..')
export const OUT = path.join(ROOT, 'bench', 'out')

export const say = (line: string) => console.log(line)
export const uptime = () => spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()
export const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!
export const hasWrk = () => spawnSync('wrk', ['--version']).error === undefined

/** Runs a shell command under /tmp/e2e.lock (the lock the browser tests build and copy under). */
export function locked(command: string): void {
  const result = spawnSync('flock', ['/tmp/e2e.lock', 'sh', '-c', command], { cwd: ROOT, stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`failed: ${command}`)
}

/** A private copy of the built portal, so a rebuild of the shared build/ cannot change it mid-run. */
export function portalCopy(name: string, options: { keepData?: boolean; from?: string } = {}): string {
  const dir = path.join(OUT, name)
  // `from`: another checkout whose build/ is copied instead (bench:render --compare); it is not built here.
  if (options.from === undefined && !existsSync(path.join(ROOT, 'build/server/index.js'))) locked('npm run build')
  if (options.from !== undefined && !existsSync(path.join(options.from, 'build/server/index.js'))) throw new Error(`no build in ${options.from}`)
  if (options.keepData) rmSync(path.join(dir, 'build'), { recursive: true, force: true })
  else rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  locked(`cp -r '${path.join(options.from ?? ROOT, 'build')}' '${dir}/build'`)
  return dir
}

export type Server = { child: ChildProcess; origin: string; stop(): Promise<void> }

/** Starts a Node script and waits until `readyPath` answers 200 (60 s at most, or `timeoutMs`). */
export async function startProcess(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; port: number; readyPath: string; timeoutMs?: number }): Promise<Server> {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'inherit', 'inherit'] })
  const origin = `http://127.0.0.1:${options.port}`
  const timeoutMs = options.timeoutMs ?? 60_000
  const deadline = Date.now() + timeoutMs
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`)
    try {
      const response = await fetch(`${origin}${options.readyPath}`)
      await response.arrayBuffer()
      if (response.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`${args.join(' ')} not ready after ${timeoutMs / 1000} s`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return { child, origin, stop }
}

/**
 * The real server (`node server/main.ts`) from a portal copy in `cwd`. `env` is added to the
 * caller's environment; a key set to undefined is removed from it (NODE_ENV, to run as npm start).
 */
export function startPortal(cwd: string, port: number, env: Record<string, string | undefined>, timeoutMs?: number): Promise<Server> {
  const merged: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: path.join(cwd, 'data'), SESSION_SECRET: randomBytes(32).toString('hex') }
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete merged[key]
    else merged[key] = value
  }
  return startProcess([path.join(ROOT, 'server/main.ts')], { cwd, env: merged, port, readyPath: '/readyz', timeoutMs })
}

export const cookiePairs = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='))

/** Signs in through the real /login form, as a browser would (same-origin POST); the session cookie. */
export async function signIn(origin: string, email: string, password: string, redirectTo = '/domains'): Promise<string> {
  const form = new URLSearchParams({ intent: 'password', username: email, password, redirectTo })
  const response = await fetch(`${origin}/login`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin', origin },
  })
  const cookies = cookiePairs(response)
  if (response.status !== 302 || cookies.length === 0) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`)
  return cookies.join('; ')
}

export type Load = { requests: number; seconds: number; p50: number; p95: number; p99: number; max: number; errors: number; bytes: number }

/**
 * `clients` connections in a bounded loop for `seconds`: wrk (2 threads) when installed, else
 * keep-alive fetch loops here. Only ever aimed at 127.0.0.1. Errors count non-2xx answers too.
 */
export async function load(url: string, headers: Record<string, string>, seconds: number, clients: number): Promise<Load> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(url)) throw new Error(`load only targets 127.0.0.1: ${url}`)
  if (hasWrk()) {
    mkdirSync(OUT, { recursive: true })
    const script = path.join(OUT, 'wrk-report.lua')
    writeFileSync(
      script,
      `done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status
  io.write(string.format('WRK {"requests":%d,"seconds":%f,"p50":%f,"p95":%f,"p99":%f,"max":%f,"errors":%d,"bytes":%d}\\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1e3, latency:percentile(95) / 1e3, latency:percentile(99) / 1e3, latency.max / 1e3, errors, summary.bytes))
end
`,
    )
    const headerArgs = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`])
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', ['-t', '2', '-c', String(clients), '-d', `${seconds}s`, '--timeout', '10s', '-s', script, ...headerArgs, url])
      let out = ''
      child.stdout.on('data', (d: Buffer) => (out += d.toString()))
      child.stderr.on('data', (d: Buffer) => (out += d.toString()))
      child.on('error', reject)
      child.on('exit', () => resolve(out))
    })
    const line = output.split('\n').find((l) => l.startsWith('WRK '))
    if (!line) throw new Error(`wrk gave no report:\n${output}`)
    return JSON.parse(line.slice(4)) as Load
  }
  const timings: number[] = []
  let errors = 0
  let bytes = 0
  const end = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const t = performance.now()
        // No compression, as wrk asks (fetch asks for gzip by default; the baseline never compresses).
        const response = await fetch(url, { headers: { 'accept-encoding': 'identity', ...headers } })
        bytes += (await response.arrayBuffer()).byteLength
        timings.push(performance.now() - t)
        if (response.status !== 200) errors++
      }
    }),
  )
  timings.sort((a, b) => a - b)
  return {
    requests: timings.length,
    seconds: (performance.now() - started) / 1000,
    p50: quantile(timings, 0.5),
    p95: quantile(timings, 0.95),
    p99: quantile(timings, 0.99),
    max: timings.at(-1)!,
    errors,
    bytes,
  }
}

// ---------------------------------------------------------------------------------------------
// The 1M-domain data set of bench:domains.

export const PORTFOLIO_EMAIL = 'bench@portfolio.example'
export const PORTFOLIO_PASSWORD = 'Bench-password-2026!'
const BRANDS = [
  'northwind',
  'contoso',
  'fabrikam',
  'initech',
  'globex',
  'umbrella',
  'hooli',
  'piedpiper',
  'vandelay',
  'wayne',
  'stark',
  'tyrell',
  'soylent',
  'wonka',
  'gringotts',
  'duff',
  'oscorp',
  'cyberdyne',
  'aperture',
  'massive',
]
const BENCH_DATABASE = /^rp_bench_dom_[a-z0-9]+$/

export type PortfolioShape = { domains: number; accounts: number; big: number }
export type BenchDb = { database: Database; name: string; url: string; reused: boolean; drop(keep: boolean): Promise<void> }

/** The URL of database `name` on the server of `url`. */
export function databaseUrl(url: string, name: string): string {
  const target = new URL(url)
  target.pathname = `/${name}`
  return target.toString()
}

/** The bench databases bench:domains kept (`--keep`), newest first. */
export async function keptPortfolioDatabases(url: string): Promise<string[]> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    const result = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'rp\\_bench\\_dom\\_%' ORDER BY oid DESC`)
    return result.rows.map((r) => r.datname).filter((n) => BENCH_DATABASE.test(n))
  } finally {
    await admin.end()
  }
}

/** A new bench database (`rp_bench_dom_…`) on DATABASE_URL's server, or the kept one named `reuse`. */
export async function openPortfolioDatabase(url: string, reuse?: string): Promise<BenchDb> {
  if (reuse !== undefined && !BENCH_DATABASE.test(reuse)) throw new Error('--database takes a name made by bench:domains (rp_bench_dom_…)')
  const name = reuse ?? `rp_bench_dom_${randomBytes(4).toString('hex')}`
  if (!reuse) {
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
  }
  const target = databaseUrl(url, name)
  const database = await openDatabase({ kind: 'postgres', url: target, max: 4 })
  return {
    database,
    name,
    url: target,
    reused: Boolean(reuse),
    async drop(keep) {
      await database.close()
      if (keep || reuse) return say(`kept database ${name} (reuse with --database ${name})`)
      const dropper = new pg.Client({ connectionString: url })
      await dropper.connect()
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}

/**
 * The portfolio: `accounts` accounts, one ("Portfolio Holdings", with the bench user) holding
 * `big` of the `domains`. Accounts and the user go through the services; domains, contacts and
 * registrants through SQL (bench data, without audit entries).
 */
export async function generatePortfolio(database: Database, shape: PortfolioShape): Promise<void> {
  const db = database.db
  const started = performance.now()
  const others = shape.accounts - 1
  const perOther = Math.floor((shape.domains - shape.big) / others)
  for (let a = 0; a < shape.accounts; a++) {
    const big = a === 0
    const brand = BRANDS[a % BRANDS.length]!
    const account = await createAccount(db, systemScope('bench'), { name: big ? 'Portfolio Holdings' : `${brand[0]!.toUpperCase()}${brand.slice(1)} ${a}` })
    if (big) {
      await createUser(db, systemScope('bench', account.id), { account_id: account.id, email: PORTFOLIO_EMAIL, password: PORTFOLIO_PASSWORD, roles: ['account-admin', 'domain-admin'] })
    }
    const count = big ? shape.big : a === shape.accounts - 1 ? shape.domains - shape.big - perOther * (others - 1) : perOther
    // Distinct prefixes keep names unique across accounts (domains_name_key).
    await generateDomains(db, account.id, count, { prefix: big ? '' : `${brand}${a}-`, analyze: false })
    const contacts = await generateContacts(db, account.id, big ? 200 : 20, { emailDomain: `${big ? 'holdings' : brand}.example` })
    await assignRegistrants(db, account.id, contacts)
    process.stdout.write(`\r  generated account ${a + 1}/${shape.accounts} (${count} domains)   `)
  }
  // VACUUM sets the visibility map as autovacuum would on a settled table (index-only scans).
  await database.pool.query('VACUUM ANALYZE domains')
  await database.pool.query('VACUUM ANALYZE domain_contacts')
  await database.pool.query('VACUUM ANALYZE contacts')
  say(`\n  ${shape.domains.toLocaleString('en')} domains over ${shape.accounts} accounts (one with ${shape.big.toLocaleString('en')}) in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}
