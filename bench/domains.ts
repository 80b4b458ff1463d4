/**
 * Domain portfolio benchmark (issue 6, "Performance"): 1,000,000 domains over 20 accounts (one
 * holding 600,000) in PostgreSQL, then the real built server is started and measured over HTTP.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:domains
 *   … npm run bench:domains -- --seconds 20 --clients 10 --keep       # keep the database
 *   … npm run bench:domains -- --database rp_bench_dom_1a2b3c4d        # reuse a kept one
 *
 * The data set is generated through SQL (INSERT … SELECT generate_series, bench/list-data.ts),
 * not through the services: it is bench data, without audit entries. Accounts and the signed-in
 * user are created through the services. The database is created here and dropped at the end.
 *
 * Figures: render of /domains (p50/p95/p99, pages/s at N clients), the same list from the API
 * (p95 at N clients and one client), page 1 vs page 401 (10,000 rows deep), the count cap, and
 * the gzipped JavaScript of the first load of /domains.
 */
import { spawnSync } from 'node:child_process'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { migrate } from '#server/db/migrate.ts'
import { captureListSql, explain } from './domains-sql.ts'
import {
  cookiePairs,
  generatePortfolio,
  load,
  openPortfolioDatabase,
  portalCopy,
  PORTFOLIO_EMAIL as EMAIL,
  PORTFOLIO_PASSWORD as PASSWORD,
  quantile,
  say,
  signIn,
  startPortal,
  type BenchDb,
} from './portal.ts'

const { values: args } = parseArgs({
  options: {
    domains: { type: 'string', default: '1000000' },
    accounts: { type: 'string', default: '20' },
    big: { type: 'string', default: '600000' },
    seconds: { type: 'string', default: '15' },
    clients: { type: 'string', default: '10' },
    runs: { type: 'string', default: '100' },
    port: { type: 'string', default: '3960' },
    workers: { type: 'string', default: '1' },
    fragment: { type: 'string', default: 'tech' },
    database: { type: 'string' },
    keep: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
  },
})
const DOMAINS = Number(args.domains)
const ACCOUNTS = Number(args.accounts)
const BIG = Number(args.big)
const SECONDS = Number(args.seconds)
const CLIENTS = Number(args.clients)
const RUNS = Number(args.runs)
const PORT = Number(args.port)
const FRAGMENT = args.fragment
if (![DOMAINS, ACCOUNTS, BIG, SECONDS, CLIENTS, RUNS, PORT].every((n) => Number.isInteger(n) && n > 0) || BIG > DOMAINS || ACCOUNTS < 2 || FRAGMENT.length < 3) {
  console.error('usage: npm run bench:domains -- [--domains N] [--accounts A] [--big B] [--seconds S] [--clients C] [--runs R] [--port P] [--fragment abc] [--database NAME] [--keep] [--explain]')
  process.exit(2)
}

// The benchmarked list: name contains a fragment, expiry in 2026, latest expiry first, 25 rows.
const PQL = `name contains '${FRAGMENT}' and expires_at between '2026-01-01,2026-12-31'`
const LIST_QUERY = `pql=${encodeURIComponent(PQL)}&sort=-expires_at`

const ms = (n: number) => `${n.toFixed(1)} ms`

async function openBenchDatabase(): Promise<BenchDb> {
  const url = process.env.DATABASE_URL
  if (!url) {
    console.error('bench:domains measures PostgreSQL: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)')
    process.exit(2)
  }
  return openPortfolioDatabase(url, args.database)
}

async function startServer(databaseUrl: string) {
  const cwd = portalCopy(`portal-${PORT}`)
  return startPortal(cwd, PORT, {
    DATABASE_URL: databaseUrl,
    WORKER: '0',
    WEB_CONCURRENCY: args.workers,
    REGISTRY_MODE: 'none',
    NODE_ENV: 'production',
    APP_ENV: 'bench',
    // One log line per request is measured too at info; warn keeps the figures about the page.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
  })
}

/** One client, `runs` times each (interleaved so both see the same machine), after a warm-up. */
async function sequential(urls: string[], headers: Record<string, string>, runs: number): Promise<number[][]> {
  const timings = urls.map(() => [] as number[])
  for (let run = -5; run < runs; run++) {
    for (const [i, url] of urls.entries()) {
      const t = performance.now()
      const response = await fetch(url, { headers })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`${url}: ${response.status}`)
      if (run >= 0) timings[i]!.push(performance.now() - t)
    }
  }
  return timings.map((t) => t.sort((a, b) => a - b))
}

/** Module scripts and modulepreloads of the HTML, each fetched and gzipped (level 9, like a CDN). */
async function shippedJavaScript(origin: string, html: string, cookie: string): Promise<{ files: number; gzipped: number; raw: number }> {
  const sources = new Set<string>()
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) sources.add(m[1]!)
  for (const m of html.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="modulepreload"/g)) sources.add(m[1]!)
  for (const m of html.matchAll(/<script[^>]+type="module"[^>]*src="([^"]+)"/g)) sources.add(m[1]!)
  // The inline module script imports the entry and the route modules.
  for (const m of html.matchAll(/import\(?\s*["'](\/assets\/[^"']+\.js)["']/g)) sources.add(m[1]!)
  let gzipped = 0
  let raw = 0
  for (const src of sources) {
    const body = Buffer.from(await (await fetch(new URL(src, origin), { headers: { cookie } })).arrayBuffer())
    raw += body.length
    gzipped += gzipSync(body, { level: 9 }).length
  }
  // Inline scripts (the loader data and the module bootstrap) ship too.
  for (const m of html.matchAll(/<script(?![^>]*src=)[^>]*>([\s\S]*?)<\/script>/g)) {
    raw += Buffer.byteLength(m[1]!)
    gzipped += gzipSync(m[1]!, { level: 9 }).length
  }
  return { files: sources.size, gzipped, raw }
}

async function main() {
  say(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`)
  const bench = await openBenchDatabase()
  const { database } = bench
  let server: Awaited<ReturnType<typeof startServer>> | undefined
  try {
    await migrate(database)
    if (!bench.reused) await generatePortfolio(database, { domains: DOMAINS, accounts: ACCOUNTS, big: BIG })
    else await database.pool.query('ANALYZE domains')
    const owner = await database.db.selectFrom('users').select(['account_id']).where('email', '=', EMAIL).executeTakeFirstOrThrow()
    const accountId = owner.account_id!
    const big = await sql<{ n: number }>`SELECT count(*)::int AS n FROM domains WHERE account_id = ${accountId}`.execute(database.db)
    const matching = await sql<{
      n: number
    }>`SELECT count(*)::int AS n FROM domains WHERE account_id = ${accountId} AND name ILIKE ${`%${FRAGMENT}%`} AND expires_at >= '2026-01-01' AND expires_at < '2027-01-01'`.execute(database.db)
    say(`database ${bench.name}: big account ${big.rows[0]!.n.toLocaleString('en')} domains; the list matches ${matching.rows[0]!.n.toLocaleString('en')} of them`)
    say(`list: ${PQL}, sort -expires_at, 25 rows`)

    if (args.explain) {
      for (const page of [1, 401]) {
        const queries = await captureListSql(database, `${LIST_QUERY}&limit=25&page=${page}`, accountId)
        for (const q of queries) say(`\n--- EXPLAIN ANALYZE page ${page}:\n${q.sql}\n${await explain(database, q, { analyze: true })}`)
      }
    }

    server = await startServer(bench.url)
    const { origin } = server
    const cookie = await signIn(origin, EMAIL, PASSWORD)

    // First load: the page, its cap line and its JavaScript.
    const pageUrl = `${origin}/domains?${LIST_QUERY}`
    const first = await fetch(pageUrl, { headers: { cookie } })
    const html = await first.text()
    if (first.status !== 200) throw new Error(`/domains answered ${first.status}: ${html.slice(0, 500)}`)
    // The list remembers its filters in a cookie; a browser sends it back from then on.
    const browserCookie = [cookie, ...cookiePairs(first)].join('; ')
    const rowsShown = (html.match(/data-testid="domain-link"/g) ?? []).length
    const cappedShown = /data-testid="list-total-capped"[^>]*>[^<]*10,000\+/.test(html)
    const js = await shippedJavaScript(origin, html, cookie)

    // The API: a bearer token from /v1/login.
    const login = await fetch(`${origin}/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: EMAIL, password: PASSWORD }) })
    const token = ((await login.json()) as { access_token?: string }).access_token
    if (!token) throw new Error(`API login failed: ${login.status}`)
    const bearer = { authorization: `Bearer ${token}` }
    const api = (page: number, query = LIST_QUERY) => `${origin}/v1/groups/${accountId}/domains?${query}&limit=25&page=${page}`
    const metaOf = async (url: string) => {
      const body = (await (await fetch(url, { headers: bearer })).json()) as { data: unknown[]; meta: { total: number; total_capped?: boolean; page: number } }
      return { rows: body.data.length, ...body.meta }
    }
    const caps = {
      filtered: await metaOf(api(1)),
      deep: await metaOf(api(401)),
      unfiltered: await metaOf(api(1, 'sort=name')),
    }

    say(`uptime before load: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`)
    await load(pageUrl, { cookie: browserCookie }, 2, CLIENTS) // warm-up
    const render = await load(pageUrl, { cookie: browserCookie }, SECONDS, CLIENTS)
    await load(api(1), bearer, 2, CLIENTS) // warm-up, as for the render
    const apiLoad = await load(api(1), bearer, SECONDS, CLIENTS)
    const apiDeepLoad = await load(api(401), bearer, SECONDS, CLIENTS)
    // The floor of a server render on this machine: the sign-in page, no data, no session.
    const floor = await load(`${origin}/login`, {}, SECONDS, CLIENTS)
    const [one, deep] = await sequential([api(1), api(401)], bearer, RUNS)
    const [renderOne] = await sequential([pageUrl], { cookie: browserCookie }, Math.max(20, Math.floor(RUNS / 2)))

    const mark = (ok: boolean) => (ok ? 'ok  ' : 'MISS')
    say(`\n== results (${args.workers} server process(es), ${CLIENTS} clients, ${SECONDS} s each${spawnSync('wrk', ['--version']).error === undefined ? ', wrk' : ', fetch loops'}) ==`)
    say(`${mark(render.p95 <= 40)} render /domains      p50 ${ms(render.p50)}  p95 ${ms(render.p95)}  p99 ${ms(render.p99)}  max ${ms(render.max)}   target p95 ≤ 40 ms`)
    say(
      `${mark(render.requests / render.seconds >= 400)} render throughput    ${(render.requests / render.seconds).toFixed(0)} pages/s (${render.requests} in ${render.seconds.toFixed(1)} s, ${render.errors} errors)   target ≥ 400`,
    )
    say(`     render floor      /login (no data, no session): p50 ${ms(floor.p50)}  p95 ${ms(floor.p95)}  ${(floor.requests / floor.seconds).toFixed(0)} pages/s`)
    say(`     render, 1 client  p50 ${ms(quantile(renderOne!, 0.5))}  p95 ${ms(quantile(renderOne!, 0.95))}`)
    say(
      `${mark(apiLoad.p95 <= 15)} API page 1          p50 ${ms(apiLoad.p50)}  p95 ${ms(apiLoad.p95)}  p99 ${ms(apiLoad.p99)}  ${(apiLoad.requests / apiLoad.seconds).toFixed(0)} req/s (${apiLoad.errors} errors)   target p95 ≤ 15 ms`,
    )
    say(
      `     API page 401        p50 ${ms(apiDeepLoad.p50)}  p95 ${ms(apiDeepLoad.p95)}  p99 ${ms(apiDeepLoad.p99)}  ${(apiDeepLoad.requests / apiDeepLoad.seconds).toFixed(0)} req/s (${apiDeepLoad.errors} errors)`,
    )
    say(`     API, 1 client       page 1 p50 ${ms(quantile(one!, 0.5))} p95 ${ms(quantile(one!, 0.95))}; page 401 p50 ${ms(quantile(deep!, 0.5))} p95 ${ms(quantile(deep!, 0.95))}`)
    const ratio = quantile(deep!, 0.5) / quantile(one!, 0.5)
    const ratioLoaded = apiDeepLoad.p50 / apiLoad.p50
    say(`${mark(ratio <= 2)} deep page ratio     ${ratio.toFixed(2)}× (1 client, p50), ${ratioLoaded.toFixed(2)}× (${CLIENTS} clients, p50)   target ≤ 2×`)
    const capOk = caps.filtered.total === 10_000 && caps.filtered.total_capped === true && caps.unfiltered.total === 10_000 && caps.unfiltered.total_capped === true && caps.deep.rows === 25
    say(
      `${mark(capOk && cappedShown)} count cap           filtered ${caps.filtered.total}${caps.filtered.total_capped ? '+' : ''}, unfiltered ${caps.unfiltered.total}${caps.unfiltered.total_capped ? '+' : ''}, page 401 has ${caps.deep.rows} rows; screen shows "10,000+": ${cappedShown} (${rowsShown} rows)`,
    )
    say(
      `${mark(js.gzipped <= 150 * 1024)} first-load JS       ${(js.gzipped / 1024).toFixed(1)} KB gzipped (${(js.raw / 1024).toFixed(1)} KB raw, ${js.files} module files + inline scripts)   target ≤ 150 KB`,
    )
    say(`uptime after: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`)
  } finally {
    await server?.stop()
    await bench.drop(args.keep)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
