/**
 * Reports benchmark (issue 29, "Performance"): each report's answer — the API's service, the part
 * that grows with the portfolio — timed on the embedded default with the demo data, then on
 * PostgreSQL with a large generated portfolio: domains (bench/portal.ts's generator), zones with
 * records, and certificates, all in one account beside others, read by that account's client and
 * by staff across every account.
 *
 *   npx node bench/reports.ts                                                      # the demo only
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx node bench/reports.ts --domains 1000000 --zones 500000 --records 10 --certificates 100000
 *
 * The large data is bench data made with SQL (INSERT … SELECT generate_series), without audit
 * entries; accounts and users through the services. The database is created and dropped here.
 */
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'
import type { Actor, Scope } from '#server/platform/core/scope.ts'
import { activityReport, dnsReport, domainsReport, forecastReport, reportsIndex, sslsReport } from '#server/platform/reports/service.ts'
import { createLogger } from '#server/lib/logger.ts'
import { refreshZonePostures } from '#server/platform/dns/postures.ts'
import { seedDemo } from '#server/seed/demo.ts'
import { generatePortfolio, openPortfolioDatabase, quantile, say } from './portal.ts'

const { values: args } = parseArgs({
  options: {
    domains: { type: 'string', default: '1000000' },
    accounts: { type: 'string', default: '20' },
    big: { type: 'string', default: '600000' },
    zones: { type: 'string', default: '500000' },
    records: { type: 'string', default: '10' },
    certificates: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '7' },
    'demo-only': { type: 'boolean', default: false },
    /** Only these reports (comma-separated names as printed), e.g. to leave out one that does not finish. */
    only: { type: 'string' },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
})
const RUNS = Number(args.runs)

const actor = (homeAccountId: string, roles: string[]): Actor => ({ userId: null, label: 'bench', homeAccountId, roles, abilities: [] })
const client = (accountId: string): Scope => ({ actor: actor(accountId, ['domain-viewer', 'dns-viewer', 'ssl-viewer', 'contact-viewer', 'user-viewer']), accountId, requestId: null })
const staff = (homeAccountId: string): Scope => ({ actor: actor(homeAccountId, ['staff']), accountId: homeAccountId, requestId: null })

type Db = Database['db']
const REPORTS: [string, (db: Db, scope: Scope, now: Date) => Promise<unknown>][] = [
  ['index', (db, scope, now) => reportsIndex(db, scope, now, { tag: null })],
  ['domains', (db, scope, now) => domainsReport(db, scope, now, { tag: null })],
  ['dns', (db, scope, now) => dnsReport(db, scope, now)],
  ['ssls', (db, scope, now) => sslsReport(db, scope, now)],
  ['renewals-forecast 12', (db, scope, now) => forecastReport(db, scope, now, { tag: null }, 12)],
  ['renewals-forecast 36', (db, scope, now) => forecastReport(db, scope, now, { tag: null }, 36)],
  ['portfolio-activity 30', (db, scope, now) => activityReport(db, scope, now, 30)],
]

/** Each report `RUNS` times after one warm-up: p50 and p95 in ms. */
async function measure(title: string, db: Db, scopes: [string, Scope][]) {
  say(`\n${title}`)
  for (const [who, scope] of scopes) {
    for (const [name, run] of REPORTS.filter(([name]) => !args.only || args.only.split(',').includes(name))) {
      await run(db, scope, new Date())
      const times: number[] = []
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now()
        await run(db, scope, new Date())
        times.push(performance.now() - started)
      }
      times.sort((a, b) => a - b)
      say(`  ${who.padEnd(8)} ${name.padEnd(22)} p50 ${quantile(times, 0.5).toFixed(0).padStart(6)} ms   p95 ${quantile(times, 0.95).toFixed(0).padStart(6)} ms`)
    }
  }
}

// 1. The embedded default (PGlite) with the demo data.
{
  const platform = await openDatabase({ kind: 'pglite' })
  await migrate(platform)
  await seedDemo(platform.db, createLogger('silent'))
  const acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  const home = (await platform.db.selectFrom('users').select('account_id').where('email', '=', 'staff@example.com').executeTakeFirstOrThrow()).account_id
  await measure('Embedded default (PGlite), demo data', platform.db, [
    ['client', client(acme)],
    ['staff', staff(home)],
  ])
  await platform.close()
}

// 2. PostgreSQL with a large generated portfolio.
if (!args['demo-only'] && process.env.DATABASE_URL) {
  const bench = await openPortfolioDatabase(process.env.DATABASE_URL, args.database)
  const db = bench.database.db
  try {
    if (!bench.reused) {
      await migrate(bench.database)
      await generatePortfolio(bench.database, { domains: Number(args.domains), accounts: Number(args.accounts), big: Number(args.big) })
      const big = (await db.selectFrom('accounts').select('id').where('name', '=', 'Portfolio Holdings').executeTakeFirstOrThrow()).id
      let started = performance.now()
      // Expiry dates over the next three years, a sixth without auto-renew (the forecast's spread).
      await sql`UPDATE domains SET expires_at = now() + (abs(hashtext(name)) % 1100) * interval '1 day', auto_renew = (abs(hashtext(name)) % 6 <> 0)`.execute(db)
      await sql`INSERT INTO dns_zones (account_id, domain_id, name, serial, verified_at, publish_state)
        SELECT account_id, id, name, 1, now(), CASE WHEN abs(hashtext(name)) % 50 = 0 THEN 'failed' ELSE 'published' END
        FROM domains WHERE account_id = ${big} ORDER BY name LIMIT ${Number(args.zones)}`.execute(db)
      say(`  ${args.zones} zones in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      started = performance.now()
      const types = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'TXT', 'CAA', 'A', 'NS', 'NS']
      await sql`INSERT INTO dns_records (zone_id, account_id, name, type, ttl, content, priority)
        SELECT z.id, z.account_id,
          CASE WHEN g.i IN (5, 6) THEN CASE WHEN g.i = 6 THEN z.name ELSE '_dmarc.' || z.name END WHEN g.i = 1 OR g.i = 4 OR g.i = 7 OR g.i >= 9 THEN z.name ELSE 'h' || g.i || '.' || z.name END,
          (${sql.val(types)}::text[])[((g.i - 1) % 10) + 1],
          CASE WHEN g.i % 3 = 0 THEN 300 ELSE 3600 END,
          CASE ((g.i - 1) % 10) + 1
            WHEN 1 THEN '203.0.113.' || (g.i % 250) WHEN 2 THEN '2001:db8::' || g.i WHEN 3 THEN 'mail.' || z.name || '.'
            WHEN 4 THEN '"v=spf1 include:_spf.example -all"' WHEN 5 THEN 'www.' || z.name || '.' WHEN 6 THEN '"v=DMARC1; p=quarantine"'
            WHEN 7 THEN '0 issue "letsencrypt.org"' WHEN 8 THEN '198.51.100.' || (g.i % 250) ELSE 'ns' || g.i || '.example.net.' END,
          CASE WHEN ((g.i - 1) % 10) + 1 = 3 THEN 10 END
        FROM dns_zones z CROSS JOIN generate_series(1, ${Number(args.records)}) g(i)`.execute(db)
      say(`  ${(Number(args.zones) * Number(args.records)).toLocaleString('en')} records in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      started = performance.now()
      const term = await sql<{ id: string }>`INSERT INTO ssl_terms (account_id, product, period_months, ends_at) VALUES (${big}, 'dv-single', 12, now() + interval '1 year') RETURNING id`.execute(db)
      await sql`INSERT INTO ssl_certificates (account_id, term_id, status, product, common_name, names, key_type, key_source, csr_pem, ca, directory_url, not_after, origin)
        SELECT ${big}, ${term.rows[0]!.id}, (ARRAY['issued', 'issued', 'issued', 'expiring', 'expired', 'failed'])[(g % 6) + 1], 'dv-single', z.name, ARRAY[z.name, 'www.' || z.name],
          (ARRAY['ecdsa-p256', 'rsa-2048'])[(g % 2) + 1], 'csr', '-', (ARRAY['Demo Trust Services', 'Other CA'])[(g % 2) + 1], 'https://ca.example/directory',
          now() + (g % 400) * interval '1 day', (ARRAY['order', 'renewal'])[(g % 2) + 1]
        FROM (SELECT name, row_number() OVER (ORDER BY name) AS g FROM dns_zones LIMIT ${Number(args.certificates)}) z`.execute(db)
      say(`  ${args.certificates} certificates in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      for (const table of ['domains', 'dns_zones', 'dns_records', 'ssl_certificates']) await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db)
    }
    // The DNS area's posture rollup job, as it runs every 10 minutes: the report reads its rows (a zone changed since is computed live).
    let started = performance.now()
    const rolled = await refreshZonePostures(db)
    say(`  posture rollup: ${rolled.toLocaleString('en')} zones in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    started = performance.now()
    const again = await refreshZonePostures(db)
    say(`  posture rollup with nothing changed: ${again} zones in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    // As autovacuum leaves the rollup between runs of the job (the first rollup rewrote every row).
    await sql`VACUUM ANALYZE dns_zone_postures`.execute(db)
    const big = (await db.selectFrom('accounts').select('id').where('name', '=', 'Portfolio Holdings').executeTakeFirstOrThrow()).id
    const counts = await sql<{
      d: string
      z: string
      r: string
      c: string
    }>`SELECT (SELECT count(*) FROM domains) d, (SELECT count(*) FROM dns_zones) z, (SELECT count(*) FROM dns_records) r, (SELECT count(*) FROM ssl_certificates) c`.execute(db)
    const n = counts.rows[0]!
    await measure(
      `PostgreSQL: ${Number(n.d).toLocaleString('en')} domains, ${Number(n.z).toLocaleString('en')} zones, ${Number(n.r).toLocaleString('en')} records, ${Number(n.c).toLocaleString('en')} certificates (the client's account holds them all but ${args.accounts}-1 accounts' domains)`,
      db,
      [
        ['client', client(big)],
        ['staff', staff(big)],
      ],
    )
  } finally {
    await bench.drop(args.keep)
  }
}
process.exit(0)
