import { sql, type Kysely } from 'kysely'
import { CHANGE_SET_LIMIT, DEFAULT_STAGES, RECORD_TEMPLATES, stagesProblem, TARGET_OF, type ChangeSetPreview, type ChangeSetTarget, type ChangeSpec, type ObjectPreview } from '#common/change-sets.ts'
import { CHANGE_SET_OBJECTS_LIST, CHANGE_SETS_LIST } from '#common/lists/change-sets.ts'
import { parsePql } from '#common/pql.ts'
import type { Permission } from '#common/permissions.ts'
import type { DB } from '#server/db/schema.ts'
import type { ChangeSet } from '#server/db/schema-change-sets.ts'
import { change, type Tx } from '#server/platform/core/change.ts'
import { badRequest, conflict, forbidden, notFound, refused } from '#server/platform/core/errors.ts'
import { can, requirePermission, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { listResource, matchingRows, type ListResource } from '#server/platform/list/engine.ts'
import { zonesResource } from '#server/platform/dns/http.ts'
import { recordsAtRelativeNames } from '#server/platform/dns/reads.ts'
import { ttlFloor } from '#server/platform/dns/zone-parser.ts'
import { domainsResourceFor } from '#server/platform/domains/portfolio.ts'
import { reachableDomains } from '#server/platform/domains/reads.ts'
import { approvalsOf, canDecide } from './approval-reads.ts'
import { diffLines, namesOf, zoneDiff, type CurrentRecord } from './diff.ts'

/** The permission that prepares and runs a change set over a target, and the one that reads it (decision 025: no role of its own). */
export const MANAGER_OF: Record<ChangeSetTarget, Permission> = { zones: 'dns-manager', domains: 'domain-manager' }
export const VIEWER_OF: Record<ChangeSetTarget, Permission> = { zones: 'dns-viewer', domains: 'domain-viewer' }

/** The targets whose change sets the actor may read. */
export const readableTargets = (scope: Scope): ChangeSetTarget[] => (['zones', 'domains'] as const).filter((t) => can(scope.actor, VIEWER_OF[t]))

export const changeSetsResource = listResource(CHANGE_SETS_LIST, {
  from: 'change_sets cs',
  accountColumn: 'cs.account_id',
  tiebreak: 'cs.id',
  columns: {
    id: 'cs.id',
    name: 'cs.name',
    target: 'cs.target',
    filter: 'cs.filter',
    kind: "(cs.change->>'kind')",
    state: 'cs.state',
    objects: "((cs.preview->>'objects')::int)",
    created_by_label: 'cs.created_by_label',
    created_at: 'cs.created_at',
    finished_at: 'cs.finished_at',
  },
})

const objectsResource = listResource(CHANGE_SET_OBJECTS_LIST, {
  from: 'change_set_objects o',
  accountColumn: 'o.account_id',
  tiebreak: 'o.id',
  columns: {
    position: 'o.position',
    subject_id: 'o.subject_id',
    name: 'o.name',
    preview: 'o.preview',
    added: 'o.added',
    removed: 'o.removed',
    diff: 'o.diff',
    stage: 'o.stage',
    outcome: 'o.outcome',
    error: 'o.error',
    finished_at: 'o.finished_at',
  },
})

/** The change sets list as the actor may read it: only targets it has the viewer of. */
export function changeSetsResourceFor(scope: Scope): ListResource {
  const targets = readableTargets(scope)
  if (targets.length === 0) throw forbidden('Change sets need the dns-viewer or domain-viewer permission')
  return targets.length === 2 ? changeSetsResource : { ...changeSetsResource, where: `cs.target = '${targets[0]}'` }
}

/** One set's objects (its preview, then its outcomes) as a list of the list engine; the set read first (404 outside the scope). */
export async function objectsResourceFor(db: Kysely<DB>, scope: Scope, id: string): Promise<ListResource> {
  const set = await readChangeSet(db, scope, id)
  return { ...objectsResource, where: `o.change_set_id = '${set.id}'` }
}

const accountOf = (scope: Scope) => {
  if (!scope.accountId) throw badRequest('Choose an account (context) for a change set')
  return scope.accountId
}

/** The set in the scope's account, readable by the actor (its target's viewer); 404 otherwise. */
export async function readChangeSet(db: Kysely<DB> | Tx, scope: Scope, id: string, forUpdate = false): Promise<ChangeSet> {
  let query = db.selectFrom('change_sets').selectAll().where('id', '=', id).where('account_id', '=', accountOf(scope))
  if (forUpdate) query = query.forUpdate()
  const set = await query.executeTakeFirst()
  if (!set) throw notFound('Change set not found')
  requirePermission(scope.actor, VIEWER_OF[set.target])
  return set
}

export type ChangeSetInput = { name: string; filter?: string; change: ChangeSpec; stages?: number[] }

/** Checks a change as given (the operations, a template's name, the stages); field errors name the field. */
export function checkInput(input: ChangeSetInput): { target: ChangeSetTarget; change: ChangeSpec; stages: number[]; filter: string } {
  const name = input.name.trim()
  if (!name) throw badRequest('Give the change set a name', [{ field: 'name', message: 'Required' }])
  const filter = (input.filter ?? '').trim()
  const parsed = parsePql(filter)
  if (!parsed.ok) throw badRequest(`The filter is not valid at position ${parsed.error.position}: ${parsed.error.message}`, [{ field: 'filter', message: parsed.error.message }])
  const stages = input.stages ?? [...DEFAULT_STAGES]
  const problem = stagesProblem(stages)
  if (problem) throw badRequest(problem, [{ field: 'stages', message: problem }])
  let spec = input.change
  if (spec.kind === 'dns') {
    const operations = spec.template && spec.operations.length === 0 ? RECORD_TEMPLATES[spec.template] : spec.operations
    if (!operations) throw badRequest(`No template named ${spec.template}`, [{ field: 'change.template', message: 'Unknown template' }])
    if (operations.length === 0 || operations.length > 20) throw badRequest('Give 1 to 20 record operations', [{ field: 'change.operations', message: 'Give 1 to 20 record operations' }])
    // Each operation checked once in a zone standing for every zone: a content that no zone could take is refused now.
    operations.forEach((op, i) => {
      if (op.op === 'replace' && op.contents.length === 0)
        throw badRequest('A replace gives the records the RRset is to hold', [{ field: `change.operations.${i}.contents`, message: 'Give at least one record' }])
      const { conflict: problem } = zoneDiff('example.com', [op], [], 1)
      if (problem) throw badRequest(`Operation ${i + 1} is not valid: ${problem}`, [{ field: `change.operations.${i}`, message: problem }])
    })
    spec = { kind: 'dns', operations, ...(spec.template ? { template: spec.template } : {}) }
  } else if (spec.kind === 'tags') {
    const clean = (tags: string[]) => [...new Set(tags.map((t) => t.trim().toLowerCase()).filter(Boolean))]
    spec = { kind: 'tags', add: clean(spec.add), remove: clean(spec.remove) }
    if (spec.add.length === 0 && spec.remove.length === 0) throw badRequest('Give tags to add or remove', [{ field: 'change.add', message: 'Give tags to add or remove' }])
  } else if (spec.kind === 'nameservers') {
    const nameservers = spec.nameservers.map((n) => n.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean)
    if (nameservers.length < 1 || nameservers.length > 13) throw badRequest('Give 1 to 13 nameservers', [{ field: 'change.nameservers', message: 'Give 1 to 13 nameservers' }])
    spec = { kind: 'nameservers', nameservers }
  }
  return { target: TARGET_OF[spec.kind], change: spec, stages, filter }
}

/** Creates a change set (a draft: nothing is previewed or sent yet); its target's manager. */
export async function createChangeSet(deps: Pick<PlatformDeps, 'db'>, scope: Scope, input: ChangeSetInput): Promise<ChangeSet> {
  const accountId = accountOf(scope)
  const checked = checkInput(input)
  requirePermission(scope.actor, MANAGER_OF[checked.target])
  return change(deps.db, scope, async (tx, audit) => {
    const set = await tx
      .insertInto('change_sets')
      .values({
        account_id: accountId,
        name: input.name.trim(),
        target: checked.target,
        filter: checked.filter,
        change: JSON.stringify(checked.change),
        stages: checked.stages,
        created_by: scope.actor.userId,
        created_by_label: scope.actor.label,
        request_id: scope.requestId,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: areaOf(set.target),
      entityType: 'change_set',
      entityId: set.id,
      action: 'create',
      after: { name: set.name, target: set.target, filter: set.filter, change: checked.change, stages: set.stages },
    })
    return set
  })
}

export const areaOf = (target: ChangeSetTarget) => (target === 'zones' ? 'dns' : 'domains')

export type ObjectRow = { subject_id: string; name: string; preview: ObjectPreview; added: number; removed: number; diff: string }

/** The objects the set's filter selects now, each with its diff (at most CHANGE_SET_LIMIT; more is refused). */
export async function computePreview(deps: Pick<PlatformDeps, 'db' | 'dns'>, scope: Scope, set: Pick<ChangeSet, 'filter' | 'target' | 'change' | 'account_id'>): Promise<ObjectRow[]> {
  const parsed = parsePql(set.filter)
  if (!parsed.ok) throw badRequest(parsed.error.message, [{ field: 'filter', message: parsed.error.message }])
  // The set's own account, whoever previews it (staff reach every account: the set does not).
  const resource = set.target === 'zones' ? zonesResource : { ...domainsResourceFor(scope), accountColumn: 'd.account_id' }
  const rows = await matchingRows(deps.db, resource, parsed.filters, { accountId: set.account_id }, 'name', CHANGE_SET_LIMIT)
  if (rows.length > CHANGE_SET_LIMIT) throw badRequest(`The filter selects more than ${CHANGE_SET_LIMIT} objects: narrow it`, [{ field: 'filter', message: `More than ${CHANGE_SET_LIMIT} objects` }])
  const spec = set.change
  if (spec.kind === 'dns') {
    const records = await recordsAtRelativeNames(
      deps.db,
      rows.map((r) => r.key),
      namesOf(spec.operations),
    )
    const byZone = new Map<string, CurrentRecord[]>()
    for (const r of records) (byZone.get(r.zone_id) ?? byZone.set(r.zone_id, []).get(r.zone_id)!).push(r)
    const ttlMin = ttlFloor(deps)
    return rows.map((z) => {
      const diff = zoneDiff(z.label, spec.operations, byZone.get(z.key) ?? [], ttlMin)
      const preview: ObjectPreview = diff.conflict ? 'conflict' : diff.touched.length ? 'change' : 'unchanged'
      return { subject_id: z.key, name: z.label, preview, added: diff.adds.length, removed: diff.removes.length, diff: diff.conflict ?? diffLines(diff) }
    })
  }
  const current = new Map<string, DomainNow>()
  const ids = rows.map((r) => r.key)
  for (let i = 0; i < ids.length; i += 1000) {
    for (const d of await reachableDomains(deps.db, scope)
      .select(['id', 'auto_renew', 'registry_lock', 'tags', 'nameservers'])
      .where('account_id', '=', set.account_id)
      .where('id', 'in', ids.slice(i, i + 1000))
      .execute())
      current.set(d.id, d)
  }
  return rows.map((d) => {
    const now = current.get(d.key)!
    const lines = domainDiff(spec, now)
    // The registry's rule, before anything is sent: a locked domain's nameservers do not change (domains/rules.ts).
    if (lines.length && spec.kind === 'nameservers' && now.registry_lock)
      return { subject_id: d.key, name: d.label, preview: 'conflict' as const, added: 0, removed: 0, diff: 'Registry lock on: the registry refuses a nameserver change until the domain is unlocked' }
    return {
      subject_id: d.key,
      name: d.label,
      preview: lines.length ? 'change' : 'unchanged',
      added: lines.filter((l) => l.startsWith('+')).length,
      removed: lines.filter((l) => l.startsWith('-')).length,
      diff: lines.join('\n'),
    }
  })
}

/** A domain change's lines ("- auto-renew on", "+ auto-renew off"); none when the domain already is as asked. */
/** What a domain change is computed against: the fields the domain changes touch. */
export type DomainNow = { auto_renew: boolean; registry_lock: boolean; tags: string[]; nameservers: string[] }

export function domainDiff(spec: ChangeSpec, now: DomainNow): string[] {
  if (spec.kind === 'registry_lock') return now.registry_lock === spec.value ? [] : [`- registry lock ${now.registry_lock ? 'on' : 'off'}`, `+ registry lock ${spec.value ? 'on' : 'off'}`]
  if (spec.kind === 'auto_renew') return now.auto_renew === spec.value ? [] : [`- auto-renew ${now.auto_renew ? 'on' : 'off'}`, `+ auto-renew ${spec.value ? 'on' : 'off'}`]
  if (spec.kind === 'tags') return [...spec.remove.filter((t) => now.tags.includes(t)).map((t) => `- tag ${t}`), ...spec.add.filter((t) => !now.tags.includes(t)).map((t) => `+ tag ${t}`)]
  if (spec.kind === 'nameservers') {
    const have = [...now.nameservers].map((n) => n.toLowerCase()).sort()
    const want = [...spec.nameservers].sort()
    if (have.join(' ') === want.join(' ')) return []
    return [...have.filter((n) => !want.includes(n)).map((n) => `- nameserver ${n}`), ...want.filter((n) => !have.includes(n)).map((n) => `+ nameserver ${n}`)]
  }
  return []
}

/** The domain as a change leaves it: what `updateDomain` is asked for. */
export function domainWanted(spec: ChangeSpec, now: { tags: string[] }) {
  if (spec.kind === 'auto_renew') return { auto_renew: spec.value }
  if (spec.kind === 'registry_lock') return { registry_lock: spec.value }
  if (spec.kind === 'tags') return { tags: [...new Set([...now.tags.filter((t) => !spec.remove.includes(t)), ...spec.add])] }
  if (spec.kind === 'nameservers') return { nameservers: spec.nameservers }
  return {}
}

const countsOf = (rows: ObjectRow[]): ChangeSetPreview => ({
  objects: rows.length,
  changed: rows.filter((r) => r.preview === 'change').length,
  unchanged: rows.filter((r) => r.preview === 'unchanged').length,
  conflicts: rows.filter((r) => r.preview === 'conflict').length,
  added: rows.reduce((n, r) => n + r.added, 0),
  removed: rows.reduce((n, r) => n + r.removed, 0),
})

/** Writes a preview's objects (replacing an earlier preview's) and counts, inside the caller's transaction. */
export async function storePreview(tx: Tx, set: ChangeSet, rows: ObjectRow[], now: Date): Promise<ChangeSetPreview> {
  await tx.deleteFrom('change_set_objects').where('change_set_id', '=', set.id).execute()
  for (let i = 0; i < rows.length; i += 1000)
    await tx
      .insertInto('change_set_objects')
      .values(rows.slice(i, i + 1000).map((r, j) => ({ ...r, change_set_id: set.id, account_id: set.account_id, position: i + j })))
      .execute()
  const counts = countsOf(rows)
  await tx
    .updateTable('change_sets')
    .set({ preview: JSON.stringify(counts), previewed_at: now, updated_at: now })
    .where('id', '=', set.id)
    .execute()
  return counts
}

/** Previews a draft: the per-object diff against the objects as they are now, stored for the screen and its CSV. Writes nothing else. */
export async function previewChangeSet(deps: Pick<PlatformDeps, 'db' | 'dns' | 'now'>, scope: Scope, id: string): Promise<ChangeSetPreview> {
  const set = await readChangeSet(deps.db, scope, id)
  requirePermission(scope.actor, MANAGER_OF[set.target])
  if (set.state !== 'draft') throw refused('change_set.not_draft', 'Only a draft is previewed again: this change set has started')
  const rows = await computePreview(deps, scope, set)
  return deps.db.transaction().execute(async (tx) => {
    const locked = await readChangeSet(tx, scope, id, true)
    if (locked.state !== 'draft') throw refused('change_set.not_draft', 'Only a draft is previewed again: this change set has started')
    return storePreview(tx, locked, rows, deps.now())
  })
}

/** A change set as the API answers it, with its stages' progress. */
export async function changeSetView(db: Kysely<DB>, scope: Scope, id: string) {
  const set = await readChangeSet(db, scope, id)
  const counts = await db
    .selectFrom('change_set_objects')
    .select(['stage', 'outcome', sql<number>`count(*)::int`.as('n')])
    .where('change_set_id', '=', set.id)
    .groupBy(['stage', 'outcome'])
    .execute()
  const stages = set.stages.map((share, stage) => {
    const of = counts.filter((c) => c.stage === stage)
    const n = (outcome: string | null) => of.filter((c) => c.outcome === outcome).reduce((s, c) => s + c.n, 0)
    return {
      stage,
      share,
      objects: of.reduce((s, c) => s + c.n, 0),
      pending: n(null),
      applied: n('applied') + n('approval_requested'),
      unchanged: n('unchanged'),
      failed: n('failed'),
      rolled_back: n('rolled_back'),
      check: set.checks.filter((c) => c.stage === stage).at(-1) ?? null,
    }
  })
  const skipped = counts.filter((c) => c.outcome === 'skipped').reduce((s, c) => s + c.n, 0)
  return {
    id: set.id,
    name: set.name,
    target: set.target,
    filter: set.filter,
    change: set.change,
    stages: set.stages,
    state: set.state,
    phase: set.phase,
    current_stage: set.current_stage,
    preview: set.preview,
    previewed_at: set.previewed_at?.toISOString() ?? null,
    progress: stages,
    skipped,
    checks: set.checks,
    created_by_label: set.created_by_label,
    created_at: set.created_at.toISOString(),
    started_at: set.started_at?.toISOString() ?? null,
    finished_at: set.finished_at?.toISOString() ?? null,
    can_manage: can(scope.actor, MANAGER_OF[set.target]),
    approval: set.approvals_required
      ? {
          reason: set.approval_reason,
          required: set.approvals_required,
          approvers: set.approvers,
          decisions: (await approvalsOf(db, set.id)).map((d) => ({ ...d, decided_at: new Date(d.decided_at).toISOString() })),
          requested_at: set.approval_requested_at?.toISOString() ?? null,
          approved_at: set.approved_at?.toISOString() ?? null,
          can_decide: await canDecide(db, scope, set),
        }
      : null,
  }
}

/** Deletes a draft (a started set keeps its record of outcomes). */
export async function deleteChangeSet(deps: Pick<PlatformDeps, 'db'>, scope: Scope, id: string) {
  return change(deps.db, scope, async (tx, audit) => {
    const set = await readChangeSet(tx, scope, id, true)
    requirePermission(scope.actor, MANAGER_OF[set.target])
    if (set.state !== 'draft') throw conflict('A change set that has started is kept with its outcomes')
    await tx.deleteFrom('change_sets').where('id', '=', set.id).execute()
    await audit.record({ area: areaOf(set.target), entityType: 'change_set', entityId: set.id, action: 'delete', before: { name: set.name } })
  })
}
