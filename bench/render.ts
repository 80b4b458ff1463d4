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
 *   … -- --compare /path/to/other/checkout     # + its build's /domains beside this one's (PGlite)
 *
 * Two baselines, same app, same stack (issue 34): /table, a 25-row table made in memory, and
 * /document, the portal's own signed-in /domains body (captured from the portal at the start of
 * the run, read into a tree of elements, rendered by React from memory: the same elements and text
 * without session, API, database or i18n). /login is compared with /table, each /domains with
 * /document: what a /domains page costs beyond React's render of the same elements is ours.
 *
 * Each round measures both baselines, then every portal page, then both baselines again; a page's
 * ratio is its pages/s over the mean of its baseline's two figures of the round.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { migrate } from '#server/db/migrate.ts'
import {
  cookiePairs,
  generatePortfolio,
  hasWrk,
  locked,
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
import { documentBody, type DocumentNode } from './baseline/document-tree.ts'

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
    compare: { type: 'string' },
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
const TARGETS = { login: 0.7, pglite: 0.5, postgres: 0.4 }
const DOCUMENT_FILE = path.join(OUT, 'baseline-document.json')

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

/** Which baseline a page is compared with. */
type Against = 'table' | 'document'
type Page = { key: string; label: string; server: Server; url: string; headers: Record<string, string>; target?: number; against: Against; bytes?: number; database?: string }

/**
 * The portal's signed-in /domains body as a tree of elements for the baseline's /document
 * (bench/baseline/document-tree.ts), written to bench/out/baseline-document.json.
 */
async function captureDocument(origin: string, cookie: string): Promise<{ bytes: number; elements: number }> {
  const response = await fetch(`${origin}/domains`, { headers: { cookie } })
  const html = await response.text()
  if (response.status !== 200) throw new Error(`capturing /domains: ${response.status}`)
  const tree = documentBody(html)
  mkdirSync(OUT, { recursive: true })
  writeFileSync(DOCUMENT_FILE, JSON.stringify(tree))
  let elements = 0
  const count = (node: DocumentNode) => {
    if (typeof node === 'string') return
    elements++
    node[2].forEach(count)
  }
  tree.forEach(count)
  return { bytes: html.length, elements }
}

async function page(key: string, label: string, server: Server, pathname: string, cookie: string | null, target?: number, database?: string, against: Against = 'table'): Promise<Page> {
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
  return { key, label, server, url, headers, target, against, bytes: body.byteLength, ...(database ? { database } : {}) }
}

const rate = (l: Load) => l.requests / l.seconds

/** The pages with this build's /domains and the --compare build's in each other's place. */
function swapCompared(pages: Page[]): Page[] {
  const a = pages.findIndex((p) => p.key === 'pglite')
  const b = pages.findIndex((p) => p.key === 'compare')
  if (a < 0 || b < 0) return pages
  const out = [...pages]
  ;[out[a], out[b]] = [out[b]!, out[a]!]
  return out
}

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
  let captured: { bytes: number; elements: number } | undefined
  try {
    // The portal as npm start runs it: NODE_ENV unset, the job worker and the embedded registry on.
    // The request log is off (warn) unless --log-level info: one JSON line per request is not the render.
    const asNpmStart = { NODE_ENV: undefined, DATABASE_URL: undefined, WEB_CONCURRENCY: undefined, WORKER: undefined, REGISTRY_MODE: undefined, APP_ENV: undefined, LOG_LEVEL: args['log-level'] }
    if (!args['no-pglite']) {
      // The embedded database keeps its data between runs (the first start seeds the demo data).
      const cwd = portalCopy('render-pglite', { keepData: !args.fresh })
      const fresh = !existsSync(path.join(cwd, 'data'))
      // --compare: the other build on a copy of the same data, copied while no server has it open.
      const other = args.compare ? portalCopy('render-pglite-compare', { from: path.resolve(args.compare) }) : undefined
      if (other && !fresh) locked(`cp -r '${path.join(cwd, 'data')}' '${other}/data'`)
      if (fresh) say('first start of the embedded database: migrating and seeding the demo data')
      const server = await startPortal(cwd, PORT + 1, asNpmStart, fresh ? 300_000 : 120_000)
      servers.push(server)
      const cookie = await signIn(server.origin, DEMO_EMAIL, DEMO_PASSWORD)
      captured = await captureDocument(server.origin, cookie)
      pages.push(await page('login', 'portal /login, PGlite (no data)', server, '/login', null, TARGETS.login))
      pages.push(await page('pglite', 'portal /domains, PGlite demo (25 rows)', server, '/domains', cookie, TARGETS.pglite, undefined, 'document'))
      if (args.compare) {
        // A change measured before/after in the same run: the other checkout's build (the app; the
        // server's own modules are this tree's) on a copy of the same data, its /domains beside this one's.
        const b = await startPortal(other!, PORT + 3, asNpmStart, 300_000)
        servers.push(b)
        const cookieB = await signIn(b.origin, DEMO_EMAIL, DEMO_PASSWORD)
        pages.push(await page('compare', `portal /domains, PGlite, --compare build`, b, '/domains', cookieB, TARGETS.pglite, undefined, 'document'))
      }
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
      captured ??= await captureDocument(server.origin, cookie)
      if (args['no-pglite']) pages.push(await page('login', 'portal /login, PostgreSQL (no data)', server, '/login', null, TARGETS.login))
      pages.push(await page('postgres', 'portal /domains, PostgreSQL 1M (25 rows)', server, '/domains', cookie, TARGETS.postgres, new URL(url).pathname.slice(1), 'document'))
    } else {
      say('PostgreSQL: not measured (set DATABASE_URL to measure /domains on the 1M-domain data)')
    }

    // The baseline app, with the document just captured for its /document.
    const baseline = await startProcess([path.join(BASELINE_DIR, 'server.ts'), String(PORT)], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', ...(captured ? { BASELINE_DOCUMENT: DOCUMENT_FILE } : {}) },
      port: PORT,
      readyPath: '/',
    })
    servers.push(baseline)
    const baselines: Record<Against, Page | undefined> = {
      table: await page('table', 'baseline /table (React Router, 25 rows)', baseline, '/table', null),
      document: captured ? await page('document', 'baseline /document (the portal /domains body)', baseline, '/document', null) : undefined,
    }
    const baselinePages = Object.values(baselines).filter((p): p is Page => p !== undefined)
    if (captured) say(`the portal's /domains captured for /document: ${kb(captured.bytes)}, ${captured.elements} elements in its body`)

    say(
      `settings: portal NODE_ENV unset (as npm start: the server defaults to production), 1 server process each (WEB_CONCURRENCY unset), job worker on, registry local, LOG_LEVEL=${args['log-level']}; baseline NODE_ENV=production`,
    )
    say(`page sizes: ${[...baselinePages, ...pages].map((p) => `${p.key} ${kb(p.bytes)}`).join(', ')}`)
    // Warm-up of every page (JIT, caches, the list engine's key cache) — the portal also settles
    // after its start (the job worker's first runs): a few seconds are not enough for its figures.
    for (const p of [...baselinePages, ...pages]) await load(p.url, p.headers, WARMUP, CLIENTS)

    const results = new Map<string, number[]>()
    for (let round = 1; round <= ROUNDS; round++) {
      say(`\n== round ${round}/${ROUNDS} — load ${uptime()}`)
      const before = new Map<Page, Awaited<ReturnType<typeof measure>>>()
      for (const p of baselinePages) before.set(p, await measure(p))
      const measured: [Page, Load & { cpuMs: number; dbMs: number }][] = []
      // With --compare the two builds' /domains swap places every other round: the one measured
      // second was found dearer by up to 1.5× with the same build on both sides (an A/A run at load 18–27).
      const order = round % 2 === 0 ? swapCompared(pages) : pages
      for (const p of order) measured.push([p, await measure(p)])
      const after = new Map<Page, Awaited<ReturnType<typeof measure>>>()
      for (const p of baselinePages.toReversed()) after.set(p, await measure(p))
      const line = (label: string, l: Load & { cpuMs: number; dbMs: number }, extra = '') =>
        say(
          `${label.padEnd(50)} ${rate(l).toFixed(0).padStart(5)} pages/s  p50 ${l.p50.toFixed(1).padStart(6)} ms  p99 ${l.p99.toFixed(1).padStart(6)} ms  CPU ${l.cpuMs.toFixed(2).padStart(5)} ms${l.dbMs ? ` + PostgreSQL ${l.dbMs.toFixed(2)} ms` : ''}/page  ${l.errors ? `${l.errors} ERRORS  ` : ''}${extra}`,
        )
      for (const p of baselinePages) {
        line(`${p.label} (before)`, before.get(p)!)
        line(`${p.label} (after)`, after.get(p)!)
      }
      const base = (p: Page) => (rate(before.get(p)!) + rate(after.get(p)!)) / 2
      const baseCpu = (p: Page) => (before.get(p)!.cpuMs + after.get(p)!.cpuMs) / 2
      for (const [p, l] of measured) {
        const against = baselines[p.against] ?? baselines.table!
        const ratio = rate(l) / base(against)
        ;(results.get(p.key) ?? results.set(p.key, []).get(p.key)!).push(ratio)
        // The same ratio in CPU a page (its baseline's over its own): steadier than pages/s on a shared machine.
        const cpuRatio = baseCpu(against) / (l.cpuMs + l.dbMs)
        line(
          p.label,
          l,
          `${ratio.toFixed(2)}× /${against.key} (CPU ${cpuRatio.toFixed(2)}×)  ${p.target === undefined ? '' : ratio >= p.target ? `ok (≥ ${p.target}×)` : `MISS (target ≥ ${p.target}×)`}`,
        )
      }
      // What a page may cost at its target, when pages/s follow the CPU a page costs (one process,
      // the same client): its baseline's CPU per page over the ratio.
      say(
        `CPU budget at the targets (the baseline's CPU a page ÷ the target): ${pages
          .filter((p) => p.target !== undefined)
          .map((p) => {
            const against = baselines[p.against] ?? baselines.table!
            return `${p.key} ${p.target}× of /${against.key} (${baseCpu(against).toFixed(2)} ms) → ${(baseCpu(against) / p.target!).toFixed(2)} ms`
          })
          .join(', ')}`,
      )
      const a = measured.find(([p]) => p.key === 'pglite')?.[1]
      const b = measured.find(([p]) => p.key === 'compare')?.[1]
      if (a && b) {
        const ratio = (b.cpuMs / a.cpuMs).toFixed(3)
        ;(results.get('compare-cpu') ?? results.set('compare-cpu', []).get('compare-cpu')!).push(b.cpuMs / a.cpuMs)
        say(`--compare: its /domains costs ${ratio}× this build's CPU a page (${b.cpuMs.toFixed(2)} against ${a.cpuMs.toFixed(2)} ms), ${(rate(b) / rate(a)).toFixed(2)}× its pages/s`)
      }
      say(`load after round ${round}: ${uptime()}`)
    }
    say('\n== ratios to the baseline, every round')
    for (const p of pages) {
      const ratios = results.get(p.key) ?? []
      const all = p.target === undefined || ratios.every((r) => r >= p.target!)
      const against = baselines[p.against] ?? baselines.table!
      say(`${all ? 'ok  ' : 'MISS'} ${p.label.padEnd(50)} ${ratios.map((r) => `${r.toFixed(2)}×`).join('  ')}   of /${against.key}, target ≥ ${p.target}×`)
    }
    const compared = results.get('compare-cpu')
    if (compared) say(`--compare build / this build, CPU a page of /domains: ${compared.map((r) => `${r.toFixed(3)}×`).join('  ')}`)
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
