import { sql } from 'kysely'
import { JOB_ERROR_MAX, FAILED_JOBS_LIST } from '#common/lists/jobs.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { change, txRunner } from '#server/platform/core/change.ts'
import { conflict, forbidden, notFound } from '#server/platform/core/errors.ts'
import { reachOf, requirePermission, type Scope } from '#server/platform/core/scope.ts'
import { listResource } from '#server/platform/list/engine.ts'

/** The columns of a job that pg-boss keeps in its archive too (plans.js `archive`). */
const JOB_COLUMNS =
  'id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after, started_on, singleton_key, singleton_on, expire_in, created_on, completed_on, keep_until, dead_letter, policy, output'

/** A data key whose value the list shows: an id (`id`, `…_id`, `…Id`) holding a uuid. Any other value (a token, an address) is never shown. */
const ID_KEY = `'(^id|_id|[a-z]Id)$'`
const UUID_VALUE = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`

/** Every failed job, the live queue's and the archive's, with what the list shows of it. */
const FAILED_JOBS_FROM = `(
  SELECT j.id, j.name AS queue, j.completed_on AS failed_at, j.created_on AS created_at, j.retry_count AS retries,
         left(coalesce(j.output->>'message', j.output::text, ''), ${JOB_ERROR_MAX}) AS error,
         CASE WHEN jsonb_typeof(j.data) = 'object' THEN ARRAY(SELECT k FROM jsonb_object_keys(j.data) AS k ORDER BY k) ELSE '{}'::text[] END AS data_keys,
         CASE WHEN jsonb_typeof(j.data) = 'object'
              THEN ARRAY(SELECT e.key || '=' || e.value FROM jsonb_each_text(j.data) AS e WHERE e.key ~ ${ID_KEY} AND e.value ~ ${UUID_VALUE} ORDER BY e.key)
              ELSE '{}'::text[] END AS data_ids,
         j.archived
    FROM (SELECT ${JOB_COLUMNS}, false AS archived FROM pgboss.job WHERE state = 'failed'
          UNION ALL
          SELECT ${JOB_COLUMNS}, true AS archived FROM pgboss.archive WHERE state = 'failed') AS j
) AS fj`

/** The failed jobs (staff), through the list engine: filtered by queue and date, sorted, paged like any list. */
export const failedJobsResource = listResource(FAILED_JOBS_LIST, {
  from: FAILED_JOBS_FROM,
  tiebreak: 'fj.id',
  columns: {
    id: 'fj.id',
    queue: 'fj.queue',
    failed_at: 'fj.failed_at',
    created_at: 'fj.created_at',
    retries: 'fj.retries',
    error: 'fj.error',
    data_keys: 'fj.data_keys',
    data_ids: 'fj.data_ids',
    archived: 'fj.archived',
  },
})

/**
 * The jobs are the registrar's, no account's: staff read and retry them in their own group only;
 * in a client's context (or anyone but staff) they are refused.
 */
export function requireJobsScope(scope: Scope) {
  requirePermission(scope.actor, 'staff')
  if (reachOf(scope) !== null) throw forbidden("Background jobs are read in the registrar's own group, not in a client's")
}

/**
 * Puts a failed job back in its queue (pg-boss's retry: one more retry, run by its worker as
 * soon as it is seen), audited in the same transaction. A job pg-boss has already archived is
 * brought back to the queue first, as it was. 404 when no failed job has this id; 409 when it
 * is no longer failed (retried meanwhile).
 */
export async function retryFailedJob(deps: Pick<PlatformDeps, 'db' | 'jobs'>, scope: Scope, id: string): Promise<{ id: string; queue: string }> {
  requireJobsScope(scope)
  return change(deps.db, scope, async (tx, audit) => {
    let job = await tx.selectFrom('pgboss.job').select(['id', 'name', 'state', 'retry_count']).where('id', '=', id).forUpdate().executeTakeFirst()
    if (!job) {
      const { rows } = await sql<{ id: string; name: string; state: 'failed'; retry_count: number }>`
        WITH moved AS (DELETE FROM pgboss.archive WHERE id = ${id} AND state = 'failed' RETURNING ${sql.raw(JOB_COLUMNS)})
        INSERT INTO pgboss.job (${sql.raw(JOB_COLUMNS)})
        SELECT ${sql.raw(JOB_COLUMNS.replace('keep_until', "greatest(keep_until, now() + interval '14 days')"))} FROM moved
        RETURNING id, name, state, retry_count`.execute(tx)
      job = rows[0]
    }
    if (!job) throw notFound('Failed job not found')
    if (job.state !== 'failed' || !(await deps.jobs.retry(job.name, job.id, { runner: txRunner(tx) }))) throw conflict('This job is not failed any more')
    await audit.record({
      area: 'jobs',
      entityType: 'job',
      entityId: job.id,
      accountId: null,
      action: 'retry',
      before: { queue: job.name, state: 'failed', retries: job.retry_count },
      after: { queue: job.name, state: 'retry', retries: job.retry_count },
    })
    return { id: job.id, queue: job.name }
  })
}
