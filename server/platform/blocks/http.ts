import { createRoute, z } from '@hono/zod-openapi'
import { BLOCK_STATES } from '#common/blocks.ts'
import type { Block } from '#server/db/schema-blocks.ts'
import { ExpectedPriceSchema } from '#server/platform/billing/expected-price.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { blockOffers, blocksResource, cancelBlock, getBlock, orderBlock, renewBlock, scopedBlocksResource, stateOf, type BlockDetail } from './service.ts'

const TAGS = ['Blocks']
const Conflict = {
  409: {
    description: 'Refused in the block’s state, or past the balance or credit limit',
    content: { 'application/problem+json': { schema: z.object({ code: z.string(), detail: z.string() }).passthrough() } },
  },
}
const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })
const iso = (d: Date | null) => d?.toISOString() ?? null

const ChargeSchema = z
  .object({
    transaction_id: z.uuid(),
    state: z.enum(['reserved', 'settled', 'released', 'refunded']),
    action: z.string(),
    period: z.number().int(),
    amount_minor: z.number().int(),
    currency: z.string(),
    created_at: z.string(),
  })
  .openapi('BlockCharge')

const BlockSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    label: z.string().openapi({ description: 'The blocked label, ASCII (an IDN in punycode)' }),
    label_unicode: z.string(),
    product_code: z.string(),
    period_years: z.number().int(),
    trademark_ref: z.string().openapi({ description: 'The trademark (SMD / Trademark Clearinghouse) reference the block is placed under' }),
    status: z.enum(BLOCK_STATES),
    covered_tlds: z.array(z.string()).openapi({ description: 'The TLDs the provider blocks the label in (known once placed)' }),
    provider: z.string().nullable(),
    provider_id: z.string().nullable(),
    placed_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    cancelled_at: z.string().nullable(),
    failure_reason: z.string().nullable().openapi({ description: 'Why the provider refused it' }),
    created_by: z.string(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Block')

const DetailSchema = BlockSchema.extend({
  account_name: z.string(),
  product_name: z.string().nullable(),
  transactions: z.array(ChargeSchema).openapi({ description: 'Its charges: the order and each renewal' }),
}).openapi('BlockDetail')

const BlockRow = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    account: z.object({ name: z.string() }),
    label: z.string(),
    label_unicode: z.string(),
    product_code: z.string(),
    status: z.enum(BLOCK_STATES),
    trademark_ref: z.string(),
    period_years: z.number().int(),
    covered_tlds: z.string(),
    expires_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .partial()
  .openapi('BlockRow')

const OfferSchema = z
  .object({
    code: z.string(),
    name: z.string(),
    periods: z.array(z.number().int()),
    prices: z.array(z.object({ period_years: z.number().int(), order_minor: z.number().int(), renew_minor: z.number().int(), currency: z.string() })),
  })
  .openapi('BlockProductOffer')

const OrderBody = z
  .object({
    label: z.string().max(300).openapi({ description: 'One DNS label; an IDN is converted to punycode' }),
    product_code: z.string().max(100).openapi({ description: 'A block product on sale (kind block, action order), e.g. block:dpml:order' }),
    period_years: z.number().int(),
    trademark_ref: z.string().max(300),
    expected: ExpectedPriceSchema.optional(),
  })
  .strict()
  .openapi('BlockOrder')
const RenewBody = z.object({ period_years: z.number().int(), expected: ExpectedPriceSchema.optional() }).strict().openapi('BlockRenew')

function blockJson(b: Block, now: Date) {
  return {
    id: b.id,
    group_id: b.account_id,
    label: b.label,
    label_unicode: b.label_unicode,
    product_code: b.product_code,
    period_years: b.period_years,
    trademark_ref: b.trademark_ref,
    status: stateOf(b, now),
    covered_tlds: b.covered_tlds,
    provider: b.provider,
    provider_id: b.provider_id,
    placed_at: iso(b.placed_at),
    expires_at: iso(b.expires_at),
    cancelled_at: iso(b.cancelled_at),
    failure_reason: b.failure_reason,
    created_by: b.created_by,
    version: b.version,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
  }
}

const detailJson = (d: BlockDetail, now: Date) => ({
  ...blockJson(d.block, now),
  account_name: d.account_name,
  product_name: d.product_name,
  // The charge as its schema says it; the charge's idempotency key is the ledger's own, not an answer's.
  transactions: d.transactions.map((t) => ({
    transaction_id: t.transaction_id,
    state: t.state as 'reserved',
    action: t.action,
    period: t.period,
    amount_minor: t.amount_minor,
    currency: t.currency,
    created_at: t.created_at.toISOString(),
  })),
})

export const blocksRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/block-products',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'The block products on sale, with the account’s price of each period (none for staff in their own group)',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(z.object({ data: z.array(OfferSchema) })), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      return c.json({ data: await blockOffers(deps.db, scope.accountId, deps.now()) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/blocks',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'Blocks of the account (staff in their own group: every account)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(BlockRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await listPage(c, scope, { whole: blocksResource, scoped: scopedBlocksResource }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/blocks',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Order a block: charged now (reserved), placed with the provider by a job, settled when it confirms, released when it refuses',
      request: { params: ContextParam, body: jsonBody(OrderBody) },
      responses: { 201: jsonResponse(BlockSchema, 'Ordered'), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      const block = await orderBlock(deps, scope, c.req.valid('json'))
      return c.json(blockJson(block, deps.now()), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/blocks/{id}',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'One block: its label, product, covered TLDs, state and charges',
      request: { params: Params },
      responses: { 200: jsonResponse(DetailSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const deps = c.get('deps')
      return c.json(detailJson(await getBlock(deps, scope, id), deps.now()), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/blocks/{id}/renew',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Renew an active block by a period (charged at the renewal price)',
      request: { params: Params, body: jsonBody(RenewBody) },
      responses: { 200: jsonResponse(BlockSchema), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const deps = c.get('deps')
      return c.json(blockJson(await renewBlock(deps, scope, id, c.req.valid('json')), deps.now()), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/blocks/{id}/cancel',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Cancel a block: a pending one is released (nothing charged), an active one deleted at the provider',
      request: { params: Params },
      responses: { 200: jsonResponse(BlockSchema), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const deps = c.get('deps')
      return c.json(blockJson(await cancelBlock(deps, scope, id), deps.now()), 200)
    },
  )
