import { createRoute, z } from '@hono/zod-openapi'
import { POLICY_DRIFT_STATES } from '#common/lists/change-sets.ts'
import { CHANGE_SET_PHASES, CHANGE_SET_STATES, CHANGE_SET_TARGETS, MAX_STAGES, OBJECT_OUTCOMES, OBJECT_PREVIEWS, RECORD_TEMPLATE_NAMES } from '#common/change-sets.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { createPolicy, driftResourceFor, evaluateNow, fixPolicy, policiesResourceFor, policyView, readPolicy } from './policies.ts'
import { listApprovers } from '#server/platform/material-changes/service.ts'
import { approvalRule, decideChangeSet, setApprovalRule } from './approvals.ts'
import { controlChangeSet, startApproved, startChangeSet } from './rollout.ts'
import { changeSetsResourceFor, changeSetView, createChangeSet, deleteChangeSet, objectsResourceFor, previewChangeSet } from './service.ts'

const TAGS = ['Change sets']
const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })
const Action = z.object({ context: z.string(), id: z.uuid(), action: z.enum(['start', 'pause', 'resume', 'cancel']) })

const RecordOperation = z
  .discriminatedUnion('op', [
    z.object({ op: z.literal('add'), name: z.string().max(253), type: z.string().max(10), ttl: z.number().int().optional(), content: z.string().min(1).max(4000) }).strict(),
    z
      .object({
        op: z.literal('replace'),
        name: z.string().max(253),
        type: z.string().max(10),
        ttl: z.number().int().optional(),
        contents: z.array(z.string().min(1).max(4000)).max(50),
        match: z.string().max(100).optional(),
      })
      .strict(),
    z.object({ op: z.literal('remove'), name: z.string().max(253), type: z.string().max(10), content: z.string().max(4000).optional() }).strict(),
  ])
  .openapi('ChangeSetRecordOperation')

const ChangeSpec = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('dns'), operations: z.array(RecordOperation).max(20), template: z.enum(RECORD_TEMPLATE_NAMES).optional() }).strict(),
    z.object({ kind: z.literal('auto_renew'), value: z.boolean() }).strict(),
    z.object({ kind: z.literal('registry_lock'), value: z.boolean() }).strict(),
    z.object({ kind: z.literal('tags'), add: z.array(z.string().max(64)).max(50), remove: z.array(z.string().max(64)).max(50) }).strict(),
    z.object({ kind: z.literal('nameservers'), nameservers: z.array(z.string().max(253)).max(13) }).strict(),
  ])
  .openapi('ChangeSetChange')

const NewChangeSet = z
  .object({
    name: z.string().max(200),
    filter: z.string().max(2000).optional().openapi({ description: 'pql over the zones list (DNS changes) or the domains list (the others)' }),
    change: ChangeSpec,
    stages: z.array(z.number().int()).min(1).max(MAX_STAGES).optional().openapi({ description: 'Cumulative shares in percent reached by the end of each stage; default 1, 10, 100' }),
  })
  .strict()
  .openapi('NewChangeSet')

const Preview = z
  .object({ objects: z.number().int(), changed: z.number().int(), unchanged: z.number().int(), conflicts: z.number().int(), added: z.number().int(), removed: z.number().int() })
  .openapi('ChangeSetPreview')
const Check = z
  .object({
    stage: z.number().int(),
    ok: z.boolean(),
    checked: z.number().int(),
    skipped: z.string().optional().openapi({ description: 'What could not be checked: registry, powerdns (not configured), resolver (none configured)' }),
    failures: z.array(z.object({ name: z.string(), reason: z.string() })),
    at: z.string(),
  })
  .openapi('ChangeSetCheck')

const ChangeSetSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    target: z.enum(CHANGE_SET_TARGETS),
    filter: z.string(),
    change: ChangeSpec,
    stages: z.array(z.number().int()),
    state: z.enum(CHANGE_SET_STATES),
    phase: z.enum(CHANGE_SET_PHASES).nullable(),
    current_stage: z.number().int(),
    preview: Preview.nullable(),
    previewed_at: z.string().nullable(),
    progress: z.array(
      z.object({
        stage: z.number().int(),
        share: z.number().int(),
        objects: z.number().int(),
        pending: z.number().int(),
        applied: z.number().int(),
        unchanged: z.number().int(),
        failed: z.number().int(),
        rolled_back: z.number().int(),
        check: Check.nullable(),
      }),
    ),
    skipped: z.number().int(),
    checks: z.array(Check),
    created_by_label: z.string(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    can_manage: z.boolean(),
    approval: z
      .object({
        reason: z.enum(['material', 'account']).nullable().openapi({ description: 'material: a material domain among its objects; account: the account asks it of every set' }),
        required: z.number().int(),
        approvers: z.array(z.string()),
        decisions: z.array(z.object({ email: z.string(), decision: z.enum(['approve', 'reject']), comment: z.string(), decided_at: z.string() })),
        requested_at: z.string().nullable(),
        approved_at: z.string().nullable(),
        can_decide: z.boolean().openapi({ description: 'The caller is one of its approvers, not its author, and has not decided yet' }),
      })
      .nullable(),
  })
  .openapi('ChangeSet')

const ChangeSetRow = z
  .object({
    id: z.uuid(),
    name: z.string(),
    target: z.enum(CHANGE_SET_TARGETS),
    filter: z.string(),
    kind: z.string(),
    state: z.enum(CHANGE_SET_STATES),
    objects: z.number().int().nullable(),
    created_by_label: z.string(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .partial()
  .openapi('ChangeSetRow')

const ObjectRow = z
  .object({
    position: z.number().int(),
    subject_id: z.uuid(),
    name: z.string(),
    preview: z.enum(OBJECT_PREVIEWS),
    added: z.number().int(),
    removed: z.number().int(),
    diff: z.string(),
    stage: z.number().int().nullable(),
    outcome: z.enum(OBJECT_OUTCOMES).nullable(),
    error: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .partial()
  .openapi('ChangeSetObject')

const Decision = z
  .object({ decision: z.enum(['approve', 'reject']), comment: z.string().max(2000).default('') })
  .strict()
  .openapi('ChangeSetDecision')
const ApprovalRule = z
  .object({
    required: z.number().int().min(1).max(50).openapi({ description: 'How many of the designated approvers must approve (N of M)' }),
    every_set: z.boolean().openapi({ description: 'Every change set waits for approval, not only those changing a material domain' }),
  })
  .strict()
  .openapi('ChangeSetApprovalRule')
const ApprovalRuleView = z.object({ required: z.number().int(), every_set: z.boolean(), approvers: z.array(z.string()) }).openapi('ChangeSetApprovalRuleView')

const NewPolicy = z
  .object({ name: z.string().max(200), filter: z.string().max(2000).optional(), change: ChangeSpec })
  .strict()
  .openapi('NewChangeSetPolicy')

const PolicySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    target: z.enum(CHANGE_SET_TARGETS),
    filter: z.string(),
    change: ChangeSpec,
    objects: z.number().int().nullable(),
    drifting: z.number().int().nullable(),
    evaluated_at: z.string().nullable(),
    last_error: z.string().nullable(),
    created_by_label: z.string(),
    created_at: z.string(),
  })
  .openapi('ChangeSetPolicy')

const PolicyRow = z
  .object({
    id: z.uuid(),
    name: z.string(),
    target: z.enum(CHANGE_SET_TARGETS),
    filter: z.string(),
    kind: z.string(),
    objects: z.number().int().nullable(),
    drifting: z.number().int().nullable(),
    evaluated_at: z.string().nullable(),
    created_at: z.string(),
  })
  .partial()
  .openapi('ChangeSetPolicyRow')

const DriftRow = z
  .object({ subject_id: z.uuid(), name: z.string(), state: z.enum(POLICY_DRIFT_STATES), diff: z.string(), since: z.string(), checked_at: z.string() })
  .partial()
  .openapi('ChangeSetPolicyDrift')

/**
 * Change sets (issue 33, decision 030). Access is signed-in at the route: what a set may do follows
 * its target, checked by the service — the target's viewer reads it, its manager prepares and runs
 * it (dns-* for record changes over zones, domain-* for the domain changes).
 */
export const changeSetsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/change-sets',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'Change sets of the account (list engine): those over zones for dns-viewer, over domains for domain-viewer',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(ChangeSetRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const resource = changeSetsResourceFor(scope)
      return c.json(await listPage(c, scope, resource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/change-sets',
      ...access('signed-in'),
      tags: TAGS,
      summary: "Create a change set (a draft) — the target's manager",
      request: { params: ContextParam, body: jsonBody(NewChangeSet) },
      responses: { 201: jsonResponse(ChangeSetSchema, 'Created'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      const set = await createChangeSet(deps, scope, c.req.valid('json'))
      return c.json(await changeSetView(deps.db, scope, set.id), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/change-sets/{id}',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'One change set with its preview counts, stages, progress and health checks',
      request: { params: Params },
      responses: { 200: jsonResponse(ChangeSetSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      return c.json(await changeSetView(c.get('deps').db, scope, id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/change-sets/{id}',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'Delete a draft',
      request: { params: Params },
      responses: { 204: { description: 'Deleted' }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      await deleteChangeSet(c.get('deps'), requireScope(c, context), id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/change-sets/{id}/preview',
      ...access('signed-in'),
      tags: TAGS,
      summary: "Preview a draft: each selected object's diff against the object as it is now (GET …/objects lists them; nothing is sent)",
      request: { params: Params },
      responses: { 200: jsonResponse(Preview), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await previewChangeSet(c.get('deps'), requireScope(c, context), id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/change-sets/{id}/objects',
      ...access('signed-in'),
      tags: TAGS,
      summary: "A change set's objects (list engine): each one's previewed diff, its stage and its outcome",
      request: { params: Params, query: ListQueryParams },
      responses: { 200: ListResponse(ObjectRow), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const resource = await objectsResourceFor(c.get('deps').db, scope, id)
      return c.json(await listPage(c, scope, resource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/change-sets/{id}/decision',
      ...access('signed-in'),
      tags: TAGS,
      summary: "An approver's decision on a set waiting for approval (signed in, never its author): the last approval needed starts it, a rejection ends it",
      request: { params: Params, body: jsonBody(Decision) },
      responses: { 200: jsonResponse(ChangeSetSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const deps = c.get('deps')
      const body = c.req.valid('json')
      const { approved } = await decideChangeSet(deps, scope, id, body.decision, body.comment)
      if (approved) await startApproved(deps, id)
      return c.json(await changeSetView(deps.db, scope, id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/change-set-approval-rule',
      ...access('signed-in'),
      tags: TAGS,
      summary: "The account's approval rule for change sets (N of its designated approvers; every set or the material ones) and its approvers",
      request: { params: ContextParam },
      responses: { 200: jsonResponse(ApprovalRuleView), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const db = c.get('deps').db
      const accountId = scope.accountId!
      return c.json({ ...(await approvalRule(db, accountId)), approvers: await listApprovers(db, accountId) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/groups/{context}/change-set-approval-rule',
      ...access('domain-admin'),
      tags: TAGS,
      summary: "Set the account's approval rule for change sets (the domain admin, who names the approvers)",
      request: { params: ContextParam, body: jsonBody(ApprovalRule) },
      responses: { 200: jsonResponse(ApprovalRuleView), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await setApprovalRule(c.get('deps'), scope, c.req.valid('json')), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/change-sets/{id}/{action}',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'Start a draft (previewed again, the first stage queued), pause after the running stage, resume, or cancel what is not sent yet',
      request: { params: Action },
      responses: { 200: jsonResponse(ChangeSetSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id, action } = c.req.valid('param')
      const scope = requireScope(c, context)
      const deps = c.get('deps')
      if (action === 'start') await startChangeSet(deps, scope, id)
      else await controlChangeSet(deps, scope, id, action)
      return c.json(await changeSetView(deps.db, scope, id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/change-set-policies',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'Policies of the account (list engine): the state the objects of a filter should be in, and how many drift',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(PolicyRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const resource = policiesResourceFor(scope)
      return c.json(await listPage(c, scope, resource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/change-set-policies',
      ...access('signed-in'),
      tags: TAGS,
      summary: "Create a policy (the target's admin: dns-admin over zones, domain-admin over domains); its first evaluation is queued",
      request: { params: ContextParam, body: jsonBody(NewPolicy) },
      responses: { 201: jsonResponse(PolicySchema, 'Created'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(policyView(await createPolicy(c.get('deps'), scope, c.req.valid('json'))), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/change-set-policies/{id}',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'One policy with its last evaluation',
      request: { params: Params },
      responses: { 200: jsonResponse(PolicySchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(policyView(await readPolicy(c.get('deps').db, requireScope(c, context), id)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/change-set-policies/{id}/drift',
      ...access('signed-in'),
      tags: TAGS,
      summary: "A policy's drifting objects (list engine): what its change would do to each, since when",
      request: { params: Params, query: ListQueryParams },
      responses: { 200: ListResponse(DriftRow), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const resource = await driftResourceFor(c.get('deps').db, scope, id)
      return c.json(await listPage(c, scope, resource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/change-set-policies/{id}/evaluate',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'Evaluate a policy now',
      request: { params: Params },
      responses: { 200: jsonResponse(PolicySchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const deps = c.get('deps')
      await evaluateNow(deps, scope, id)
      return c.json(policyView(await readPolicy(deps.db, scope, id)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/change-set-policies/{id}/fix',
      ...access('signed-in'),
      tags: TAGS,
      summary: "Fix: a change set of the policy's filter and change, previewed (the target's manager); the objects already in line come out unchanged",
      request: { params: Params },
      responses: { 201: jsonResponse(ChangeSetSchema, 'Created'), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const deps = c.get('deps')
      const set = await fixPolicy(deps, scope, id)
      return c.json(await changeSetView(deps.db, scope, set.id), 201)
    },
  )
