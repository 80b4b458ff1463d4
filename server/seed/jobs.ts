import { sql } from 'kysely'
import type { PlatformDeps } from '#server/platform/deps.ts'

/**
 * The demo's failed background job (issue 29, "staff see … failed jobs"): the first demo zone's
 * publish, its ten retries spent while PowerDNS answered 502, as pg-boss leaves a job that failed —
 * so staff's operations report, pulse and failed-jobs list have one to show and to retry (a retry
 * publishes the zone again). Seeds write any table (decision 024).
 */
export async function seedDemoFailedJob(deps: Pick<PlatformDeps, 'db'>): Promise<void> {
  const zone = await deps.db.selectFrom('dns_zones').select(['id', 'name']).orderBy('name').executeTakeFirst()
  if (!zone) return
  const output = { message: `PowerDNS answered 502 Bad Gateway to PATCH /api/v1/servers/localhost/zones/${zone.name}.` }
  await sql`
    INSERT INTO pgboss.job (name, data, state, retry_limit, retry_count, started_on, completed_on, output)
    VALUES ('dns.publish', ${JSON.stringify({ zoneId: zone.id })}::jsonb, 'failed', 10, 10, now(), now(), ${JSON.stringify(output)}::jsonb)`.execute(deps.db)
}
