import { sql, type Kysely } from 'kysely'
import { CHANGE_SET_POLICIES_LIST, CHANGE_SET_POLICY_DRIFT_LIST } from '#common/lists/change-sets.ts'
import type { DB } from '#server/db/schema.ts'
import type { ChangeSetPolicy } from '#server/db/schema-change-sets.ts'
import { change, txRunner, type Tx } from '#server/platform/core/change.ts'
import { badRequest, notFound } from '#server/platform/core/errors.ts'
import { requirePermission, systemScope, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { areaOf, checkInput, computePreview, createChangeSet, MANAGER_OF, previewChangeSet, readableTargets, VIEWER_OF, type ChangeSetInput } from './service.ts'

/**
 * Policies (issue 33, decision 030): the state the objects a filter selects should be in, written
 * as a change set's change ("every zone tagged brand: DMARC p=reject" is the DMARC replace over that
 * filter). An object drifts when the change would change it — the change set's own preview decides,
 * so a policy and the change set that fixes it can never disagree. A job evaluates each policy on a
 * schedule and on demand; "fix" is a change set of the same filter and change (the objects already
 * as asked come out unchanged and are not sent).
 */
export const POLICY_JOBS = { evaluate: 'change-set-policies.evaluate', sweep: 'change-set-policies.sweep' } as const

export const policiesResource = listResource(CHANGE_SET_POLICIES_LIST, {
  from: 'change_set_policies p',
  accountColumn: 'p.account_id',
  tiebreak: 'p.id',
  columns: {
    id: 'p.id',
    name: 'p.name',
    target: 'p.target',
    filter: 'p.filter',
    kind: "(p.change->>'kind')",
    objects: 'p.objects',
    drifting: 'p.drifting',
    evaluated_at: 'p.evaluated_at',
    created_at: 'p.created_at',
  },
})

const driftResource = listResource(CHANGE_SET_POLICY_DRIFT_LIST, {
  from: 'change_set_policy_drift d',
  accountColumn: 'd.account_id',
  tiebreak: 'd.id',
  columns: { subject_id: 'd.subject_id', name: 'd.name', state: 'd.state', diff: 'd.diff', since: 'd.since', checked_at: 'd.checked_at' },
})

/** The policies list as the actor may read it: the targets it has the viewer of. */
export function policiesResourceFor(scope: Scope): ListResource {
  const targets = readableTargets(scope)
  if (targets.length === 0) requirePermission(scope.actor, 'dns-viewer')
  return targets.length === 2 ? policiesResource : { ...policiesResource, where: `p.target = '${targets[0]}'` }
}

export async function readPolicy(db: Kysely<DB> | Tx, scope: Scope, id: string): Promise<ChangeSetPolicy> {
  if (!scope.accountId) throw badRequest('Choose an account (context) for a policy')
  const policy = await db.selectFrom('change_set_policies').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId).executeTakeFirst()
  if (!policy) throw notFound('Policy not found')
  requirePermission(scope.actor, VIEWER_OF[policy.target])
  return policy
}

/** One policy's drifting objects as a list of the list engine (the policy read first: 404 outside the scope). */
export async function driftResourceFor(db: Kysely<DB>, scope: Scope, id: string): Promise<ListResource> {
  const policy = await readPolicy(db, scope, id)
  return { ...driftResource, where: `d.policy_id = '${policy.id}'` }
}

/** Creates a policy (its target's admin: what the account's objects must be is the area admin's, decision 025) and queues its first evaluation. */
export async function createPolicy(deps: Pick<PlatformDeps, 'db' | 'jobs'>, scope: Scope, input: Omit<ChangeSetInput, 'stages'>) {
  if (!scope.accountId) throw badRequest('Choose an account (context) for a policy')
  const checked = checkInput(input)
  requirePermission(scope.actor, checked.target === 'zones' ? 'dns-admin' : 'domain-admin')
  const accountId = scope.accountId
  return change(deps.db, scope, async (tx, audit) => {
    const policy = await tx
      .insertInto('change_set_policies')
      .values({
        account_id: accountId,
        name: input.name.trim(),
        target: checked.target,
        filter: checked.filter,
        change: JSON.stringify(checked.change),
        created_by: scope.actor.userId,
        created_by_label: scope.actor.label,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: areaOf(policy.target),
      entityType: 'change_set_policy',
      entityId: policy.id,
      action: 'create',
      after: { name: policy.name, filter: policy.filter, change: checked.change },
    })
    await deps.jobs.send(POLICY_JOBS.evaluate, { policyId: policy.id }, { runner: txRunner(tx), retryLimit: 3 })
    return policy
  })
}

/**
 * Evaluates a policy now: the objects its filter selects, each one drifting when the policy's
 * change would change it (or conflicting when it cannot be made). An object that drifted before
 * keeps its `since`; one back in line leaves the list. Idempotent: a second run writes the same rows.
 */
export async function evaluatePolicy(deps: Pick<PlatformDeps, 'db' | 'dns' | 'now'>, policyId: string) {
  const policy = await deps.db.selectFrom('change_set_policies').selectAll().where('id', '=', policyId).executeTakeFirst()
  if (!policy) return null
  const now = deps.now()
  let rows
  try {
    rows = await computePreview(deps, systemScope('policy', policy.account_id), policy)
  } catch (error) {
    await deps.db
      .updateTable('change_set_policies')
      .set({ last_error: error instanceof Error ? error.message : String(error), evaluated_at: now })
      .where('id', '=', policyId)
      .execute()
    return null
  }
  const drifting = rows.filter((r) => r.preview !== 'unchanged')
  await deps.db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('change_set_policy_drift')
      .where('policy_id', '=', policyId)
      .where('subject_id', 'not in', drifting.length ? drifting.map((r) => r.subject_id) : ['00000000-0000-0000-0000-000000000000'])
      .execute()
    for (let i = 0; i < drifting.length; i += 1000) {
      const part = drifting.slice(i, i + 1000)
      await sql`INSERT INTO change_set_policy_drift (policy_id, account_id, subject_id, name, state, diff, since, checked_at)
                SELECT ${policyId}, ${policy.account_id}, x.subject_id, x.name, x.state, x.diff, ${now}, ${now}
                  FROM (SELECT unnest(${part.map((r) => r.subject_id)}::uuid[]) AS subject_id, unnest(${part.map((r) => r.name)}::text[]) AS name,
                               unnest(${part.map((r) => (r.preview === 'conflict' ? 'conflict' : 'drifting'))}::text[]) AS state, unnest(${part.map((r) => r.diff)}::text[]) AS diff) x
                ON CONFLICT (policy_id, subject_id) DO UPDATE SET state = EXCLUDED.state, diff = EXCLUDED.diff, checked_at = EXCLUDED.checked_at, name = EXCLUDED.name`.execute(tx)
    }
    await tx.updateTable('change_set_policies').set({ objects: rows.length, drifting: drifting.length, evaluated_at: now, last_error: null, updated_at: now }).where('id', '=', policyId).execute()
  })
  return { objects: rows.length, drifting: drifting.length }
}

/** After a change set ends, its account's policies over the same target are evaluated again (inside the caller's transaction when given). */
export async function queuePolicyEvaluations(deps: Pick<PlatformDeps, 'jobs'>, db: Kysely<DB> | Tx, accountId: string, target: ChangeSetPolicy['target']) {
  const policies = await db.selectFrom('change_set_policies').select('id').where('account_id', '=', accountId).where('target', '=', target).execute()
  for (const p of policies) await deps.jobs.send(POLICY_JOBS.evaluate, { policyId: p.id }, { singletonKey: p.id, retryLimit: 3, ...(db.isTransaction ? { runner: txRunner(db as Tx) } : {}) })
}

/** Queues an evaluation of every policy (the schedule's sweep), one job each. */
export async function sweepPolicies(deps: Pick<PlatformDeps, 'db' | 'jobs'>) {
  const policies = await deps.db.selectFrom('change_set_policies').select('id').execute()
  for (const p of policies) await deps.jobs.send(POLICY_JOBS.evaluate, { policyId: p.id }, { singletonKey: p.id, retryLimit: 3 })
  return policies.length
}

/** Evaluates a policy at once, for its screen's "evaluate now" (the target's viewer may ask). */
export async function evaluateNow(deps: Pick<PlatformDeps, 'db' | 'dns' | 'now'>, scope: Scope, id: string) {
  const policy = await readPolicy(deps.db, scope, id)
  return evaluatePolicy(deps, policy.id)
}

/** "Fix": a change set of the policy's filter and change, previewed (its manager), for a person to check and start. */
export async function fixPolicy(deps: Pick<PlatformDeps, 'db' | 'dns' | 'now'>, scope: Scope, id: string) {
  const policy = await readPolicy(deps.db, scope, id)
  requirePermission(scope.actor, MANAGER_OF[policy.target])
  const set = await createChangeSet(deps, scope, { name: `Fix: ${policy.name}`.slice(0, 200), filter: policy.filter, change: policy.change })
  await previewChangeSet(deps, scope, set.id)
  return set
}

/** A policy as the API answers it. */
export const policyView = (policy: ChangeSetPolicy) => ({
  id: policy.id,
  name: policy.name,
  target: policy.target,
  filter: policy.filter,
  change: policy.change,
  objects: policy.objects,
  drifting: policy.drifting,
  evaluated_at: policy.evaluated_at?.toISOString() ?? null,
  last_error: policy.last_error,
  created_by_label: policy.created_by_label,
  created_at: policy.created_at.toISOString(),
})
