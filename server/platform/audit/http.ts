import { createRoute, z } from '@hono/zod-openapi'
import type { ListQuery } from '#common/list-query.ts'
import { forbidden } from '#server/platform/core/errors.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { can, type Actor } from '#server/platform/core/scope.ts'
import { access, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listQueryFromUrl, listResource, runList } from '#server/platform/list/engine.ts'
import { AUDIT_AREAS, type AuditArea } from '#common/vocabulary.ts'
import { AUDIT_LIST } from '#common/lists/audit.ts'
import type { Permission } from '#common/permissions.ts'

const AREAS = AUDIT_AREAS
type Area = AuditArea

/**
 * The permission that reads an area's trail: the area's viewer (the catalogue and products are
 * staff's; watch is read under brand-viewer, intelligence under prospect-viewer: decision 025).
 */
const AREA_VIEWER: Record<Area, Permission> = {
  accounts: 'account-viewer',
  users: 'user-viewer',
  contacts: 'contact-viewer',
  tlds: 'staff',
  domains: 'domain-viewer',
  dns: 'dns-viewer',
  ssl: 'ssl-viewer',
  invoicing: 'invoice-viewer',
  watch: 'brand-viewer',
  intelligence: 'prospect-viewer',
  products: 'staff',
  blocks: 'domain-viewer',
  jobs: 'staff',
}

/**
 * The trail an actor may read: an area asked for by name needs its viewer permission (403
 * otherwise); any other query is limited to the areas the actor may view (403 when none).
 */
export function readableAreas(actor: Actor, query: ListQuery): Area[] {
  const allowed = AREAS.filter((area) => can(actor, AREA_VIEWER[area]))
  const asked = query.filters.filter((f) => f.field === 'area' && f.operator === 'equals').flatMap((f) => f.values)
  const refused = asked.filter((area) => (AREAS as readonly string[]).includes(area) && !allowed.includes(area as Area))
  if (refused.length || !allowed.length) throw forbidden(`You may not read the ${refused.length ? refused.join(', ') : 'audit'} trail`)
  return allowed
}

/** The SQL of the audit trail's fields (the DNS log of a zone reads the same table). */
export const AUDIT_COLUMNS = {
  id: 'ae.id',
  created_at: 'ae.created_at',
  area: 'ae.area',
  entity_type: 'ae.entity_type',
  entity_id: 'ae.entity_id',
  action: 'ae.action',
  actor_label: 'ae.actor_label',
  actor_user_id: 'ae.actor_user_id',
  request_id: 'ae.request_id',
  changes: 'ae.changes',
} satisfies Record<keyof typeof AUDIT_LIST.fields, string>

/** The audit trail as a list resource: every /log screen reads it. */
export const auditResource = listResource(AUDIT_LIST, {
  from: 'audit_entries ae',
  accountColumn: 'ae.account_id',
  tiebreak: 'ae.id',
  columns: AUDIT_COLUMNS,
})

export const AuditEntry = z
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
    ...access('signed-in'),
    tags: ['Audit'],
    summary: 'The audit trail of an account (filter by area, entity_type and entity_id for a /log screen)',
    request: { params: z.object({ context: z.string() }), query: ListQueryParams },
    responses: { 200: ListResponse(AuditEntry), ...ProblemResponses },
  }),
  async (c) => {
    const scope = requireScope(c, c.req.valid('param').context)
    const query = listQueryFromUrl(auditResource, new URL(c.req.url))
    const allowed = readableAreas(scope.actor, query)
    if (allowed.length < AREAS.length) query.filters.push({ field: 'area', operator: 'equals', values: allowed })
    const page = await runList(c.get('deps').db, auditResource, query, scope)
    return c.json(page, 200)
  },
)
