import { createRoute, z } from '@hono/zod-openapi'
import { PRICING_RULE_KINDS, PRODUCT_KINDS, ROUNDING_MODES, RULE_LEVELS } from '#common/pricing.ts'
import { createRouter, requireOwnScope, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import {
  accountPrices,
  accountPricingEntity,
  applicableRules,
  assignPricingEntity,
  createPricingEntity,
  createRule,
  deleteRule,
  getPricingEntity,
  getRule,
  previewRule,
  pricingEntitiesResource,
  pricingRulesResource,
  updatePricingEntity,
  updateRule,
} from './service.ts'
import { listRates, setRate, uploadEcbRates } from './rates.ts'

const TAGS = ['Pricing']
const Currency = z.string().regex(/^[A-Z]{3}$/)

const EntitySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    currencies: z.array(z.string()),
    is_default: z.boolean(),
    notice_days: z.number().int(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('PricingEntity')
const EntityBody = z
  .object({ name: z.string().min(1).max(200), currencies: z.array(Currency).min(1).max(20), is_default: z.boolean().optional(), notice_days: z.number().int().min(0).max(365).optional() })
  .strict()

const Selector = z
  .object({ kinds: z.array(z.string().max(40)).max(10), actions: z.array(z.string().max(40)).max(10), tlds: z.array(z.string().max(63)).max(2000), tags: z.array(z.string().max(40)).max(20) })
  .partial()
  .strict()
const RuleBody = z
  .object({
    rule_name: z.string().max(80),
    pricing_entity_id: z.uuid().nullable().optional(),
    product_id: z.uuid().nullable().optional(),
    selector: Selector.nullable().optional(),
    kind: z.enum(PRICING_RULE_KINDS),
    percent: z.number().nullable().optional(),
    amount: z
      .union([z.string().max(40), z.number()])
      .nullable()
      .optional()
      .openapi({ description: 'Spec §5 money in the rule currency', example: '12.99' }),
    currency: z.string().max(3).nullable().optional(),
    mode: z.enum(ROUNDING_MODES).nullable().optional(),
    first_year_only: z.boolean().optional(),
    tiers: z
      .array(z.object({ min_quantity: z.number().int(), percent_off: z.number() }))
      .max(20)
      .nullable()
      .optional(),
    starts_at: z.string().max(40).nullable().optional(),
    ends_at: z.string().max(40).nullable().optional(),
    below_cost_reason: z.string().max(500).nullable().optional(),
  })
  .strict()
  .openapi('PricingRuleInput')
/** A rule's figures (common/pricing.ts RuleParams): which ones a rule has depends on its kind. */
const RuleParamsSchema = z
  .object({
    percent: z.number().optional().openapi({ description: 'margin, minimum-margin: percent over cost' }),
    amount_minor: z.number().int().optional().openapi({ description: "markup, fixed, promotion: an amount in minor units of the rule's currency" }),
    first_year_only: z.boolean().optional().openapi({ description: 'promotion: the first year of a registration only' }),
    mode: z.enum(ROUNDING_MODES).optional().openapi({ description: 'rounding' }),
    tiers: z
      .array(z.object({ min_quantity: z.number().int(), percent_off: z.number() }))
      .optional()
      .openapi({ description: 'volume: percent off from a quantity on' }),
  })
  .openapi('PricingRuleParams')
const RuleSchema = z
  .object({
    id: z.uuid(),
    rule_name: z.string(),
    set: z.enum(['global', 'entity']),
    pricing_entity_id: z.uuid().nullable(),
    product_id: z.uuid().nullable(),
    selector: Selector.nullable(),
    kind: z.enum(PRICING_RULE_KINDS),
    params: RuleParamsSchema,
    currency: z.string().nullable(),
    starts_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    below_cost_reason: z.string().nullable(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('PricingRuleWindow')
/** A row of the pricing rules list (common/lists/pricing.ts): `fields` may leave any field out. */
const PricingRuleRow = z
  .object({
    id: z.uuid(),
    rule_name: z.string(),
    level: z.enum(RULE_LEVELS),
    is_custom: z.boolean(),
    pricing_entity_id: z.uuid().nullable(),
    'pricing_entity.name': z.string().nullable(),
    product_id: z.uuid().nullable(),
    'product.code': z.string().nullable(),
    selector: z.record(z.string(), z.unknown()).nullable(),
    kind: z.enum(PRICING_RULE_KINDS),
    params: z.record(z.string(), z.unknown()),
    currency: z.string().nullable(),
    starts_at: z.string().nullable(),
    ends_at: z.string().nullable(),
    below_cost_reason: z.string().nullable(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .partial()
  .openapi('PricingRuleRow')
const ChainStepSchema = z.object({
  rule_id: z.string(),
  rule_name: z.string(),
  level: z.enum(RULE_LEVELS),
  kind: z.enum(PRICING_RULE_KINDS),
  effect: z.enum(['applied', 'overridden', 'not-reached']),
  before_minor: z.number().int().nullable(),
  after_minor: z.number().int().nullable(),
})
const PreviewSchema = z
  .object({
    at: z.string(),
    changed: z.number().int(),
    below_cost: z.number().int(),
    no_price: z.number().int(),
    changes: z.array(
      z.object({
        product_id: z.uuid(),
        product_code: z.string(),
        pricing_entity_id: z.uuid(),
        pricing_entity_name: z.string(),
        currency: z.string(),
        old_minor: z.number().int().nullable(),
        new_minor: z.number().int().nullable(),
        cost_minor: z.number().int().nullable(),
        margin_percent: z.number().nullable(),
        below_cost: z.boolean(),
        no_price: z.string().nullable(),
      }),
    ),
  })
  .openapi('PricingRulePreview')
const PricedRowSchema = z
  .object({
    product_id: z.uuid(),
    product_code: z.string(),
    product_name: z.string(),
    kind: z.string(),
    action: z.string(),
    tld: z.string().nullable(),
    currency: z.string(),
    price_minor: z.number().int().nullable(),
    regular_minor: z.number().int().nullable(),
    cost_minor: z.number().int().nullable(),
    margin_percent: z.number().nullable(),
    below_cost: z.boolean(),
    no_price: z.string().nullable(),
    chain: z.array(ChainStepSchema),
    rates: z.array(z.object({ from: z.string(), to: z.string(), rate: z.number(), date: z.string() })),
  })
  .openapi('ApplicableRule')
const PageParams = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(25),
  q: z.string().max(100).optional(),
  kind: z.enum(PRODUCT_KINDS).optional(),
  currency: Currency.optional(),
})
const SetParam = z.enum(['global', 'entity'])
const IdParam = z.object({ id: z.uuid() })
/**
 * /pricing-rules/{set_or_id}: one path for a set's new window (POST: global or entity) and a
 * window's own changes (PATCH, DELETE: its id), so that the document has one path, not two that
 * differ only by the parameter's name.
 */
const RuleSetParam = z.object({ set_or_id: SetParam.openapi({ description: 'The price list set the window goes into' }) })
const RuleWindowParam = z.object({ set_or_id: z.uuid().openapi({ description: "The window's id" }) })

const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .openapi({ description: 'ISO 4217 code', example: 'EUR' })
const CurrencyRate = z
  .object({
    from_currency: z.string(),
    to_currency: z.string(),
    rate: z.number().openapi({ description: 'One unit of from_currency in to_currency' }),
    updated_at: z.string(),
    rate_date: z.string().nullable().openapi({ description: 'The day it is the reference rate of (an ECB file), null when set by hand' }),
  })
  .openapi('CurrencyRate')

export const pricingRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/currency_rates',
      ...access('staff'),
      tags: TAGS,
      summary: 'The exchange rates that convert TLD list prices into the currency an account is billed in (staff)',
      responses: { 200: jsonResponse(z.object({ data: z.array(CurrencyRate) })), ...ProblemResponses },
    }),
    async (c) => c.json({ data: await listRates(c.get('deps').db, requireOwnScope(c)) }, 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/currency_rates/{from}/{to}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Set the rate of one unit of a currency in another (staff)',
      request: { params: z.object({ from: CurrencyCode, to: CurrencyCode }), body: jsonBody(z.object({ rate: z.number().positive() }).strict().openapi('SetCurrencyRate')) },
      responses: { 200: jsonResponse(CurrencyRate), ...ProblemResponses },
    }),
    async (c) => {
      const { from, to } = c.req.valid('param')
      return c.json(await setRate(c.get('deps').db, requireOwnScope(c), from, to, c.req.valid('json').rate), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pricing-entities',
      ...access('staff'),
      tags: TAGS,
      summary: 'Price lists (staff)',
      request: { query: ListQueryParams },
      responses: { 200: ListResponse(EntitySchema.extend({ accounts: z.number().int() }).partial()), ...ProblemResponses },
    }),
    async (c) => {
      return c.json(await listPage(c, null, pricingEntitiesResource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/pricing-entities',
      ...access('staff'),
      tags: TAGS,
      summary: 'Make a price list (staff)',
      request: { body: jsonBody(EntityBody) },
      responses: { 201: jsonResponse(EntitySchema), ...ProblemResponses },
    }),
    async (c) => c.json(await createPricingEntity(c.get('deps').db, requireOwnScope(c), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pricing-entities/{id}',
      ...access('staff'),
      tags: TAGS,
      summary: 'One price list (staff)',
      request: { params: IdParam },
      responses: { 200: jsonResponse(EntitySchema), ...ProblemResponses },
    }),
    async (c) => c.json(await getPricingEntity(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/pricing-entities/{id}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Edit a price list (staff)',
      request: { params: IdParam, body: jsonBody(EntityBody.partial().extend({ version: z.number().int().positive() }).strict()) },
      responses: { 200: jsonResponse(EntitySchema), ...ProblemResponses },
    }),
    async (c) => c.json(await updatePricingEntity(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pricing-entities/{id}/applicable-rules',
      ...access('staff'),
      tags: TAGS,
      summary: 'Every product of a price list: the price now in each currency and the chain of rules that produced it (staff)',
      request: { params: IdParam, query: PageParams },
      responses: {
        200: jsonResponse(z.object({ entity: EntitySchema, data: z.array(PricedRowSchema), meta: z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int() }) })),
        ...ProblemResponses,
      },
    }),
    async (c) => c.json(await applicableRules(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id, c.req.valid('query'), c.get('deps').now()), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}/pricing-entity',
      ...access('staff'),
      tags: TAGS,
      summary: 'The price list an account is on: the one it names, or the default list (assigned false) (staff)',
      request: { params: IdParam },
      responses: {
        200: jsonResponse(z.object({ pricing_entity: z.object({ id: z.uuid(), name: z.string(), is_default: z.boolean() }).nullable(), assigned: z.boolean() })),
        ...ProblemResponses,
      },
    }),
    async (c) => c.json(await accountPricingEntity(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/accounts/{id}/pricing-entity',
      ...access('staff'),
      tags: TAGS,
      summary: 'Put an account on a price list (null: the default list) (staff)',
      request: { params: IdParam, body: jsonBody(z.object({ pricing_entity_id: z.uuid().nullable() }).strict()) },
      responses: { 204: { description: 'Done' }, ...ProblemResponses },
    }),
    async (c) => {
      await assignPricingEntity(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id, c.req.valid('json').pricing_entity_id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pricing-rules',
      ...access('staff'),
      tags: TAGS,
      summary: 'Pricing rule windows, global and per price list (staff)',
      request: { query: ListQueryParams },
      responses: { 200: ListResponse(PricingRuleRow), ...ProblemResponses },
    }),
    async (c) => {
      return c.json(await listPage(c, null, pricingRulesResource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/pricing-rules/{set}/{product}/{ruleName}',
      ...access('staff'),
      tags: TAGS,
      summary: 'One rule with its windows: global or entity, a product id or "custom", and its name (staff)',
      request: { params: z.object({ set: SetParam, product: z.union([z.literal('custom'), z.uuid()]), ruleName: z.string().max(80) }) },
      responses: { 200: jsonResponse(z.object({ data: z.array(RuleSchema) })), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      return c.json({ data: await getRule(c.get('deps').db, requireOwnScope(c), p.set, p.product, p.ruleName) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/pricing-rules/{set}/preview',
      ...access('staff'),
      tags: TAGS,
      summary: 'What a new rule window (or, with replacing, a changed one) would do: the prices it moves, old → new, flagged below cost; nothing saved',
      request: { params: z.object({ set: SetParam }), query: z.object({ replacing: z.uuid().optional() }), body: jsonBody(RuleBody) },
      responses: { 200: jsonResponse(PreviewSchema), ...ProblemResponses },
    }),
    async (c) => c.json(await previewRule(c.get('deps').db, requireOwnScope(c), c.req.valid('param').set, c.req.valid('json'), c.req.valid('query').replacing ?? null, c.get('deps').now()), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/pricing-rules/{set_or_id}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Save a rule window; a price below cost is refused (409) unless below_cost_reason is given, an overlapping window of the rule is refused',
      request: { params: RuleSetParam, body: jsonBody(RuleBody) },
      responses: { 201: jsonResponse(z.object({ rule: RuleSchema, preview: PreviewSchema })), ...ProblemResponses },
    }),
    async (c) => c.json(await createRule(c.get('deps').db, requireOwnScope(c), c.req.valid('param').set_or_id, c.req.valid('json'), c.get('deps').now()), 201),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/pricing-rules/{set_or_id}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Change one window of a rule (its name, product and price list stay)',
      request: { params: RuleWindowParam, body: jsonBody(RuleBody.extend({ version: z.number().int().positive() })) },
      responses: { 200: jsonResponse(z.object({ rule: RuleSchema, preview: PreviewSchema })), ...ProblemResponses },
    }),
    async (c) => c.json(await updateRule(c.get('deps').db, requireOwnScope(c), c.req.valid('param').set_or_id, c.req.valid('json'), c.get('deps').now()), 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/pricing-rules/{set_or_id}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Remove one window of a rule (staff)',
      request: { params: RuleWindowParam },
      responses: { 204: { description: 'Removed' }, ...ProblemResponses },
    }),
    async (c) => {
      await deleteRule(c.get('deps').db, requireOwnScope(c), c.req.valid('param').set_or_id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/prices',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: "The account's prices in its currency (its price list; no costs, margins or rules)",
      request: { params: z.object({ context: z.string() }), query: PageParams },
      responses: {
        200: jsonResponse(
          z.object({
            currency: z.string(),
            data: z.array(
              z.object({
                product_id: z.uuid(),
                product_code: z.string(),
                product_name: z.string(),
                kind: z.string(),
                action: z.string(),
                tld: z.string().nullable(),
                currency: z.string(),
                price_minor: z.number().int().nullable(),
                regular_minor: z.number().int().nullable(),
                promotion: z.boolean(),
              }),
            ),
            meta: z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
          }),
        ),
        ...ProblemResponses,
      },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await accountPrices(c.get('deps').db, scope, c.req.valid('query'), c.get('deps').now()), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/currency_rates/ecb',
      ...access('staff'),
      tags: TAGS,
      summary: "The ECB's daily reference rates (eurofxref-daily.xml): a preview of the EUR rates it sets (new, changed, unchanged); commit sets them all with the file's date",
      request: { body: jsonBody(z.object({ xml: z.string().max(200_000), commit: z.boolean().default(false) }).strict()) },
      responses: {
        200: jsonResponse(
          z.object({
            date: z.string(),
            committed: z.boolean(),
            rows: z.array(
              z.object({
                from_currency: z.literal('EUR'),
                to_currency: z.string(),
                rate: z.number(),
                previous: z.number().nullable(),
                previous_date: z.string().nullable(),
                status: z.enum(['new', 'changed', 'unchanged']),
              }),
            ),
          }),
        ),
        ...ProblemResponses,
      },
    }),
    async (c) => {
      const body = c.req.valid('json')
      return c.json(await uploadEcbRates(c.get('deps').db, requireOwnScope(c), body.xml, body.commit), 200)
    },
  )
