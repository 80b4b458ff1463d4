import { createRoute, z } from '@hono/zod-openapi'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { readSummary } from './service.ts'

const Count = z.number().int().min(0)

const Summary = z
  .object({
    today: z.string().openapi({ description: 'The first day of the expiry windows (UTC)', example: '2026-01-31' }),
    expiring: z
      .array(z.object({ days: z.number().int(), until: z.string().openapi({ description: 'The last day of the window (UTC)' }), total: Count, auto_renew_off: Count }))
      .nullable()
      .openapi({ description: 'Domains expiring from today through `until`, and those of them that will not renew by themselves; null without domain-viewer' }),
    zones: z
      .object({
        failing: Count.openapi({ description: 'Zones PowerDNS refused at their last publish' }),
        drifting: Count.openapi({ description: 'Zones whose served records differ from ours at the last check' }),
        named: z.array(z.object({ id: z.uuid(), name: z.string(), domain_id: z.uuid().nullable(), problem: z.enum(['failing', 'drifting']) })),
      })
      .nullable()
      .openapi({ description: 'Null without dns-viewer' }),
    differences: Count.nullable().openapi({ description: 'Open differences between the registry and our records' }),
    orders: z.object({ pending: Count.openapi({ description: 'Pending or processing' }), failed: Count }).nullable(),
    material_changes: z.object({ pending: Count.openapi({ description: 'Waiting for an approver' }) }).nullable(),
    zone_overlaps: z
      .object({ count: Count, named: z.array(z.object({ zone: z.string(), other: z.string().openapi({ description: "The other account's domain or zone it is at, inside or above" }) })) })
      .nullable()
      .openapi({ description: "Staff in their own group: zones at, inside or above another account's domain or zone (GET /dns/zone-overlaps lists them all); null otherwise" }),
  })
  .openapi('AttentionSummary')

/** What needs attention in an account: the portal's home page (issue 16). */
export const dashboardRouter = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/groups/{context}/summary',
    ...access('signed-in'),
    tags: ['Dashboard'],
    summary: 'What needs attention: expiring domains, zones in trouble, registry differences, orders, material changes',
    request: { params: z.object({ context: z.string() }) },
    responses: { 200: jsonResponse(Summary), ...ProblemResponses },
  }),
  async (c) => {
    const scope = requireScope(c, c.req.valid('param').context)
    const deps = c.get('deps')
    return c.json(await readSummary(deps.db, scope, deps.now()), 200)
  },
)
