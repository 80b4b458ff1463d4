import { createRoute, z } from '@hono/zod-openapi'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listQueryFromUrl, runList } from '#server/platform/list/engine.ts'
import { CONTACT_ROLES, differencesResourceFor, DOMAIN_STATUSES, domainsResourceFor, getDomainDetail, requireDomainViewer } from './portfolio.ts'

const TAGS = ['Domains']
const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })

export const DomainRow = z
  .object({
    id: z.uuid(),
    name: z.string().openapi({ description: 'ASCII (punycode) form', example: 'xn--80ak6aa92e.com' }),
    unicode_name: z.string(),
    tld: z.string(),
    status: z.enum(DOMAIN_STATUSES),
    expires_at: z.string().nullable(),
    auto_renew: z.boolean(),
    registry_lock: z.boolean(),
    dnssec: z.boolean(),
    tags: z.array(z.string()),
    registrant_name: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('DomainRow')

const ContactSummary = z.object({ id: z.uuid(), name: z.string(), organisation: z.string(), email: z.string() }).nullable()
const DsRecord = z.object({ key_tag: z.number().int(), alg: z.number().int(), digest_type: z.number().int(), digest: z.string() })
const Difference = z.object({ field: z.string(), ours: z.string(), registry: z.string(), detected_at: z.string() })

export const DomainDetailSchema = DomainRow.extend({
  account_id: z.uuid(),
  registered_at: z.string().nullable(),
  version: z.number().int(),
  statuses: z.array(z.string()).openapi({ description: 'EPP statuses as the registry last reported them' }),
  nameservers: z.array(z.string()),
  contacts: z.object(Object.fromEntries(CONTACT_ROLES.map((r) => [r, ContactSummary])) as Record<(typeof CONTACT_ROLES)[number], typeof ContactSummary>),
  ds: z.array(DsRecord),
  reconciliation: z.object({ checked_at: z.string().nullable(), differences: z.array(Difference) }),
}).openapi('DomainDetail')

const DifferenceRow = z
  .object({ id: z.uuid(), domain_id: z.uuid(), domain_name: z.string(), field: z.string(), ours: z.string(), registry: z.string(), detected_at: z.string() })
  .partial()
  .openapi('ReconciliationDifference')

export const domainsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains',
      tags: TAGS,
      summary: 'The domain portfolio (name contains uses a trigram index; totals above 10,000 are capped)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(DomainRow.partial()), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      requireDomainViewer(scope)
      const resource = domainsResourceFor(scope)
      const page = await runList(c.get('deps').db, resource, listQueryFromUrl(resource, new URL(c.req.url)), scope)
      return c.json(page as never, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains/reconciliation-differences',
      tags: TAGS,
      summary: 'Open differences between the registry and our records, found by the reconciliation job',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(DifferenceRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      requireDomainViewer(scope)
      const resource = differencesResourceFor(scope)
      const page = await runList(c.get('deps').db, resource, listQueryFromUrl(resource, new URL(c.req.url)), scope)
      return c.json(page as never, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains/{id}',
      tags: TAGS,
      summary: 'One domain: dates, statuses, the four contacts, nameservers, DS and reconciliation',
      request: { params: Params },
      responses: { 200: jsonResponse(DomainDetailSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      requireDomainViewer(scope)
      return c.json((await getDomainDetail(c.get('deps').db, scope, id)) as never, 200)
    },
  )
