import { createRoute, z } from '@hono/zod-openapi'
import { ORDER_ITEM_STATES, ORDER_ITEM_TYPES, ORDER_STATES } from '#server/db/schema-orders.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses, RegistryProblemResponses } from '#server/platform/core/openapi.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { addToCart, cancelOrder, checkoutCart, createOrder, getCart, getOrder, ordersResource, removeCartItem, retryItem, updateCartItem } from './service.ts'

const TAGS = ['Orders']
const Context = z.object({ context: z.string().min(1).max(100) })
const WithId = Context.extend({ id: z.uuid() })
const WithItem = WithId.extend({ item_id: z.uuid() })

const Money = z.object({ currency: z.string(), minor: z.number().int().openapi({ description: 'Integer minor units (JPY has none)' }) }).openapi('MoneyTotal')
const Period = z.number().int().min(1).max(10).openapi({ description: "Years; must be one of the TLD's periods" })
const AuthCode = z.string().max(255).optional().openapi({ description: 'Required for a transfer; never returned' })

const CartItem = z
  .object({
    id: z.uuid(),
    type: z.enum(ORDER_ITEM_TYPES),
    name: z.string(),
    unicode_name: z.string(),
    tld: z.string(),
    period: z.number().int(),
    price_minor: z.number().int().openapi({ description: 'What checkout charges for it now: the account’s quote at this moment' }),
    currency: z.string(),
    added_price_minor: z.number().int().openapi({ description: 'Its price when it was added to the cart (or its period last changed)' }),
    added_currency: z.string(),
    price_changed: z.boolean().openapi({ description: 'The price now differs from the price when it was added (a pricing rule or exchange rate changed since)' }),
    has_auth_code: z.boolean(),
    created_at: z.string(),
  })
  .openapi('CartItem')
const Cart = z.object({ items: z.array(CartItem), totals: z.array(Money) }).openapi('Cart')
const AddCartItem = z
  .object({ type: z.enum(['register', 'transfer']).default('register'), name: z.string().min(1).max(300), period: Period.default(1), auth_code: AuthCode })
  .strict()
  .openapi('AddCartItem')
const PatchCartItem = z.object({ period: Period.optional(), auth_code: AuthCode }).strict().openapi('PatchCartItem')

const OrderContacts = z
  .object({ registrant: z.uuid(), admin: z.uuid(), tech: z.uuid(), billing: z.uuid() })
  .openapi('OrderContacts', { description: 'The contacts the registrations of the order are created with (contact ids of the account)' })
const ContactsInput = z
  .object({ registrant: z.uuid(), admin: z.uuid().optional(), tech: z.uuid().optional(), billing: z.uuid().optional() })
  .strict()
  .openapi('OrderContactsInput', { description: 'Required when the order holds a registration; admin, tech and billing default to the registrant' })
const ItemLog = z.object({ occurred_at: z.string(), state: z.string(), message: z.string(), registry_code: z.number().int().nullable(), actor_label: z.string() })
const OrderItem = z
  .object({
    id: z.uuid(),
    order_id: z.uuid(),
    position: z.number().int(),
    type: z.enum(ORDER_ITEM_TYPES),
    name: z.string(),
    unicode_name: z.string(),
    tld: z.string(),
    period: z.number().int(),
    price_minor: z.number().int(),
    currency: z.string(),
    state: z.enum(ORDER_ITEM_STATES),
    attempts: z.number().int(),
    last_error: z.string().nullable().openapi({ description: "The registry's message when the item failed" }),
    registry_code: z.number().int().nullable(),
    domain_id: z.uuid().nullable(),
    template_values: z.record(z.string(), z.unknown()).nullable().openapi({ description: "The registrar template's values the item was ordered with (null: its product has no template)" }),
    retryable: z.boolean(),
    cancellable: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    log: z.array(ItemLog),
  })
  .openapi('OrderItem')
const Order = z
  .object({
    id: z.uuid(),
    account_id: z.uuid(),
    created_by: z.string(),
    state: z.enum(ORDER_STATES),
    item_count: z.number().int(),
    completed_count: z.number().int(),
    failed_count: z.number().int(),
    names: z.string(),
    totals: z.array(Money),
    total_text: z.string(),
    contacts: OrderContacts.nullable(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    items: z.array(OrderItem),
  })
  .openapi('Order')
const CreateOrder = z
  .object({
    items: z
      .array(
        z
          .object({
            type: z.enum(ORDER_ITEM_TYPES),
            name: z.string().min(1).max(300),
            period: Period,
            auth_code: AuthCode,
            template_values: z
              .record(z.string().max(100), z.unknown())
              .optional()
              .openapi({ description: "The values of the registrar template of the item's product, validated against its JSON Schema" }),
          })
          .strict(),
      )
      .min(1)
      .max(100),
    contacts: ContactsInput.optional(),
  })
  .strict()
  .openapi('CreateOrder')
const Checkout = z
  .object({
    contacts: ContactsInput.optional(),
    template_values: z
      .record(z.uuid(), z.record(z.string().max(100), z.unknown()))
      .optional()
      .openapi({ description: "By cart item id: the values of the registrar template of the item's product, validated against its JSON Schema" }),
    expected_totals: z
      .array(Money)
      .max(50)
      .optional()
      .openapi({ description: 'The totals the cart showed: when the cart now totals otherwise (a price changed since), checkout is refused (409, reason price-changed) and nothing is ordered' }),
  })
  .strict()
  .openapi('Checkout')
const CancelOrder = z
  .object({ item_ids: z.array(z.uuid()).max(100).optional() })
  .strict()
  .openapi('CancelOrder')

export const ordersRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/cart',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: "The signed-in user's cart in this account, each item at what checkout charges now (flagged where that differs from its price when added), with totals per currency",
      request: { params: Context },
      responses: { 200: jsonResponse(Cart), ...ProblemResponses },
    }),
    async (c) => c.json(await getCart(c.get('deps').db, requireScope(c, c.req.valid('param').context)), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/cart/items',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Add a name to the cart (name rules, TLD periods, availability at the registry, price from the TLD list price)',
      request: { params: Context, body: jsonBody(AddCartItem) },
      responses: { 201: jsonResponse(CartItem, 'Added'), 409: ProblemResponses[400], ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => c.json(await addToCart(c.get('deps'), requireScope(c, c.req.valid('param').context), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/groups/{context}/cart/items/{id}',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Change the period or auth code of a cart item',
      request: { params: WithId, body: jsonBody(PatchCartItem) },
      responses: { 200: jsonResponse(CartItem), ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await updateCartItem(c.get('deps'), requireScope(c, context), id, c.req.valid('json')), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/cart/items/{id}',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Remove an item from the cart',
      request: { params: WithId },
      responses: { 204: { description: 'Removed' }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      await removeCartItem(c.get('deps').db, requireScope(c, context), id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/cart/checkout',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Submit the cart as an order; the cart is emptied. A cart with a registration needs its contacts',
      request: { params: Context, body: { content: { 'application/json': { schema: Checkout } }, required: false } },
      responses: { 201: jsonResponse(Order, 'Ordered'), ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => {
      const body = (c.req.valid('json') as z.infer<typeof Checkout> | undefined) ?? {}
      return c.json(
        await checkoutCart(c.get('deps'), requireScope(c, c.req.valid('param').context), { contacts: body.contacts, template_values: body.template_values, expected_totals: body.expected_totals }),
        201,
      )
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/orders',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Order names directly (register, transfer with auth code, renew); every item runs as a job',
      request: { params: Context, body: jsonBody(CreateOrder) },
      responses: { 201: jsonResponse(Order, 'Ordered'), ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json')
      return c.json(await createOrder(c.get('deps'), requireScope(c, c.req.valid('param').context), body.items, body.contacts), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/orders',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'Orders of the account (list engine)',
      request: { params: Context, query: ListQueryParams },
      responses: {
        200: ListResponse(
          Order.omit({ items: true, account_id: true, version: true })
            .extend({
              item_name: z.array(z.string()).openapi({ description: 'The names of its items (a filter: item_name contains …)' }),
              group_id: z.uuid().openapi({ description: 'The account the order is of' }),
              account: z.object({ name: z.string() }),
            })
            .partial(),
        ),
        ...ProblemResponses,
      },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      // Staff in their own group read every account's orders, as the other lists (each row names its account).
      return c.json(await listPage(c, scope, { whole: { ...ordersResource, accountColumn: undefined }, scoped: ordersResource }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/orders/{id}',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'One order with its items, their states and logs',
      request: { params: WithId },
      responses: { 200: jsonResponse(Order), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await getOrder(c.get('deps').db, requireScope(c, context), id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/orders/{id}/items/{item_id}/retry',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Run a failed item again',
      request: { params: WithItem },
      responses: { 200: jsonResponse(Order), 409: ProblemResponses[400], ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => {
      const { context, id, item_id } = c.req.valid('param')
      return c.json(await retryItem(c.get('deps'), requireScope(c, context), id, item_id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/orders/{id}/cancel',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Cancel the pending items of an order (or those named); items already sent to the registry are not affected',
      request: { params: WithId, body: { content: { 'application/json': { schema: CancelOrder } }, required: false } },
      responses: { 200: jsonResponse(Order), 409: ProblemResponses[400], ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const body = (c.req.valid('json') as z.infer<typeof CancelOrder> | undefined) ?? {}
      return c.json(await cancelOrder(c.get('deps').db, requireScope(c, context), id, body.item_ids), 200)
    },
  )

/**
 * The orders area as mounted by the Platform API: its routes, with its job handlers registered
 * on the same deps (main.ts builds the API before it starts the job engine, as do the tests).
 */
