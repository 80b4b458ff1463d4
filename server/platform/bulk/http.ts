import { createRoute, z } from '@hono/zod-openapi'
import { BULK_ACTIONS } from '#server/db/schema-tray.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, ConflictResponse, jsonBody, jsonResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { createBulkJob, getBulkJob, quoteBulk } from './service.ts'

const TAGS = ['Bulk actions']
const ContextParam = z.object({ context: z.string() })
const JobParams = z.object({ context: z.string(), job_id: z.uuid() })

const BulkBody = z
  .object({
    action: z.enum(BULK_ACTIONS),
    ids: z.array(z.uuid()).min(1).max(10_000).optional().openapi({ description: "Domain ids; the user's tray when omitted" }),
    params: z
      .object({
        period: z.number().int().min(1).max(10).optional().openapi({ description: 'renew: years' }),
        contacts: z.object({ registrant: z.uuid(), admin: z.uuid(), tech: z.uuid(), billing: z.uuid() }).partial().strict().optional().openapi({ description: 'set_contacts: contact ids per role' }),
        nameservers: z.array(z.string().min(1).max(253)).min(1).max(13).optional().openapi({ description: 'set_nameservers: host names' }),
      })
      .strict()
      .optional(),
    expected_totals: z
      .array(z.object({ amount_minor: z.number().int().min(0), currency: z.string().length(3) }).strict())
      .max(10)
      .optional()
      .openapi({
        description:
          "The totals the confirmation showed (POST …/bulk-actions/quote): when the action now totals otherwise, nothing is started (409 billing.quote_changed); each domain's charge is then held to its quoted price (an item whose price changed after the start fails, nothing charged)",
      }),
  })
  .strict()
  .openapi('BulkAction')

const BulkQuoteSchema = z
  .object({
    action: z.enum(BULK_ACTIONS),
    count: z.number().int().openapi({ description: 'The domains the action is for' }),
    charged: z.number().int().openapi({
      description: 'Those of them it charges (a domain the renewal rules refuse, or unpriced, is refused at its item and never charged; a domain already locked is not charged for the lock)',
    }),
    period: z.number().int().nullable(),
    totals: z.array(z.object({ amount_minor: z.number().int(), currency: z.string() })).openapi({ description: 'What the action charges, per currency; empty when it charges nothing' }),
    items: z
      .array(z.object({ id: z.uuid(), name: z.string(), amount_minor: z.number().int(), currency: z.string() }))
      .openapi({ description: 'Each domain the action charges, with its price (the quote its own charge takes), by name' }),
  })
  .openapi('BulkQuote')

const BulkResult = z.object({
  id: z.uuid(),
  name: z.string(),
  state: z.enum(['pending', 'done']),
  ok: z.boolean().nullable(),
  outcome: z.enum(['applied', 'unchanged', 'approval_requested']).optional(),
  error: z.string().optional(),
})
const BulkJobSchema = z
  .object({
    id: z.uuid(),
    action: z.enum(BULK_ACTIONS),
    params: z.record(z.string(), z.unknown()),
    state: z.enum(['queued', 'running', 'completed', 'failed']),
    total: z.number().int(),
    done: z.number().int(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    results: z.array(BulkResult),
  })
  .openapi('BulkJob')

/** Bulk actions over domains: one job per request, a result per domain. */
export const bulkRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/bulk-actions',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Run one action over many domains (default: the tray) as a job',
      request: { params: ContextParam, body: jsonBody(BulkBody) },
      responses: { 202: jsonResponse(z.object({ job_id: z.uuid() }), 'Accepted: the job runs in the background'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const job = await createBulkJob(c.get('deps'), scope, c.req.valid('json'))
      return c.json({ job_id: job.id }, 202)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/bulk-actions/quote',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'What an action over many domains (default: the tray) charges now, to confirm before it starts; nothing is reserved or started',
      request: { params: ContextParam, body: jsonBody(BulkBody.omit({ expected_totals: true })) },
      responses: { 200: jsonResponse(BulkQuoteSchema), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await quoteBulk(c.get('deps'), scope, c.req.valid('json')), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/bulk-actions/{job_id}',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'Progress and per-domain results of a bulk job',
      request: { params: JobParams },
      responses: { 200: jsonResponse(BulkJobSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, job_id } = c.req.valid('param')
      const scope = requireScope(c, context)
      return c.json(await getBulkJob(c.get('deps').db, scope, job_id), 200)
    },
  )
