import { sql } from 'kysely'
import { stageEnds, type ChangeSetCheck, type ChangeSetObjectOutcome } from '#common/change-sets.ts'
import type { BulkJobItem } from '#server/db/schema-tray.ts'
import type { ChangeSet } from '#server/db/schema-change-sets.ts'
import { queueBulkJob, runBulkItems, type BulkAttempt, type BulkItemResult } from '#server/platform/bulk/service.ts'
import { bulkJobItems, bulkJobProgress } from '#server/platform/bulk/reads.ts'
import { change, txRunner, type Tx } from '#server/platform/core/change.ts'
import { AppError, refused } from '#server/platform/core/errors.ts'
import { requirePermission, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { applyChangeSet } from '#server/platform/dns/changes.ts'
import { recordsAtRelativeNames } from '#server/platform/dns/reads.ts'
import { ttlFloor } from '#server/platform/dns/zone-parser.ts'
import { domainById } from '#server/platform/domains/reads.ts'
import { errorMessage, updateDomain } from '#server/platform/domains/update.ts'
import { baselineOf, changesOf, namesOf, restoreDiff, zoneDiff, type ZoneBaseline } from './diff.ts'
import { approvalReason, requestApproval } from './approvals.ts'
import { queuePolicyEvaluations } from './policies.ts'
import { stageHealth } from './health.ts'
import { areaOf, computePreview, domainWanted, MANAGER_OF, readChangeSet, storePreview } from './service.ts'

/**
 * A change set's staged rollout (issue 33, decision 030). Each stage is ONE bulk job
 * (server/platform/bulk: its loop, its per-item attempts and baselines, a retried run continuing
 * where it stopped), with the change set's own work per object; then a health check (health.ts)
 * decides: the next stage, completion, or the rollback of the stage — itself a bulk job putting
 * each object back to its baseline. Every step is one job that reads the set's state first and
 * moves it on with a conditional update, so a step run twice (a retry, a second worker) moves it once.
 */
export const CHANGE_SET_JOBS = { stage: 'change-sets.stage', check: 'change-sets.check', rollback: 'change-sets.rollback' } as const
/** How long a health check waits for the stage's zones to be published, and how often it looks. Mutable for the tests. */
export const CHECK_WAIT = { seconds: 120, pollSeconds: 1 }
/**
 * How many objects of a stage are changed side by side (the bulk loop's lanes): zones are each one
 * transaction of their own, so several at once keep PostgreSQL busy (bench/change-sets.ts); domains
 * go to the registry, which paces its connection itself. Mutable for the bench.
 */
export const LANES = { zones: 6, domains: 2 }

/** The scope a set's jobs act in: its account, on behalf of who created it (as a bulk job's items do). */
const jobScope = (set: ChangeSet): Scope => ({
  actor: { userId: set.created_by, label: set.created_by_label, homeAccountId: set.account_id, roles: [], abilities: [] },
  accountId: set.account_id,
  requestId: set.request_id,
})

const setOfStageJob = (deps: Pick<PlatformDeps, 'db'>, jobId: string) =>
  deps.db
    .selectFrom('change_sets')
    .selectAll()
    .where(sql<boolean>`${jobId}::uuid = ANY(stage_jobs) OR rollback_job = ${jobId}::uuid`)
    .executeTakeFirst()

/**
 * Starts a draft: previews it again against the objects as they are now, puts each object that
 * changes in its stage (the first ones by name, the canary, in stage 0), marks the rest (unchanged,
 * conflicting: never sent) and queues the first stage — all in one transaction. A set that needs
 * approval (approvals.ts) waits for it instead, its objects as previewed being the request.
 */
export async function startChangeSet(deps: PlatformDeps, scope: Scope, id: string) {
  const draft = await readChangeSet(deps.db, scope, id)
  requirePermission(scope.actor, MANAGER_OF[draft.target])
  if (draft.state !== 'draft') throw refused('change_set.not_draft', 'This change set has already started')
  return launch(deps, scope, draft, 'draft')
}

/** The N-th approval given: the set starts, on behalf of its author, against its objects as they are now. */
export async function startApproved(deps: PlatformDeps, id: string) {
  const set = await deps.db.selectFrom('change_sets').selectAll().where('id', '=', id).executeTakeFirst()
  if (!set || set.state !== 'awaiting_approval' || !set.approved_at) return null
  return launch(deps, jobScope(set), set, 'awaiting_approval')
}

async function launch(deps: PlatformDeps, scope: Scope, before: ChangeSet, from: 'draft' | 'awaiting_approval') {
  const rows = await computePreview(deps, scope, before)
  if (from === 'draft' && !rows.some((r) => r.preview === 'change')) throw refused('change_set.nothing_to_change', 'Nothing to change: every selected object is already as asked, or conflicts')
  return change(deps.db, scope, async (tx, audit) => {
    const set = await tx.selectFrom('change_sets').selectAll().where('id', '=', before.id).forUpdate().executeTakeFirstOrThrow()
    if (set.state !== from) {
      if (from === 'draft') throw refused('change_set.not_draft', 'This change set has already started')
      return null
    }
    const counts = await storePreview(tx, set, rows, deps.now())
    if (from === 'draft') {
      const reason = await approvalReason(tx, set, rows)
      if (reason) {
        await requestApproval(deps, tx, audit, set, reason, counts.changed)
        return counts
      }
    }
    const changing = rows.map((r, position) => ({ ...r, position })).filter((r) => r.preview === 'change')
    const ends = stageEnds(changing.length, set.stages)
    const stageOf = (i: number) => ends.findIndex((end) => i < end)
    await sql`UPDATE change_set_objects o SET stage = x.stage FROM (SELECT unnest(${changing.map((r) => r.position)}::int[]) AS position, unnest(${changing.map((_, i) => stageOf(i))}::int[]) AS stage) x
               WHERE o.change_set_id = ${set.id} AND o.position = x.position`.execute(tx)
    await sql`UPDATE change_set_objects SET outcome = CASE preview WHEN 'unchanged' THEN 'unchanged' ELSE 'skipped' END, error = CASE preview WHEN 'conflict' THEN diff END, finished_at = ${deps.now()}
               WHERE change_set_id = ${set.id} AND preview <> 'change'`.execute(tx)
    await tx
      .updateTable('change_sets')
      .set({ state: 'running', started_at: deps.now(), updated_at: deps.now(), version: sql`version + 1` })
      .where('id', '=', set.id)
      .execute()
    await queueStage(deps, tx, { ...set, state: 'running' }, 0)
    await audit.record({
      area: areaOf(set.target),
      entityType: 'change_set',
      entityId: set.id,
      action: 'start',
      after: { ...counts, stages: set.stages, ...(set.approved_at ? { approved_at: set.approved_at.toISOString() } : {}) },
    })
    return counts
  })
}

/**
 * Queues the first stage from `stage` on that has objects to change (a small set may leave later
 * stages empty); none left completes the set. Inside the caller's transaction.
 */
async function queueStage(deps: Pick<PlatformDeps, 'jobs' | 'now'>, tx: Tx, set: ChangeSet, stage: number): Promise<void> {
  for (let s = stage; s < set.stages.length; s++) {
    const objects = await tx
      .selectFrom('change_set_objects')
      .select(['subject_id', 'name'])
      .where('change_set_id', '=', set.id)
      .where('stage', '=', s)
      .where('outcome', 'is', null)
      .orderBy('position')
      .execute()
    if (!objects.length) continue
    const job = await queueBulkJob(deps, tx, jobScope(set), {
      job: CHANGE_SET_JOBS.stage,
      action: 'change_set_stage',
      params: { change_set_id: set.id, stage: s },
      items: objects.map((o) => (set.target === 'zones' ? { zone_id: o.subject_id, name: o.name } : { domain_id: o.subject_id, name: o.name })),
    })
    await tx
      .updateTable('change_sets')
      .set({ current_stage: s, phase: 'applying', stage_jobs: sql`stage_jobs || ${job.id}::uuid`, check_deadline: null, updated_at: deps.now() })
      .where('id', '=', set.id)
      .execute()
    return
  }
  await tx.updateTable('change_sets').set({ state: 'completed', phase: null, finished_at: deps.now(), updated_at: deps.now() }).where('id', '=', set.id).execute()
  // What the set changed may put objects in line with a policy, or out of it.
  await queuePolicyEvaluations(deps, tx, set.account_id, set.target)
}

/** A stage's job: its objects changed one by one through the bulk loop, then the health check queued. */
export async function runStage(deps: PlatformDeps, jobId: string): Promise<void> {
  const set = await setOfStageJob(deps, jobId)
  if (!set) return
  await runBulkItems(deps, jobId, (scope, item, _job, attempt) => applyObject(deps, set, scope, item, attempt), failureText, { concurrency: LANES[set.target] })
  // A newer run took the job over (this one's process was thought dead): that run finishes the stage.
  if ((await bulkJobProgress(deps.db, jobId))?.state !== 'completed') return
  await syncOutcomes(deps, set.id, jobId, false)
  await deps.db.transaction().execute(async (tx) => {
    const moved = await tx
      .updateTable('change_sets')
      .set({ phase: 'checking', check_deadline: new Date(deps.now().getTime() + CHECK_WAIT.seconds * 1000), updated_at: deps.now() })
      .where('id', '=', set.id)
      .where('phase', '=', 'applying')
      .where(sql<boolean>`stage_jobs[array_length(stage_jobs, 1)] = ${jobId}::uuid`)
      .returning('current_stage')
      .executeTakeFirst()
    if (moved) await deps.jobs.send(CHANGE_SET_JOBS.check, { setId: set.id, stage: moved.current_stage }, { runner: txRunner(tx), retryLimit: 10 })
  })
}

/**
 * One object's change. The diff is computed against the object as it is now, so an attempt after
 * an earlier one that committed finds nothing left to do: no object is changed twice. Before the
 * first change the object's baseline is kept (the bulk item's), what a rollback puts back.
 */
async function applyObject(deps: PlatformDeps, set: ChangeSet, scope: Scope, item: BulkJobItem, attempt: BulkAttempt): Promise<BulkItemResult> {
  const spec = set.change
  if (spec.kind === 'dns') {
    const current = await recordsAtRelativeNames(deps.db, [item.zone_id!], namesOf(spec.operations))
    const diff = zoneDiff(item.name, spec.operations, current, ttlFloor(deps))
    if (diff.conflict) throw new AppError(409, 'conflict', diff.conflict)
    if (!item.baseline) await attempt.remember(baselineOf(diff, current))
    if (!diff.touched.length) return { outcome: attempt.retry && item.baseline ? 'applied' : 'unchanged', records: 0 }
    await applyChangeSet(deps, scope, item.zone_id!, { changes: changesOf(diff) })
    return { outcome: 'applied', records: diff.adds.length + diff.removes.length }
  }
  const domain = await domainById(deps.db, item.domain_id!).select(['auto_renew', 'registry_lock', 'tags', 'nameservers']).executeTakeFirstOrThrow()
  if (!item.baseline)
    await attempt.remember(
      spec.kind === 'auto_renew'
        ? { auto_renew: domain.auto_renew }
        : spec.kind === 'registry_lock'
          ? { registry_lock: domain.registry_lock }
          : spec.kind === 'tags'
            ? { tags: domain.tags }
            : { nameservers: domain.nameservers },
    )
  // A set approved as a whole (approvals.ts) is that approval for each material domain: no request of its own.
  const outcome = await updateDomain(deps, scope, item.domain_id!, domainWanted(spec, domain), { reachAll: true, approved: set.approved_at !== null, ...(attempt.retry ? { resume: {} } : {}) })
  return { outcome: outcome.outcome }
}

/** One object of a failing stage put back as it was before its change (its baseline), again against the object as it is now. */
async function restoreObject(deps: PlatformDeps, set: ChangeSet, scope: Scope, item: BulkJobItem): Promise<BulkItemResult> {
  const object = await deps.db
    .selectFrom('change_set_objects')
    .select('baseline')
    .where('change_set_id', '=', set.id)
    .where('subject_id', '=', (item.zone_id ?? item.domain_id)!)
    .executeTakeFirst()
  const baseline = object?.baseline
  if (!baseline) return { outcome: 'unchanged' }
  if (set.target === 'zones') {
    const rrsets = (baseline as ZoneBaseline).rrsets
    const names = [...new Set(Object.keys(rrsets).map((k) => relativeTo(k.split('\t')[0]!, item.name)))]
    const diff = restoreDiff(baseline as ZoneBaseline, await recordsAtRelativeNames(deps.db, [item.zone_id!], names))
    if (!diff.touched.length) return { outcome: 'unchanged', records: 0 }
    await applyChangeSet(deps, scope, item.zone_id!, { changes: changesOf(diff) })
    return { outcome: 'applied', records: diff.adds.length + diff.removes.length }
  }
  // A domain's baseline is the fields the change set asked for, as they were.
  const outcome = await updateDomain(deps, scope, item.domain_id!, baseline as { auto_renew?: boolean; registry_lock?: boolean; tags?: string[]; nameservers?: string[] }, {
    reachAll: true,
    approved: set.approved_at !== null,
  })
  return { outcome: outcome.outcome }
}

const relativeTo = (name: string, zone: string) => (name === zone ? '@' : name.slice(0, -(zone.length + 1)))

const failureText = (error: unknown) => (error instanceof AppError && error.errors?.length ? `${error.message}: ${error.errors.map((e) => e.message).join('; ')}` : errorMessage(error))

/**
 * Copies a finished bulk job's results onto the set's objects: a stage's outcome, error and
 * baseline; a rollback's `rolled_back` (or the reason it could not be). Idempotent.
 */
async function syncOutcomes(deps: Pick<PlatformDeps, 'db'>, setId: string, jobId: string, rollback: boolean) {
  const items = (await bulkJobItems(deps.db, jobId)).filter((i) => i.state === 'done')
  if (!items.length) return
  const subject = items.map((i) => (i.zone_id ?? i.domain_id)!)
  if (rollback) {
    const outcome = items.map((i): ChangeSetObjectOutcome | null => (i.ok ? 'rolled_back' : null))
    const error = items.map((i) => (i.ok ? null : `Not rolled back: ${i.error}`))
    await sql`UPDATE change_set_objects o SET outcome = coalesce(x.outcome, o.outcome), error = coalesce(x.error, o.error)
               FROM (SELECT unnest(${subject}::uuid[]) AS subject_id, unnest(${outcome}::text[]) AS outcome, unnest(${error}::text[]) AS error) x
              WHERE o.change_set_id = ${setId} AND o.subject_id = x.subject_id`.execute(deps.db)
    return
  }
  const outcome = items.map((i): ChangeSetObjectOutcome => (!i.ok ? 'failed' : i.outcome === 'approval_requested' ? 'approval_requested' : i.outcome === 'unchanged' ? 'unchanged' : 'applied'))
  const baseline = items.map((i) => (i.baseline ? JSON.stringify(i.baseline) : null))
  await sql`UPDATE change_set_objects o SET outcome = x.outcome, error = x.error, baseline = x.baseline::jsonb, finished_at = x.finished_at
             FROM (SELECT unnest(${subject}::uuid[]) AS subject_id, unnest(${outcome}::text[]) AS outcome, unnest(${items.map((i) => i.error)}::text[]) AS error,
                          unnest(${baseline}::text[]) AS baseline, unnest(${items.map((i) => i.finished_at)}::timestamptz[]) AS finished_at) x
            WHERE o.change_set_id = ${setId} AND o.subject_id = x.subject_id AND (o.outcome IS NULL OR o.outcome <> 'rolled_back')`.execute(deps.db)
}

/**
 * The health check after a stage (health.ts decides what it sees): still waiting for PowerDNS to
 * publish → looks again shortly; healthy → the next stage (or waits, paused; or completes);
 * failing → the stage rolled back, whatever the set's state.
 */
export async function runCheck(deps: PlatformDeps, setId: string, stage: number): Promise<void> {
  const set = await deps.db.selectFrom('change_sets').selectAll().where('id', '=', setId).executeTakeFirst()
  if (!set || set.phase !== 'checking' || set.current_stage !== stage) return
  const health = await stageHealth(deps, set, stage)
  if (!health) {
    await deps.jobs.send(CHANGE_SET_JOBS.check, { setId, stage }, { startAfterSeconds: CHECK_WAIT.pollSeconds, retryLimit: 10 })
    return
  }
  await change(deps.db, jobScope(set), async (tx, audit) => {
    const locked = await tx.selectFrom('change_sets').selectAll().where('id', '=', setId).forUpdate().executeTakeFirst()
    if (!locked || locked.phase !== 'checking' || locked.current_stage !== stage) return
    const checks: ChangeSetCheck[] = [...locked.checks, health]
    await tx
      .updateTable('change_sets')
      .set({ checks: JSON.stringify(checks), updated_at: deps.now() })
      .where('id', '=', setId)
      .execute()
    await audit.record({
      area: areaOf(set.target),
      entityType: 'change_set',
      entityId: setId,
      action: health.ok ? 'stage_healthy' : 'stage_failing',
      after: { stage, checked: health.checked, failures: health.failures.slice(0, 20) },
    })
    if (!health.ok) return queueRollback(deps, tx, locked)
    if (locked.state === 'running') return queueStage(deps, tx, locked, stage + 1)
    // Paused: the next stage waits for a resume; cancelled: nothing more is sent.
    const last = !(await tx.selectFrom('change_set_objects').select('position').where('change_set_id', '=', setId).where('outcome', 'is', null).limit(1).executeTakeFirst())
    await tx
      .updateTable('change_sets')
      .set(last && locked.state === 'paused' ? { state: 'completed', phase: null, finished_at: deps.now() } : { phase: null })
      .where('id', '=', setId)
      .execute()
  })
}

/** Queues the rollback of the current stage: its changed objects, each back to its baseline. */
async function queueRollback(deps: Pick<PlatformDeps, 'jobs' | 'now'>, tx: Tx, set: ChangeSet): Promise<void> {
  const objects = await tx
    .selectFrom('change_set_objects')
    .select(['subject_id', 'name'])
    .where('change_set_id', '=', set.id)
    .where('stage', '=', set.current_stage)
    .where('outcome', 'in', ['applied', 'failed'])
    .where('baseline', 'is not', null)
    .orderBy('position')
    .execute()
  await stopPending(tx, set.id, deps.now())
  if (!objects.length) {
    await tx.updateTable('change_sets').set({ state: 'rolled_back', phase: null, finished_at: deps.now(), updated_at: deps.now() }).where('id', '=', set.id).execute()
    return
  }
  const job = await queueBulkJob(deps, tx, jobScope(set), {
    job: CHANGE_SET_JOBS.rollback,
    action: 'change_set_rollback',
    params: { change_set_id: set.id, stage: set.current_stage },
    items: objects.map((o) => (set.target === 'zones' ? { zone_id: o.subject_id, name: o.name } : { domain_id: o.subject_id, name: o.name })),
  })
  await tx.updateTable('change_sets').set({ phase: 'rolling_back', rollback_job: job.id, updated_at: deps.now() }).where('id', '=', set.id).execute()
}

/** The objects of later stages, never sent: skipped (the set stopped before them). */
const stopPending = (tx: Tx, setId: string, now: Date) =>
  tx.updateTable('change_set_objects').set({ outcome: 'skipped', finished_at: now }).where('change_set_id', '=', setId).where('outcome', 'is', null).execute()

/** A rollback's job: each object put back through the bulk loop, then the set marked rolled back. */
export async function runRollback(deps: PlatformDeps, jobId: string): Promise<void> {
  const set = await setOfStageJob(deps, jobId)
  if (!set) return
  await runBulkItems(deps, jobId, (scope, item) => restoreObject(deps, set, scope, item), failureText, { concurrency: LANES[set.target] })
  if ((await bulkJobProgress(deps.db, jobId))?.state !== 'completed') return
  await syncOutcomes(deps, set.id, jobId, true)
  await deps.db
    .updateTable('change_sets')
    .set({ state: 'rolled_back', phase: null, finished_at: deps.now(), updated_at: deps.now() })
    .where('id', '=', set.id)
    .where('phase', '=', 'rolling_back')
    .execute()
  await queuePolicyEvaluations(deps, deps.db, set.account_id, set.target)
}

/** Pause (takes effect at the end of the running stage: its objects finish and are checked), resume, cancel. */
export async function controlChangeSet(deps: PlatformDeps, scope: Scope, id: string, action: 'pause' | 'resume' | 'cancel') {
  return change(deps.db, scope, async (tx, audit) => {
    const set = await readChangeSet(tx, scope, id, true)
    requirePermission(scope.actor, MANAGER_OF[set.target])
    const allowed = { pause: ['running'], resume: ['paused'], cancel: ['draft', 'awaiting_approval', 'running', 'paused'] }[action]
    if (!allowed.includes(set.state))
      throw refused(`change_set.cannot_${action}`, `A change set that is ${set.state.replace('_', ' ')} cannot be ${action === 'pause' ? 'paused' : action === 'resume' ? 'resumed' : 'cancelled'}`)
    const now = deps.now()
    if (action === 'pause') await tx.updateTable('change_sets').set({ state: 'paused', updated_at: now }).where('id', '=', set.id).execute()
    if (action === 'resume') {
      await tx.updateTable('change_sets').set({ state: 'running', updated_at: now }).where('id', '=', set.id).execute()
      // Between stages (the last check passed while paused): the next stage now.
      if (set.phase === null) await queueStage(deps, tx, { ...set, state: 'running' }, set.current_stage + 1)
    }
    if (action === 'cancel') {
      // A stage under way finishes its objects and is checked (a failing check still rolls it back); nothing after it is sent.
      await stopPending(tx, set.id, now)
      await tx.updateTable('change_sets').set({ state: 'cancelled', updated_at: now, finished_at: now }).where('id', '=', set.id).execute()
    }
    await audit.record({
      area: areaOf(set.target),
      entityType: 'change_set',
      entityId: set.id,
      action,
      before: { state: set.state },
      after: { state: action === 'pause' ? 'paused' : action === 'resume' ? 'running' : 'cancelled' },
    })
    return readChangeSet(tx, scope, id)
  })
}
