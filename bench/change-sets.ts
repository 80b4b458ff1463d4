/**
 * Change sets (issue 33): the preview of a change set over 10,000 zones (target ≤ 10 s), its start
 * (the preview again, each object put in its stage, the canary queued), and the canary stage's
 * zones applied one by one through the bulk loop (the rate a rollout goes at, without PowerDNS), and
 * a policy's evaluation over the same zones (every one drifting: the drift list written whole).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/change-sets.ts [zones=10000] [canary %=1] [lanes=LANES.zones]
 *
 * The canary's share and the stage's lanes (objects changed side by side) are arguments: a 10 %
 * canary of 10,000 zones is a stage of 1,000, long enough for a rate that says what 10,000 take.
 */
import { sql } from 'kysely'
import { createJobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import { createMailer } from '#server/integrations/mail/mailer.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { LANES, runStage, startChangeSet } from '#server/platform/change-sets/rollout.ts'
import { createChangeSet, previewChangeSet } from '#server/platform/change-sets/service.ts'
import { createPolicy, evaluatePolicy } from '#server/platform/change-sets/policies.ts'
import { loadAverage, openBenchDatabase } from './support.ts'

const zones = Number(process.argv[2] ?? 10_000)
const canaryShare = Number(process.argv[3] ?? 1)
if (process.argv[4]) LANES.zones = Number(process.argv[4])

console.log(`load average before: ${await loadAverage()}`)
const { database, label, drop } = await openBenchDatabase()
const logger = createLogger('silent')
const config = { APP_ENV: 'test', BODY_LIMIT_BYTES: 1_048_576, SUPPORT_EMAIL: 'support@registrar.example', MAIL_FROM: 'Bench <bench@registrar.example>' } as PlatformDeps['config']
const deps: PlatformDeps = { config, database, db: database.db, logger, jobs: createJobs(database, logger), now: () => new Date(), mailer: createMailer(config as never, logger) }
await deps.jobs.start({ work: false })
try {
  console.log(`${label}: ${zones} zones of one account, 7 records each`)
  const filled = performance.now()
  const account = (await sql<{ id: string }>`INSERT INTO accounts (name) VALUES ('Bench Corp') RETURNING id`.execute(deps.db)).rows[0]!.id
  await sql`INSERT INTO dns_zones (account_id, name, serial, verified_at)
            SELECT ${account}, 'z' || lpad(i::text, 6, '0') || '.bench.test', 2026112801, now() FROM generate_series(1, ${zones}) i`.execute(deps.db)
  await sql`INSERT INTO dns_records (zone_id, account_id, name, type, ttl, content, priority)
            SELECT z.id, z.account_id, CASE WHEN r.n = 'www' THEN 'www.' || z.name ELSE z.name END, r.type, 3600,
                   replace(r.content, '@', z.name), r.priority
              FROM dns_zones z CROSS JOIN (VALUES
                ('@', 'SOA', 'ns1.bench.net. hostmaster.@. 2026112801 10800 3600 604800 3600', NULL::int),
                ('@', 'NS', 'ns1.bench.net.', NULL), ('@', 'NS', 'ns2.bench.net.', NULL),
                ('@', 'MX', '10 mx.old.example.', 10), ('@', 'TXT', '"v=spf1 a -all"', NULL),
                ('@', 'TXT', '"site-verification=bench"', NULL), ('www', 'A', '192.0.2.10', NULL)) AS r(n, type, content, priority)
             WHERE z.account_id = ${account}`.execute(deps.db)
  await sql`ANALYZE`.execute(deps.db)
  console.log(`filled in ${((performance.now() - filled) / 1000).toFixed(1)} s`)

  const scope: Scope = { actor: { userId: null, label: 'bench', homeAccountId: account, roles: ['dns-admin'], abilities: [] }, accountId: account, requestId: null }
  const set = await createChangeSet(deps, scope, {
    name: 'Mail to Google',
    filter: "name ends_with '.bench.test'",
    change: { kind: 'dns', template: 'google-workspace', operations: [] },
    stages: canaryShare < 100 ? [canaryShare, 100] : [100],
  })
  for (let run = 1; run <= 3; run++) {
    const started = performance.now()
    const counts = await previewChangeSet(deps, scope, set.id)
    console.log(`preview ${run}: ${((performance.now() - started) / 1000).toFixed(2)} s  (target ≤ 10 s)  ${JSON.stringify(counts)}`)
  }
  const policy = await createPolicy(
    deps,
    { ...scope, actor: { ...scope.actor, roles: ['dns-admin'] } },
    { name: 'DMARC reject', filter: "name ends_with '.bench.test'", change: { kind: 'dns', operations: [{ op: 'replace', name: '_dmarc', type: 'TXT', contents: ['"v=DMARC1; p=reject"'] }] } },
  )
  for (let run = 1; run <= 2; run++) {
    const started = performance.now()
    const counts = await evaluatePolicy(deps, policy.id)
    console.log(`policy evaluation ${run}: ${((performance.now() - started) / 1000).toFixed(2)} s  ${JSON.stringify(counts)}`)
  }
  const started = performance.now()
  await startChangeSet(deps, scope, set.id)
  console.log(`start (preview again, stages, canary queued): ${((performance.now() - started) / 1000).toFixed(2)} s`)
  const job = (await deps.db.selectFrom('change_sets').select('stage_jobs').where('id', '=', set.id).executeTakeFirstOrThrow()).stage_jobs[0]!
  const canary = performance.now()
  await runStage(deps, job)
  const seconds = (performance.now() - canary) / 1000
  const applied = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM change_set_objects WHERE change_set_id = ${set.id} AND outcome = 'applied'`.execute(deps.db)).rows[0]!.n)
  console.log(
    `canary stage (${LANES.zones} lanes): ${applied} zones applied in ${seconds.toFixed(2)} s (${(applied / seconds).toFixed(1)} zones/s: ${zones} zones ≈ ${(zones / (applied / seconds) / 60).toFixed(1)} min without PowerDNS)`,
  )
} finally {
  await deps.jobs.stop()
  await drop()
  console.log(`load average after: ${await loadAverage()}`)
}
