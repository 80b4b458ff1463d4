/**
 * List engine benchmark: N domains (default 200,000) in one account, then the Platform API list
 * call timed for page 1 and a deep page.
 *
 *   npm run bench:list                       # embedded PGlite, 200k domains
 *   npm run bench:list -- --domains 50000 --runs 50
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:list
 *
 * On PostgreSQL a database of its own (rp_bench_…) is created and dropped at the end.
 */
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { createRoute, z } from '@hono/zod-openapi'
import pg from 'pg'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'
import { createJobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import { createMailer } from '#server/integrations/mail/mailer.ts'
import { createPlatformApi } from '#server/platform/api.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { ListQueryParams } from '#server/platform/core/openapi.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { listQueryFromUrl, runList, type ListResource } from '#server/platform/list/engine.ts'
import { createUser } from '#server/platform/users/service.ts'
import { generateDomains } from './list-data.ts'

const { values: args } = parseArgs({
  options: {
    domains: { type: 'string', default: '200000' },
    runs: { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
  },
})
const DOMAINS = Number(args.domains)
const RUNS = Number(args.runs)
if (!Number.isInteger(DOMAINS) || DOMAINS < 1 || !Number.isInteger(RUNS) || RUNS < 1) {
  console.error('usage: npm run bench:list -- [--domains N] [--runs R] [--keep]')
  process.exit(2)
}

// Used only when the API has no domains list yet; it declares the same shape a production one would.
const domainsResource: ListResource = {
  name: 'domains',
  from: 'domains d',
  accountColumn: 'd.account_id',
  where: "d.status <> 'deleted'",
  tiebreak: 'd.id',
  defaultSort: 'created_at',
  fields: {
    id: { type: 'uuid', column: 'd.id', filterable: true },
    name: { type: 'text', column: 'd.name', filterable: true, sortable: true },
    tld: { type: 'text', column: 'd.tld', filterable: true, sortable: true },
    status: { type: 'enum', column: 'd.status', filterable: true, sortable: true, choices: ['pending', 'active', 'expired', 'redemption', 'pending-delete', 'transferring'] },
    expires_at: { type: 'timestamp', column: 'd.expires_at', filterable: true, sortable: true },
    auto_renew: { type: 'boolean', column: 'd.auto_renew', filterable: true },
    tags: { type: 'tags', column: 'd.tags', filterable: true },
    created_at: { type: 'timestamp', column: 'd.created_at', filterable: true, sortable: true },
  },
}

async function openBenchDatabase(): Promise<{ database: Database; label: string; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL
  if (!url) {
    const database = await openDatabase({ kind: 'pglite' })
    return { database, label: 'PGlite (in memory)', drop: () => database.close() }
  }
  const name = `rp_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  const database = await openDatabase({ kind: 'postgres', url: target.toString(), max: 4 })
  return {
    database,
    label: `PostgreSQL ${target.host}/${name}`,
    async drop() {
      await database.close()
      if (args.keep) return console.log(`kept database ${name}`)
      const dropper = new pg.Client({ connectionString: url })
      await dropper.connect()
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await dropper.end()
    },
  }
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
const ms = (n: number) => `${n.toFixed(1)} ms`

async function main() {
  const { database, label, drop } = await openBenchDatabase()
  try {
    await migrate(database)
    const logger = createLogger('silent')
    const jobs = createJobs(database, logger)
    const config = { APP_ENV: 'bench', BODY_LIMIT_BYTES: 1_048_576, SUPPORT_EMAIL: 'support@registrar.example', MAIL_FROM: 'Bench <bench@registrar.example>' } as PlatformDeps['config']
    const deps = { config, database, db: database.db, logger, jobs, now: () => new Date(), mailer: createMailer(config as never, logger) } as PlatformDeps
    const api = createPlatformApi(deps)

    const account = await createAccount(database.db, systemScope('bench'), { name: 'Bench Corp' })
    const noise = await createAccount(database.db, systemScope('bench'), { name: 'Other Corp' })
    await createUser(database.db, systemScope('bench', account.id), { account_id: account.id, email: 'bench@bench.example', password: 'bench-password-2026', roles: ['account-admin', 'domain-admin'] })

    let started = performance.now()
    await generateDomains(database.db, account.id, DOMAINS)
    await generateDomains(database.db, noise.id, Math.ceil(DOMAINS / 10), { prefix: 'other-' })
    console.log(`${label}: generated ${DOMAINS} domains (+${Math.ceil(DOMAINS / 10)} in another account) in ${((performance.now() - started) / 1000).toFixed(1)} s`)

    let base = `/groups/${account.id}/domains`
    // Routes can only be added before the first request: decide now.
    if (!api.routes.some((r) => r.method === 'GET' && r.path === '/v1/groups/:context/domains')) {
      // No production domains list yet: time the same engine behind a router like any other.
      api.route(
        '/',
        createRouter().openapi(
          createRoute({
            method: 'get',
            path: '/groups/{context}/bench-domains',
            request: { params: z.object({ context: z.string() }), query: ListQueryParams },
            responses: { 200: { description: 'A page' } },
          }),
          async (c) => {
            const scope = requireScope(c, c.req.valid('param').context)
            return c.json((await runList(c.get('deps').db, domainsResource, listQueryFromUrl(domainsResource, new URL(c.req.url)), scope)) as never, 200)
          },
        ),
      )
      base = `/groups/${account.id}/bench-domains`
      console.log('(no /v1/groups/{context}/domains route yet: timing the engine behind a bench route)')
    }

    const call = async (path: string, init: RequestInit = {}) => {
      const response = await api.fetch(new Request(`http://bench.local/v1${path}`, init))
      return { status: response.status, json: (await response.json()) as any }
    }
    const login = await call('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench@bench.example', password: 'bench-password-2026' }) })
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.json)}`)
    const headers = { authorization: `Bearer ${login.json.access_token}` }

    const filter = encodeURIComponent("name contains 'tech' and expires_at between '2026-01-01,2026-12-31'")
    const scenarios: { name: string; query: string }[] = [
      { name: 'filter + sort, page 1', query: `pql=${filter}&sort=-expires_at,name&limit=25` },
      { name: 'filter + sort, deep page', query: `pql=${filter}&sort=-expires_at,name&limit=25&page=DEEP` },
      { name: 'no filter, sort name, page 1', query: 'sort=name&limit=25' },
      { name: 'no filter, sort name, deep page', query: 'sort=name&limit=25&page=DEEP' },
      { name: 'legacy filter[name]=*acme*, page 1', query: `${encodeURIComponent('filter[name]')}=${encodeURIComponent('*acme*')}&sort=-created_at&limit=100` },
    ]

    console.log(`\n${RUNS} runs each (after 3 warm-up runs), through the Platform API in process:\n`)
    console.log(['scenario'.padEnd(36), 'total'.padStart(8), 'page'.padStart(6), 'p50'.padStart(10), 'p95'.padStart(10), 'max'.padStart(10)].join(' '))
    for (const scenario of scenarios) {
      let query = scenario.query
      if (query.includes('DEEP')) {
        const first = await call(`${base}?${query.replace('DEEP', '1')}`, { headers })
        // Past the count cap the total is unknown; every generated row matches an unfiltered list.
        const total = first.json.meta.total_capped ? DOMAINS : first.json.meta.total
        const pages = Math.max(1, Math.ceil(total / first.json.meta.limit))
        query = query.replace('DEEP', String(pages))
      }
      const timings: number[] = []
      let last: any
      for (let run = 0; run < RUNS + 3; run++) {
        started = performance.now()
        last = await call(`${base}?${query}`, { headers })
        const elapsed = performance.now() - started
        if (last.status !== 200) throw new Error(`${scenario.name}: ${last.status} ${JSON.stringify(last.json)}`)
        if (run >= 3) timings.push(elapsed)
      }
      timings.sort((a, b) => a - b)
      const total = `${last.json.meta.total}${last.json.meta.total_capped ? '+' : ''}`
      console.log(
        [
          scenario.name.padEnd(36),
          total.padStart(8),
          String(last.json.meta.page).padStart(6),
          ms(quantile(timings, 0.5)).padStart(10),
          ms(quantile(timings, 0.95)).padStart(10),
          ms(timings.at(-1)!).padStart(10),
        ].join(' '),
      )
    }
    await jobs.stop()
  } finally {
    await drop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
