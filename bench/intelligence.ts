/**
 * Intelligence's security score (issue 32): the score of a brand's domains computed from data
 * already held — the domains' registry flags and name servers, their zones' records — for one brand
 * holding `--domains` domains (half hosted here, each zone with a few records), on PostgreSQL. The
 * target: 100,000 domains ≤ 60 s.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx node bench/intelligence.ts --domains 100000
 *
 * Bench data made with SQL (INSERT … SELECT generate_series), without audit entries; the account
 * and the item through the services. The database is created and dropped here.
 */
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { migrate } from '#server/db/migrate.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createItem } from '#server/platform/intelligence/service.ts'
import { domainScores } from '#server/platform/intelligence/security.ts'
import { openPortfolioDatabase, quantile, say } from './portal.ts'

const { values: args } = parseArgs({ options: { domains: { type: 'string', default: '100000' }, runs: { type: 'string', default: '3' }, keep: { type: 'boolean', default: false } } })
const url = process.env.DATABASE_URL
if (!url) throw new Error('DATABASE_URL names the PostgreSQL server to create the bench database on')
const n = Number(args.domains)

const bench = await openPortfolioDatabase(url)
try {
  const db = bench.database.db
  await migrate(bench.database)
  const account = await createAccount(db, systemScope('bench'), { name: 'Brand Holdings' })
  const started = performance.now()
  // Every third domain locked, every fourth signed, every fifth with one name server.
  await sql`INSERT INTO domains (account_id, name, unicode_name, tld, registry_lock, dnssec, nameservers)
    SELECT ${account.id}, 'acme-' || i || '.com', 'acme-' || i || '.com', 'com', i % 3 = 0, i % 4 = 0,
           CASE WHEN i % 5 = 0 THEN ARRAY['ns1.registrar.example'] ELSE ARRAY['ns1.registrar.example', 'ns2.registrar.example'] END
      FROM generate_series(1, ${n}) i`.execute(db)
  // Half the domains hosted here, each zone with SOA-like apex records and some of CAA, SPF, MX, DMARC, DKIM.
  await sql`INSERT INTO dns_zones (account_id, domain_id, name, serial, verified_at)
    SELECT account_id, id, name, 1, now() FROM domains WHERE account_id = ${account.id} AND substring(name from '[0-9]+')::int % 2 = 0`.execute(db)
  await sql`INSERT INTO dns_records (zone_id, account_id, name, type, ttl, content)
    SELECT z.id, z.account_id, r.name, r.type, 3600, r.content
      FROM dns_zones z, LATERAL (VALUES
        (z.name, 'A', '192.0.2.1', true),
        (z.name, 'NS', 'ns1.registrar.example.', true),
        (z.name, 'CAA', '0 issue "letsencrypt.org"', length(z.name) % 2 = 0),
        (z.name, 'TXT', '"v=spf1 mx -all"', length(z.name) % 3 = 0),
        (z.name, 'MX', '10 mx.' || z.name || '.', length(z.name) % 3 = 0),
        ('_dmarc.' || z.name, 'TXT', '"v=DMARC1; p=none"', length(z.name) % 4 = 0),
        ('s1._domainkey.' || z.name, 'TXT', '"v=DKIM1; p=MIIB"', length(z.name) % 5 = 0),
        ('www.' || z.name, 'CNAME', z.name || '.', true)
      ) r(name, type, content, present)
     WHERE r.present`.execute(db)
  await sql`ANALYZE`.execute(db)
  const counts = await sql<{ d: string; z: string; r: string }>`SELECT (SELECT count(*) FROM domains) d, (SELECT count(*) FROM dns_zones) z, (SELECT count(*) FROM dns_records) r`.execute(db)
  say(`data: ${counts.rows[0]!.d} domains, ${counts.rows[0]!.z} zones, ${counts.rows[0]!.r} records in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  const item = await createItem({ db }, { ...systemScope('bench', account.id), actor: { ...systemScope('bench').actor, roles: ['staff'] } }, { kind: 'client', name: 'Acme', brand: 'acme' })
  const times: number[] = []
  let scored = 0
  for (let run = 0; run < Number(args.runs); run++) {
    const t0 = performance.now()
    const scores = await domainScores(db, item)
    times.push(performance.now() - t0)
    scored = scores.length
  }
  const mean = scored ? 'computed' : 'none'
  say(
    `security score of ${scored} domains (${mean}): p50 ${(
      quantile(
        [...times].sort((a, b) => a - b),
        0.5,
      ) / 1000
    ).toFixed(2)} s, max ${(Math.max(...times) / 1000).toFixed(2)} s over ${times.length} runs (target ≤ 60 s)`,
  )
} finally {
  await bench.drop(args.keep)
}
