import { MATERIAL_STATES } from '#common/lists/material-changes.ts'
import { createRoute, z } from '@hono/zod-openapi'
import { reachOf } from '#server/platform/core/scope.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { expireRequests, getRequest, listApprovers, materialRequestsResource, requestJson, setApprovers, setMaterial } from './service.ts'

const TAGS = ['Material change requests']
const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })
const States = z.enum(MATERIAL_STATES)

export const MaterialChange = z
  .object({
    contacts: z.object({ registrant: z.uuid(), admin: z.uuid(), tech: z.uuid(), billing: z.uuid() }).partial().optional(),
    nameservers: z.array(z.string()).optional(),
  })
  .openapi('MaterialChange')

export const MaterialRequestSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    domain_id: z.uuid(),
    domain_name: z.string(),
    change: MaterialChange,
    state: States,
    requested_by_label: z.string(),
    approvers: z.array(z.string()),
    created_at: z.string(),
    expires_at: z.string(),
    decided_at: z.string().nullable(),
    decided_by: z.string().nullable(),
    comment: z.string().nullable(),
    applied_at: z.string().nullable(),
    error: z.string().nullable().openapi({ description: 'Why an approved change could not be applied' }),
  })
  .openapi('MaterialChangeRequest')

const Approvers = z
  .object({ emails: z.array(z.string().min(3).max(320)).max(50) })
  .strict()
  .openapi('MaterialApprovers')
const MaterialDomains = z
  .object({ ids: z.array(z.uuid()).min(1).max(10_000), is_material: z.boolean() })
  .strict()
  .openapi('MaterialDomains')

/** Requests for changes to material domains, their approvers and which domains are material. */
export const materialRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/material-change-requests',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'Material change requests of the account (list engine)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(MaterialRequestSchema.partial()), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      await expireRequests(deps.db, deps.now())
      return c.json(await listPage(c, scope, { whole: { ...materialRequestsResource, accountColumn: undefined }, scoped: materialRequestsResource }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/material-change-requests/{id}',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'One material change request',
      request: { params: Params },
      responses: { 200: jsonResponse(MaterialRequestSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const deps = c.get('deps')
      return c.json(requestJson(await getRequest(deps.db, reachOf(scope), id, deps.now())), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/material-approvers',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'Designated approvers of material changes (emails)',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(Approvers), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json({ emails: await listApprovers(c.get('deps').db, scope.accountId!) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/groups/{context}/material-approvers',
      ...access('domain-admin'),
      tags: TAGS,
      summary: 'Replace the designated approvers (domain-admin)',
      request: { params: ContextParam, body: jsonBody(Approvers) },
      responses: { 200: jsonResponse(Approvers), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json({ emails: await setApprovers(c.get('deps').db, scope, c.req.valid('json').emails) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/groups/{context}/material-domains',
      ...access('domain-admin'),
      tags: TAGS,
      summary: 'Mark domains material (their contact and nameserver changes need approval) or not (domain-admin)',
      request: { params: ContextParam, body: jsonBody(MaterialDomains) },
      responses: { 200: jsonResponse(z.object({ changed: z.number().int() })), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const body = c.req.valid('json')
      return c.json({ changed: await setMaterial(c.get('deps').db, scope, body.ids, body.is_material) }, 200)
    },
  )
