/**
 * Server render against React Router's own (issue 13, "A server render close to React Router's
 * own"): side by side in one run, the baseline app of bench/baseline (React Router 8.4, Hono's
 * node server + createRequestHandler, a 25-row table) and the portal as `npm start` runs it
 * (NODE_ENV unset: the server's own default), on the embedded PGlite with the demo data and on
 * PostgreSQL with the 1M-domain data of bench:domains.
 *
 *   npm run bench:render
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:render     # + PostgreSQL
 *   … -- --rounds 3 --seconds 10 --clients 10 --database rp_bench_dom_1a2b3c4d
 *
 * Each round measures the baseline, then every portal page, then the baseline again; a page's
 * ratio is its pages/s over the mean of the two baseline figures of its round.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { migrate } from '#server/db/migrate.ts'
import {
  cookiePairs,
  generatePortfolio,
  hasWrk,
  keptPortfolioDatabases,
  load,
  OUT,
  openPortfolioDatabase,
  portalCopy,
  PORTFOLIO_EMAIL,
  PORTFOLIO_PASSWORD,
  ROOT,
  say,
  signIn,
  startPortal,
  startProcess,
  uptime,
  type Load,
  type Server,
} from './portal.ts'
import { cpuSeconds } from './process-cpu.ts'

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    clients: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '15' },
    port: { type: 'string', default: '3970' },
    database: { type: 'string' },
    'no-postgres': { type: 'boolean', default: false },
    'no-pglite': { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
    'log-level': { type: 'string', default: 'warn' },
  },
})
const SECONDS = Number(args.seconds)
const CLIENTS = Number(args.clients)
const ROUNDS = Number(args.rounds)
const WARMUP = Number(args.warmup)
const PORT = Number(args.port)
if (![SECONDS, CLIENTS, ROUNDS, PORT, WARMUP].every((n) => Number.isInteger(n) && n > 0) || SECONDS > 120 || WARMUP > 120 || ROUNDS > 10 || CLIENTS > 100) {
  console.error(
    'usage: npm run bench:render -- [--seconds S ≤ 120] [--warmup W ≤ 120] [--clients C ≤ 100] [--rounds R ≤ 10] [--port P] [--database rp_bench_dom_…] [--no-postgres] [--no-pglite] [--fresh] [--log-level warn]',
  )
  process.exit(2)
}

const DEMO_EMAIL = 'admin@acme.example'
const DEMO_PASSWORD = 'portal-demo-2026'
const BASELINE_DIR = path.join(ROOT, 'bench', 'baseline')
const BASELINE_OUT = path.join(OUT, 'baseline')
const TARGETS = { login: 0.7, pglite: 0.2, postgres: 0.3 }

/** Builds the baseline app into bench/out/baseline when a source is newer than its build. */
function buildBaseline(): void {
  const built = path.join(BASELINE_OUT, 'server', 'index.js')
  const newest = (dir: string): number =>
    Math.max(
      ...readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.name !== '.react-router')
        .map((e) => (e.isDirectory() ? newest(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).mtimeMs)),
    )
  if (existsSync(built) && statSync(built).mtimeMs > newest(BASELINE_DIR)) return
  say('building the baseline (bench/baseline → bench/out/baseline)')
  // The baseline has its own entry.server.tsx: without one, `react-router build` would add isbot
  // to the project's package.json and run npm install.
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/@react-router/dev/bin.cjs'), 'build', BASELINE_DIR], { cwd: ROOT, stdio: 'inherit' })
  if (result.status !== 0) throw new Error('the baseline build failed')
}

type Page = { key: string; label: string; server: Server; url: string; headers: Record<string, string>; target?: number; bytes?: number; database?: string }

async function page(key: string, label: string, server: Server, pathname: string, cookie: string | null, target?: number, database?: string): Promise<Page> {
  const url = `${server.origin}${pathname}`
  const headers: Record<string, string> = cookie ? { cookie } : {}
  const response = await fetch(url, { headers, redirect: 'manual' })
  const body = await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`${label}: ${url} answered ${response.status}`)
  // The list remembers its filters in a cookie; a browser sends it back from then on.
  const extra = cookiePairs(response)
  if (cookie && extra.length) headers.cookie = [cookie, ...extra].join('; ')
  if (/data-testid="domain-link"/.test(label) === false && pathname.startsWith('/domains')) {
    const rows = (new TextDecoder().decode(body).match(/data-testid="domain-link"/g) ?? []).length
    if (rows !== 25) throw new Error(`${label}: ${rows} rows on the page, expected 25`)
  }
  return { key, label, server, url, headers, target, bytes: body.byteLength, ...(database ? { database } : {}) }
}

const rate = (l: Load) => l.requests / l.seconds

/** CPU seconds of the PostgreSQL backends serving one database (their titles name it). */
function backendCpuSeconds(database: string | undefined): number {
  if (!database) return 0
  const pids = spawnSync('pgrep', ['-f', `postgres: .* ${database} `], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
  return pids.reduce((sum, pid) => sum + cpuSeconds(Number(pid)), 0)
}

/** A load on one page, with the CPU its server (and its database's backends) spent per page. */
async function measure(p: Page): Promise<Load & { cpuMs: number; dbMs: number }> {
  const [cpu0, db0] = [cpuSeconds(p.server.child.pid), backendCpuSeconds(p.database)]
  const l = await load(p.url, p.headers, SECONDS, CLIENTS)
  const [cpu1, db1] = [cpuSeconds(p.server.child.pid), backendCpuSeconds(p.database)]
  return { ...l, cpuMs: ((cpu1 - cpu0) * 1000) / Math.max(1, l.requests), dbMs: ((db1 - db0) * 1000) / Math.max(1, l.requests) }
}
const kb = (n: number | undefined) => (n === undefined ? '' : `${(n / 1024).toFixed(1)} KB`)

async function main() {
  const postgresUrl = args['no-postgres'] ? undefined : process.env.DATABASE_URL
  say(
    `bench:render — ${ROUNDS} round(s), ${CLIENTS} connections, ${SECONDS} s per page after ${WARMUP} s of warm-up each, ${hasWrk() ? 'wrk -t 2' : 'fetch loops (install wrk for lower client cost)'}, 127.0.0.1 only`,
  )
  say(`load at start: ${uptime()}`)
  buildBaseline()
  const servers: Server[] = []
  const pages: Page[] = []
  let keptDatabase: Awaited<ReturnType<typeof openPortfolioDatabase>> | undefined
  try {
    const baseline = await startProcess([path.join(BASELINE_DIR, 'server.ts'), String(PORT)], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      port: PORT,
      readyPath: '/',
    })
    servers.push(baseline)
    const baselinePage = await page('baseline', 'baseline /table (React Router, 25 rows)', baseline, '/table', null)

    // The portal as npm start runs it: NODE_ENV unset, the job worker and the embedded registry on.
    // The request log is off (warn) unless --log-level info: one JSON line per request is not the render.
    const asNpmStart = { NODE_ENV: undefined, DATABASE_URL: undefined, WEB_CONCURRENCY: undefined, WORKER: undefined, REGISTRY_MODE: undefined, APP_ENV: undefined, LOG_LEVEL: args['log-level'] }
    if (!args['no-pglite']) {
      // The embedded database keeps its data between runs (the first start seeds the demo data).
      const cwd = portalCopy('render-pglite', { keepData: !args.fresh })
      const fresh = !existsSync(path.join(cwd, 'data'))
      if (fresh) say('first start of the embedded database: migrating and seeding the demo data')
      const server = await startPortal(cwd, PORT + 1, asNpmStart, fresh ? 300_000 : 120_000)
      servers.push(server)
      const cookie = await signIn(server.origin, DEMO_EMAIL, DEMO_PASSWORD)
      pages.push(await page('login', 'portal /login, PGlite (no data)', server, '/login', null, TARGETS.login))
      pages.push(await page('pglite', 'portal /domains, PGlite demo (25 rows)', server, '/domains', cookie, TARGETS.pglite))
    }
    if (postgresUrl) {
      const kept = args.database ?? (await keptPortfolioDatabases(postgresUrl))[0]
      keptDatabase = await openPortfolioDatabase(postgresUrl, kept)
      await migrate(keptDatabase.database)
      if (!keptDatabase.reused) {
        say(`generating the 1M-domain data of bench:domains into ${keptDatabase.name} (kept for later runs)`)
        await generatePortfolio(keptDatabase.database, { domains: 1_000_000, accounts: 20, big: 600_000 })
      }
      say(`PostgreSQL: ${keptDatabase.name} (1M domains, the signed-in account holds 600,000)`)
      const url = keptDatabase.url
      await keptDatabase.drop(true)
      keptDatabase = undefined
      const cwd = portalCopy('render-postgres')
      const server = await startPortal(cwd, PORT + 2, { ...asNpmStart, DATABASE_URL: url })
      servers.push(server)
      const cookie = await signIn(server.origin, PORTFOLIO_EMAIL, PORTFOLIO_PASSWORD)
      if (args['no-pglite']) pages.push(await page('login', 'portal /login, PostgreSQL (no data)', server, '/login', null, TARGETS.login))
      pages.push(await page('postgres', 'portal /domains, PostgreSQL 1M (25 rows)', server, '/domains', cookie, TARGETS.postgres, new URL(url).pathname.slice(1)))
    } else {
      say('PostgreSQL: not measured (set DATABASE_URL to measure /domains on the 1M-domain data)')
    }

    say(
      `settings: portal NODE_ENV unset (as npm start: the server defaults to production), 1 server process each (WEB_CONCURRENCY unset), job worker on, registry local, LOG_LEVEL=${args['log-level']}; baseline NODE_ENV=production`,
    )
    say(`page sizes: ${[baselinePage, ...pages].map((p) => `${p.key} ${kb(p.bytes)}`).join(', ')}`)
    // Warm-up of every page (JIT, caches, the list engine's key cache) — the portal also settles
    // after its start (the job worker's first runs): a few seconds are not enough for its figures.
    for (const p of [baselinePage, ...pages]) await load(p.url, p.headers, WARMUP, CLIENTS)

    const results = new Map<string, number[]>()
    for (let round = 1; round <= ROUNDS; round++) {
      say(`\n== round ${round}/${ROUNDS} — load ${uptime()}`)
      const before = await measure(baselinePage)
      const measured: [Page, Load & { cpuMs: number; dbMs: number }][] = []
      for (const p of pages) measured.push([p, await measure(p)])
      const after = await measure(baselinePage)
      const base = (rate(before) + rate(after)) / 2
      const line = (label: string, l: Load & { cpuMs: number; dbMs: number }, extra = '') =>
        say(
          `${label.padEnd(44)} ${rate(l).toFixed(0).padStart(5)} pages/s  p50 ${l.p50.toFixed(1).padStart(6)} ms  p99 ${l.p99.toFixed(1).padStart(6)} ms  CPU ${l.cpuMs.toFixed(2).padStart(5)} ms${l.dbMs ? ` + PostgreSQL ${l.dbMs.toFixed(2)} ms` : ''}/page  ${l.errors ? `${l.errors} ERRORS  ` : ''}${extra}`,
        )
      line(`${baselinePage.label} (before)`, before)
      line(`${baselinePage.label} (after)`, after)
      for (const [p, l] of measured) {
        const ratio = rate(l) / base
        ;(results.get(p.key) ?? results.set(p.key, []).get(p.key)!).push(ratio)
        line(p.label, l, `${ratio.toFixed(2)}× baseline  ${p.target === undefined ? '' : ratio >= p.target ? `ok (≥ ${p.target}×)` : `MISS (target ≥ ${p.target}×)`}`)
      }
      // What a page may cost at its target, when pages/s follow the CPU a page costs (one process,
      // the same client): the baseline's CPU per page over the ratio.
      const baseCpu = (before.cpuMs + after.cpuMs) / 2
      say(
        `CPU budget at the targets (the baseline's ${baseCpu.toFixed(2)} ms a page ÷ the ratio): ${[...new Set(pages.map((p) => p.target).filter((t) => t !== undefined))].map((t) => `${t}× → ${(baseCpu / t!).toFixed(2)} ms`).join(', ')}`,
      )
      say(`load after round ${round}: ${uptime()}`)
    }
    say('\n== ratios to the baseline, every round')
    for (const p of pages) {
      const ratios = results.get(p.key) ?? []
      const all = p.target === undefined || ratios.every((r) => r >= p.target!)
      say(`${all ? 'ok  ' : 'MISS'} ${p.label.padEnd(44)} ${ratios.map((r) => `${r.toFixed(2)}×`).join('  ')}   target ≥ ${p.target}×`)
    }
    say(`load at end: ${uptime()}`)
  } finally {
    for (const server of servers.reverse()) await server.stop()
    await keptDatabase?.drop(true)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
