import { createRoute, z } from '@hono/zod-openapi'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listQueryFromUrl, runList, type ListResource } from '#server/platform/list/engine.ts'

const AREAS = ['accounts', 'users', 'contacts', 'tlds', 'domains', 'dns', 'ssl', 'invoicing', 'watch', 'intelligence', 'products'] as const

/** The audit trail as a list resource: every /log screen reads it. */
export const auditResource: ListResource = {
  name: 'audit-entries',
  from: 'audit_entries ae',
  accountColumn: 'ae.account_id',
  tiebreak: 'ae.id',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', column: 'ae.id', filterable: true },
    created_at: { type: 'timestamp', column: 'ae.created_at', filterable: true, sortable: true },
    area: { type: 'enum', column: 'ae.area', filterable: true, sortable: true, choices: AREAS },
    entity_type: { type: 'text', column: 'ae.entity_type', filterable: true, sortable: true },
    entity_id: { type: 'text', column: 'ae.entity_id', filterable: true },
    action: { type: 'text', column: 'ae.action', filterable: true, sortable: true },
    actor_label: { type: 'text', column: 'ae.actor_label', filterable: true, sortable: true },
    actor_user_id: { type: 'uuid', column: 'ae.actor_user_id', filterable: true },
    request_id: { type: 'text', column: 'ae.request_id', filterable: true },
    changes: { type: 'text', column: 'ae.changes' },
  },
}

const AuditEntry = z
  .object({
    id: z.uuid(),
    created_at: z.string(),
    area: z.string(),
    entity_type: z.string(),
    entity_id: z.string(),
    action: z.string(),
    actor_label: z.string(),
    actor_user_id: z.uuid().nullable(),
    request_id: z.string().nullable(),
    changes: z.object({ before: z.record(z.string(), z.unknown()).optional(), after: z.record(z.string(), z.unknown()).optional() }),
  })
  .partial()
  .openapi('AuditEntry')

export const auditRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/groups/{context}/audit-entries',
    tags: ['Audit'],
    summary: 'The audit trail of an account (filter by area, entity_type and entity_id for a /log screen)',
    request: { params: z.object({ context: z.string() }), query: ListQueryParams },
    responses: { 200: ListResponse(AuditEntry), ...ProblemResponses },
  }),
  async (c) => {
    const scope = requireScope(c, c.req.valid('param').context)
    const page = await runList(c.get('deps').db, auditResource, listQueryFromUrl(auditResource, new URL(c.req.url)), scope)
    return c.json(page as never, 200)
  },
)
