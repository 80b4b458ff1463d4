import { createRoute, z } from '@hono/zod-openapi'
import { BLOCK_EXPIRING_DAYS } from '#common/blocks.ts'
import { WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX } from '#common/webhooks.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { createEndpoint, deleteEndpoint, getEndpoint, listAttempts, listEndpoints, replayDelivery, rotateSecret, sendTestPing, updateEndpoint } from './service.ts'

const TAGS = ['Webhooks']
const Conflict = {
  409: {
    description: 'Conflicts with stored state (changed version, delivery still pending, too many endpoints)',
    content: { 'application/problem+json': { schema: z.object({ code: z.string(), detail: z.string() }).passthrough() } },
  },
}

const Endpoint = z
  .object({
    id: z.uuid(),
    account_id: z.uuid(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    disabled_reason: z.string().nullable().openapi({ description: 'Why deliveries stopped: 410 Gone, five days of failures, or a person' }),
    failing_since: z.string().nullable(),
    rotating_until: z.string().nullable().openapi({ description: 'Until then messages carry two signatures: the new secret’s and the previous one’s' }),
    version: z.number().int(),
    created_at: z.string(),
  })
  .openapi('WebhookEndpoint')
const WithSecret = z.object({ endpoint: Endpoint, secret: z.string().openapi({ description: 'The signing secret (whsec_…), shown this once' }) }).openapi('WebhookEndpointSecret')
const EventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1).max(WEBHOOK_EVENT_TYPES.length)
const NewEndpoint = z
  .object({
    url: z.string().min(1).max(WEBHOOK_URL_MAX).openapi({ example: 'https://hooks.example.com/registrar' }),
    description: z.string().max(200).optional(),
    events: EventTypes,
    enabled: z.boolean().optional(),
  })
  .strict()
  .openapi('NewWebhookEndpoint')
const PatchEndpoint = z
  .object({
    url: z.string().min(1).max(WEBHOOK_URL_MAX).optional(),
    description: z.string().max(200).optional(),
    events: EventTypes.optional(),
    enabled: z.boolean().optional(),
    version: z.number().int().positive(),
  })
  .strict()
  .openapi('PatchWebhookEndpoint')
const Attempt = z
  .object({
    id: z.uuid(),
    delivery_id: z.uuid(),
    event_id: z.uuid(),
    event_type: z.string(),
    attempted_at: z.string(),
    status: z.number().int().nullable(),
    response_excerpt: z.string(),
    error: z.string().nullable(),
    duration_ms: z.number().int(),
    delivery_state: z.enum(['pending', 'succeeded', 'failed']),
  })
  .openapi('WebhookAttempt')
const Queued = z.object({ delivery_id: z.uuid() }).openapi('WebhookDeliveryQueued')

const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })
const DeliveryParams = z.object({ context: z.string(), id: z.uuid(), delivery_id: z.uuid() })
const base = '/groups/{context}/webhook_endpoints'

/** Webhook endpoints of an account, their delivery log, replay and test ping (issue 20). */
export const webhooksRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: base,
      ...access('account-viewer'),
      tags: TAGS,
      summary: 'The account’s webhook endpoints',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(z.object({ data: z.array(Endpoint) })), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json({ data: await listEndpoints(c.get('deps'), scope) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: base,
      ...access('account-admin'),
      tags: TAGS,
      summary: 'Add an endpoint (HTTPS; no loopback or private address); answers its signing secret once',
      request: { params: ContextParam, body: jsonBody(NewEndpoint) },
      responses: { 201: jsonResponse(WithSecret, 'Made'), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await createEndpoint(c.get('deps'), scope, c.req.valid('json')), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: `${base}/{id}`,
      ...access('account-viewer'),
      tags: TAGS,
      summary: 'One endpoint',
      request: { params: Params },
      responses: { 200: jsonResponse(Endpoint), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await getEndpoint(c.get('deps'), requireScope(c, context), id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: `${base}/{id}`,
      ...access('account-admin'),
      tags: TAGS,
      summary: 'Change an endpoint; enabling it again clears its failures',
      request: { params: Params, body: jsonBody(PatchEndpoint) },
      responses: { 200: jsonResponse(Endpoint), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await updateEndpoint(c.get('deps'), requireScope(c, context), id, c.req.valid('json')), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: `${base}/{id}`,
      ...access('account-admin'),
      tags: TAGS,
      summary: 'Remove an endpoint and its log',
      request: { params: Params },
      responses: { 204: { description: 'Removed' }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      await deleteEndpoint(c.get('deps'), requireScope(c, context), id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: `${base}/{id}/rotate_secret`,
      ...access('account-admin'),
      tags: TAGS,
      summary: 'A new signing secret; for a day messages are signed with both',
      request: { params: Params },
      responses: { 200: jsonResponse(WithSecret), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await rotateSecret(c.get('deps'), requireScope(c, context), id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: `${base}/{id}/test`,
      ...access('account-admin'),
      tags: TAGS,
      summary: 'Send a webhook.test event to this endpoint',
      request: { params: Params },
      responses: { 202: jsonResponse(Queued, 'Queued'), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await sendTestPing(c.get('deps'), requireScope(c, context), id), 202)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: `${base}/{id}/attempts`,
      ...access('account-viewer'),
      tags: TAGS,
      summary: 'The delivery log: each request made (status, time, response excerpt), newest first',
      request: { params: Params },
      responses: { 200: jsonResponse(z.object({ data: z.array(Attempt) })), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json({ data: await listAttempts(c.get('deps'), requireScope(c, context), id) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: `${base}/{id}/deliveries/{delivery_id}/replay`,
      ...access('account-admin'),
      tags: TAGS,
      summary: 'Send a delivery again (same webhook-id)',
      request: { params: DeliveryParams },
      responses: { 202: jsonResponse(Queued, 'Queued'), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id, delivery_id } = c.req.valid('param')
      return c.json(await replayDelivery(c.get('deps'), requireScope(c, context), id, delivery_id), 202)
    },
  )

const DomainData = z.object({
  id: z.uuid(),
  name: z.string().openapi({ example: 'acme.com' }),
  expires_at: z.string().nullable().optional(),
  period: z.number().int().optional(),
  order_id: z.uuid().optional(),
  status: z.string().optional(),
  outcome: z.string().optional(),
})
const OrderData = z.object({
  order_id: z.uuid(),
  item_id: z.uuid(),
  type: z.enum(['register', 'transfer', 'renew']),
  name: z.string(),
  domain_id: z.uuid().optional(),
  expires_at: z.string().nullable().optional(),
  error: z.string().optional(),
  registry_code: z.number().int().nullable().optional(),
})
const ZoneData = z.object({ id: z.uuid(), name: z.string(), serial: z.number().int(), reason: z.string().optional() })
const ExpiringData = z.object({ id: z.uuid(), name: z.string(), expires_at: z.string(), days_left: z.number().int(), auto_renew: z.boolean() })
const TransferData = z.object({ id: z.uuid(), name: z.string(), expires_at: z.string().nullable().optional(), order_id: z.uuid().optional(), requested_by: z.string().nullable().optional() })
const DriftData = z.object({ id: z.uuid(), name: z.string(), missing: z.number().int(), unexpected: z.number().int(), different: z.number().int() })
const DifferenceData = z.object({ domain_id: z.uuid(), name: z.string(), field: z.enum(['exists', 'expires_at', 'statuses', 'nameservers', 'ds']), ours: z.string(), registry: z.string() })
const SslData = z.object({ id: z.uuid(), names: z.array(z.string()), not_after: z.string().nullable().optional(), days_left: z.number().int().optional(), reason: z.string().optional() })
// As the API's Invoice answers them (billing/http.ts): the period YYYY-MM, a credit note with no due date and the invoice it corrects.
const InvoiceData = z.object({
  id: z.uuid(),
  number: z.string(),
  kind: z.enum(['invoice', 'credit-note']),
  billing_entity_id: z.uuid(),
  period: z.string().openapi({ description: 'The month invoiced, YYYY-MM (a credit note: its invoice’s)', example: '2026-10' }),
  currency: z.string(),
  total_minor: z.number().int(),
  due_at: z.string().nullable().openapi({ description: "An invoice's due date; a credit note has none" }),
  corrects: z.object({ id: z.uuid(), number: z.string() }).nullable().openapi({ description: 'The invoice a credit note corrects; null for an invoice' }),
})
const BrandDetectionData = z.object({
  candidate_id: z.uuid(),
  brand_id: z.uuid(),
  name: z.string().openapi({ description: 'The registrable lookalike, ASCII (an IDN in punycode)' }),
  unicode_name: z.string(),
  source: z.enum(['ct', 'zone']).openapi({ description: 'The feed that found it: a Certificate Transparency log or a zone file' }),
  fuzzers: z.array(z.string()),
  score: z.number().int(),
  status: z.string().openapi({ description: 'The candidate’s status now (registered, or ours)' }),
  certificate: z
    .object({ log: z.string(), index: z.number().int(), names: z.array(z.string()), issuer: z.string(), not_before: z.string(), not_after: z.string(), serial: z.string() })
    .optional()
    .openapi({ description: 'The certificate seen (ct)' }),
  zone: z.object({ tld: z.string(), file: z.string() }).optional().openapi({ description: 'The zone file it appeared in (zone)' }),
})
const BlockData = z.object({
  id: z.uuid(),
  label: z.string().openapi({ description: 'The blocked label, ASCII (an IDN in punycode)' }),
  label_unicode: z.string(),
  product_code: z.string(),
  trademark_ref: z.string(),
  covered_tlds: z.array(z.string()),
  expires_at: z.string().nullable(),
  provider_id: z.string().nullable().optional(),
  period_years: z.number().int().optional().openapi({ description: 'The years ordered (placed) or added (renewed)' }),
  days_left: z.number().int().optional(),
  reason: z.string().nullable().optional().openapi({ description: "The provider's reason for refusing it (failed)" }),
  previous_status: z.enum(['pending', 'active']).optional().openapi({ description: 'What was cancelled: a block not placed yet, or one the provider held' }),
})
const EVENT_DATA: Record<(typeof WEBHOOK_EVENT_TYPES)[number], { summary: string; data: z.ZodType }> = {
  'domain.registered': { summary: 'A domain was registered (directly or by an order)', data: DomainData },
  'domain.renewed': { summary: 'A domain was renewed', data: DomainData },
  'domain.deleted': { summary: 'A domain was deleted (gone, or in redemption)', data: DomainData },
  'domain.expiring': { summary: 'A domain crossed an expiry notice threshold (the days before it expires)', data: ExpiringData },
  'domain.transferred_in': { summary: 'A domain transferred in completed (by an order, or approved at the registry)', data: TransferData },
  'domain.transferred_out': { summary: 'A domain was transferred away to another registrar', data: TransferData },
  'order.completed': { summary: 'An order item completed at the registry', data: OrderData },
  'order.failed': { summary: 'An order item failed', data: OrderData },
  'dns.zone.published': { summary: 'A DNS zone was published to the name servers', data: ZoneData },
  'dns.zone.failed': { summary: 'The name servers refused a DNS zone', data: ZoneData },
  'dns.zone.drifted': { summary: 'The name servers started to differ from our records for a zone', data: DriftData },
  'registry.difference_found': { summary: 'Reconciliation found the registry holding something else than our records', data: DifferenceData },
  'ssl.issued': { summary: 'The CA issued a certificate (an order, a renewal or a reissue)', data: SslData },
  'ssl.expiring': { summary: 'A certificate crossed an expiry notice threshold and nothing replaces it yet', data: SslData },
  'ssl.failed': { summary: 'A certificate order failed (the CA refused, or validation failed), with the reason', data: SslData },
  'invoice.issued': { summary: "An invoice or credit note of the account's billing entity was issued", data: InvoiceData },
  'block.placed': { summary: 'The provider placed a block ordered: active, with its covered TLDs and expiry', data: BlockData },
  'block.failed': { summary: "The provider refused a block ordered (its charge released), with the provider's reason", data: BlockData },
  'block.renewed': { summary: 'A block was renewed at the provider, with its new expiry', data: BlockData },
  'block.expiring': { summary: `A block comes within ${BLOCK_EXPIRING_DAYS} days of its expiry (once per term, with the expiry notice mail)`, data: BlockData },
  'block.expired': { summary: 'A block reached the end of its term unrenewed: the label is no longer blocked', data: BlockData },
  'block.cancelled': { summary: 'A block was cancelled (deleted at the provider when it was placed)', data: BlockData },
  'brand.detection': {
    summary: 'A feed found a lookalike of one of the account’s brands new or changed: a certificate for it in a Certificate Transparency log, or its registration in a zone file',
    data: BrandDetectionData,
  },
}
const SignatureHeaders = z.object({
  'webhook-id': z.string().openapi({ description: 'The message id (msg_…): the same for every retry and replay, so a repeat can be dropped', example: 'msg_2b7c0e0d9a6f4c1e8f3a5b7d9c1e2f30' }),
  'webhook-timestamp': z.string().openapi({ description: 'Unix seconds when this attempt was signed; refuse messages far from your clock', example: '1764028800' }),
  'webhook-signature': z.string().openapi({
    description: 'Space-separated v1,<base64 HMAC-SHA256 of "id.timestamp.body"> with the endpoint secret (whsec_…, base64 key); two during a secret rotation',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  }),
})

/**
 * The events in the OpenAPI document's `webhooks` section (what an endpoint receives), beside the
 * operations: Standard Webhooks headers, the envelope and each event's data.
 */
export function registerWebhookDocs(registry: { registerWebhook(webhook: Parameters<typeof createRoute>[0]): void }): void {
  for (const type of WEBHOOK_EVENT_TYPES) {
    const { summary, data } = EVENT_DATA[type]
    const envelope = z.object({ type: z.literal(type), timestamp: z.string().openapi({ description: 'When the event happened (ISO 8601)' }), data })
    registry.registerWebhook({
      method: 'post',
      path: type,
      tags: TAGS,
      summary,
      description:
        'Sent as a POST to each enabled endpoint of the account that wants this event. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (with jitter, or later when you send Retry-After). 410 Gone disables the endpoint, as do five days of failures.',
      request: { headers: SignatureHeaders, body: { content: { 'application/json': { schema: envelope.openapi(`WebhookEvent_${type.replace(/\./g, '_')}`) } }, required: true } },
      responses: { 200: { description: 'Received (any 2xx)' }, 410: { description: 'Gone: the endpoint is disabled' } },
    })
  }
}
