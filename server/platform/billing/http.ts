import { createRoute, z } from '@hono/zod-openapi'
import { INVOICE_LANGUAGES, PAYMENT_KINDS, TRANSACTION_STATES } from '#common/billing.ts'
import { PRICING_RULE_KINDS, RULE_LEVELS } from '#common/pricing.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { listQueryFromUrl } from '#server/platform/list/engine.ts'
import { AuditEntry } from '#server/platform/audit/http.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import {
  billingEntitiesResource,
  billingEntityLog,
  billingEntityLogResource,
  createBillingEntity,
  getBillingEntity,
  recordPayment,
  scopedBillingEntitiesResource,
  setAccountEntity,
  setBalanceTerms,
  updateBillingEntity,
} from './service.ts'
import { getTransaction, refundTransaction, scopedTransactionsResource, transactionsResource } from './transactions.ts'
import { invoicePdf, invoiceUbl } from './documents.ts'
import { entityInvoices, invoicesResource, listTaxRates, loadInvoice, scopedInvoicesResource, setTaxRate, startInvoiceRun } from './invoices.ts'

const TAGS = ['Billing']
const ContextParam = z.object({ context: z.string() })
const IdParams = ContextParam.extend({ id: z.uuid() })
const Money = z.union([z.string().max(40), z.number()]).openapi({ description: 'Spec §5 money in the currency named', example: '100.00' })

const Address = z
  .object({ street1: z.string().max(200), street2: z.string().max(200), street3: z.string().max(200), city: z.string().max(200), state: z.string().max(200), postcode: z.string().max(40) })
  .partial()
  .strict()
const EntityBody = z
  .object({
    name: z.string().max(200),
    address: Address.optional(),
    country: z.string().max(2),
    vat_id: z.string().max(40).nullable().optional(),
    currency: z.string().max(3),
    payment_terms_days: z.number().int().optional(),
    invoice_language: z.enum(INVOICE_LANGUAGES).optional(),
    billing_email: z.string().max(320),
    credit_limit: Money.optional(),
  })
  .strict()
const BalanceSchema = z
  .object({
    currency: z.string(),
    balance_minor: z.number().int(),
    credit_limit_minor: z.number().int(),
    available_minor: z.number().int(),
    low_balance_minor: z.number().int().nullable(),
    version: z.number().int(),
  })
  .openapi('BillingBalance')
const PaymentSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(PAYMENT_KINDS),
    currency: z.string(),
    amount_minor: z.number().int(),
    reference: z.string(),
    reason: z.string(),
    balance_after_minor: z.number().int(),
    created_by: z.string(),
    created_at: z.string(),
  })
  .openapi('BillingPayment')
const EntitySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    address: z.record(z.string(), z.string()),
    country: z.string(),
    vat_id: z.string().nullable(),
    currency: z.string(),
    payment_terms_days: z.number().int(),
    invoice_language: z.enum(INVOICE_LANGUAGES),
    billing_email: z.string(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    balances: z.array(BalanceSchema),
    payments: z.array(PaymentSchema),
    accounts: z.array(z.object({ id: z.uuid(), name: z.string(), currency: z.string() })),
  })
  .openapi('BillingEntity')
/** The quote a charge was made at (common/pricing.ts Quote): staff read all of it, a client the price only, so every field may be absent. */
const ChargedQuoteSchema = z
  .object({
    product_id: z.string(),
    product_code: z.string(),
    currency: z.string(),
    period: z.number().int(),
    quantity: z.number().int(),
    unit_minor: z.number().int(),
    regular_minor: z.number().int(),
    total_minor: z.number().int(),
    cost_minor: z.number().int(),
    cost_currency: z.string(),
    below_cost: z.boolean(),
    rates: z.array(z.object({ from: z.string(), to: z.string(), rate: z.number(), date: z.string() })),
    chain: z.array(
      z.object({
        rule_id: z.string(),
        rule_name: z.string(),
        level: z.enum(RULE_LEVELS),
        kind: z.enum(PRICING_RULE_KINDS),
        effect: z.enum(['applied', 'overridden', 'not-reached']),
        before_minor: z.number().int().nullable(),
        after_minor: z.number().int().nullable(),
      }),
    ),
    priced_at: z.string(),
    pricing_entity_id: z.string(),
  })
  .partial()
  .openapi('ChargedQuote')

const TransactionSchema = z
  .object({
    id: z.uuid(),
    idempotency_key: z.string(),
    account_id: z.uuid(),
    account_name: z.string(),
    billing_entity_id: z.uuid().nullable(),
    billing_entity_name: z.string().nullable(),
    state: z.enum(TRANSACTION_STATES),
    kind: z.string(),
    action: z.string(),
    product_id: z.uuid().nullable(),
    product_code: z.string(),
    product_name: z.string().nullable().openapi({ description: "The product's name in the catalogue (null: no longer in it)" }),
    object_name: z.string(),
    domain_id: z.uuid().nullable(),
    order_id: z.uuid().nullable(),
    order_item_id: z.uuid().nullable(),
    order_state: z.string().nullable(),
    period: z.number().int(),
    quantity: z.number().int(),
    unit_minor: z.number().int(),
    amount_minor: z.number().int(),
    tax_minor: z.number().int(),
    currency: z.string(),
    amount_text: z.string(),
    quote: ChargedQuoteSchema.nullable(),
    actor_label: z.string(),
    actor_user_id: z.uuid().nullable(),
    reason: z.string(),
    settled_at: z.string().nullable(),
    credit_note_id: z.uuid().nullable().openapi({ description: 'The credit note that gave a refunded charge back, once one has (issue 26: it names the invoice the charge was on)' }),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Transaction')

const InvoiceSchema = z
  .object({
    id: z.uuid(),
    number: z.string().openapi({ description: "Unique among its seller's documents: INV-YYYY-NNNNNN (an invoice), CN-YYYY-NNNNNN (a credit note), one gapless series each per year" }),
    kind: z.enum(['invoice', 'credit-note']),
    period: z.string().openapi({ description: 'The month invoiced, YYYY-MM (a credit note: its invoice’s)', example: '2026-10' }),
    currency: z.string(),
    language: z.string(),
    issued_at: z.string(),
    due_at: z.string().nullable().openapi({ description: "An invoice's due date; a credit note has none" }),
    subtotal_minor: z.number().int(),
    tax_rate_percent: z.number(),
    tax_minor: z.number().int(),
    total_minor: z.number().int(),
    reverse_charge: z.boolean(),
    mailed_at: z.string().nullable(),
    corrects: z.object({ id: z.uuid(), number: z.string(), issued_at: z.string() }).nullable().openapi({ description: 'The invoice a credit note corrects (EN 16931 BG-3); null for an invoice' }),
  })
  .openapi('Invoice')
const TaxRateSchema = z.object({ country: z.string(), rate_percent: z.number(), name: z.string() }).openapi('TaxRate')

export const billingRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/billing-entities',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: 'Billing entities (staff in their own group: all; otherwise the one paying for the account)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(z.record(z.string(), z.unknown())), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await listPage(c, scope, { whole: billingEntitiesResource, scoped: scopedBillingEntitiesResource }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/billing-entities',
      ...access('staff'),
      tags: TAGS,
      summary: 'Make a billing entity (staff)',
      request: { params: ContextParam, body: jsonBody(EntityBody) },
      responses: { 201: jsonResponse(EntitySchema), ...ProblemResponses },
    }),
    async (c) => c.json(await createBillingEntity(c.get('deps').db, requireScope(c, c.req.valid('param').context), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/billing-entities/{id}',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: 'One billing entity with its balances, recent payments and accounts',
      request: { params: IdParams },
      responses: { 200: jsonResponse(EntitySchema), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      return c.json(await getBillingEntity(c.get('deps').db, requireScope(c, p.context), p.id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/billing-entities/{id}/log',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: "A billing entity's trail: edits, terms, payments, adjustments and invoices (staff also see the accounts put on it or taken off)",
      request: { params: IdParams, query: ListQueryParams },
      responses: { 200: ListResponse(AuditEntry), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      const query = listQueryFromUrl(billingEntityLogResource, new URL(c.req.url))
      return c.json(await billingEntityLog(c.get('deps').db, requireScope(c, p.context), p.id, query), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/groups/{context}/billing-entities/{id}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Edit a billing entity (staff); the VAT id is checked against the country',
      request: { params: IdParams, body: jsonBody(EntityBody.omit({ credit_limit: true }).partial().extend({ version: z.number().int().positive() }).strict()) },
      responses: { 200: jsonResponse(EntitySchema), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      return c.json(await updateBillingEntity(c.get('deps').db, requireScope(c, p.context), p.id, c.req.valid('json')), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/groups/{context}/billing-entities/{id}/balances/{currency}',
      ...access('staff'),
      tags: TAGS,
      summary: 'The credit limit (0: prepaid) and low-balance threshold of one currency (staff)',
      request: { params: IdParams.extend({ currency: z.string().max(3) }), body: jsonBody(z.object({ credit_limit: Money, low_balance: Money.nullable().optional() }).strict()) },
      responses: { 200: jsonResponse(BalanceSchema), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      return c.json(await setBalanceTerms(c.get('deps').db, requireScope(c, p.context), p.id, p.currency, c.req.valid('json')), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/billing-entities/{id}/payments',
      ...access('staff'),
      tags: TAGS,
      summary: 'Record a payment received or an adjustment with its reason (staff)',
      request: {
        params: IdParams,
        body: jsonBody(
          z.object({ kind: z.enum(PAYMENT_KINDS), currency: z.string().max(3), amount: Money, reference: z.string().max(200).optional(), reason: z.string().max(500).optional() }).strict(),
        ),
      },
      responses: { 201: jsonResponse(z.object({ payment: PaymentSchema, balance: BalanceSchema })), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      return c.json(await recordPayment(c.get('deps').db, requireScope(c, p.context), p.id, c.req.valid('json')), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/groups/{context}/billing-entities/{id}/accounts/{account}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Put an account on this entity: it pays for it from now on (staff)',
      request: { params: IdParams.extend({ account: z.uuid() }) },
      responses: { 204: { description: 'Done' }, ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      await setAccountEntity(c.get('deps').db, requireScope(c, p.context), p.id, p.account, true)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/billing-entities/{id}/accounts/{account}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Take an account off this entity (staff)',
      request: { params: IdParams.extend({ account: z.uuid() }) },
      responses: { 204: { description: 'Done' }, ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      await setAccountEntity(c.get('deps').db, requireScope(c, p.context), p.id, p.account, false)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/transactions',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: 'Transactions of the account (staff in their own group: every account)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(z.record(z.string(), z.unknown())), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await listPage(c, scope, { whole: transactionsResource, scoped: scopedTransactionsResource }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/transactions/{id}',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: 'One transaction and the quote it was charged at (staff: with the chain of rules, cost and rates)',
      request: { params: IdParams },
      responses: { 200: jsonResponse(TransactionSchema), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      return c.json(await getTransaction(c.get('deps').db, requireScope(c, p.context), p.id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/transactions/{id}/refund',
      ...access('staff'),
      tags: TAGS,
      summary: 'Refund a settled transaction: a credit back to the balance, with its reason (staff)',
      request: { params: IdParams, body: jsonBody(z.object({ reason: z.string().max(500) }).strict()) },
      responses: { 200: jsonResponse(TransactionSchema), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      return c.json(await refundTransaction(c.get('deps').db, requireScope(c, p.context), p.id, c.req.valid('json').reason), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/invoice-runs',
      ...access('staff'),
      tags: TAGS,
      summary: "Run the invoices of a closed month (staff): a job makes each billing entity's invoices and credit notes; a month is run once",
      request: { params: ContextParam, body: jsonBody(z.object({ period: z.string().max(7).openapi({ example: '2026-10' }) }).strict()) },
      responses: { 202: jsonResponse(z.object({ period: z.string(), state: z.string(), started_at: z.string() })), ...ProblemResponses },
    }),
    async (c) => c.json(await startInvoiceRun(c.get('deps'), requireScope(c, c.req.valid('param').context), c.req.valid('json').period), 202),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/billing-entities/{id}/invoices',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: "A billing entity's invoices and credit notes, newest first",
      request: { params: IdParams },
      responses: { 200: jsonResponse(z.object({ data: z.array(InvoiceSchema) })), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      return c.json({ data: await entityInvoices(c.get('deps').db, requireScope(c, p.context), p.id) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/invoices',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: "Invoices and credit notes (staff in their own group: every entity's; otherwise those of the entity paying for the account), newest first",
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(z.record(z.string(), z.unknown())), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await listPage(c, scope, { whole: invoicesResource, scoped: scopedInvoicesResource }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/invoices/{id}/{format}',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: "An invoice or credit note as PDF (in the entity's language) or as EN 16931 UBL 2.1 XML",
      request: { params: IdParams.extend({ format: z.enum(['pdf', 'xml']) }) },
      responses: { 200: { description: 'The document', content: { 'application/pdf': { schema: z.string() }, 'application/xml': { schema: z.string() } } }, ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      const { invoice, lines, corrects } = await loadInvoice(c.get('deps').db, requireScope(c, p.context), p.id)
      const name = `${invoice.number}.${p.format}`
      if (p.format === 'xml') return c.body(invoiceUbl(invoice, lines, corrects), 200, { 'Content-Type': 'application/xml; charset=utf-8', 'Content-Disposition': `attachment; filename="${name}"` })
      const pdf = await invoicePdf(invoice, lines, corrects)
      return c.body(pdf.buffer.slice(pdf.byteOffset, pdf.byteOffset + pdf.byteLength) as ArrayBuffer, 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="${name}"`,
      })
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/tax-rates',
      ...access('invoice-viewer'),
      tags: TAGS,
      summary: 'The tax rate per country invoices are taxed at',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(z.object({ data: z.array(TaxRateSchema) })), ...ProblemResponses },
    }),
    async (c) => c.json({ data: await listTaxRates(c.get('deps').db, requireScope(c, c.req.valid('param').context)) }, 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/groups/{context}/tax-rates/{country}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Set the tax rate of a country (staff)',
      request: { params: ContextParam.extend({ country: z.string().max(2) }), body: jsonBody(z.object({ rate_percent: z.number(), name: z.string().max(40).optional() }).strict()) },
      responses: { 200: jsonResponse(TaxRateSchema), ...ProblemResponses },
    }),
    async (c) => {
      const p = c.req.valid('param')
      const body = c.req.valid('json')
      return c.json(await setTaxRate(c.get('deps').db, requireScope(c, p.context), p.country, body.rate_percent, body.name), 200)
    },
  )
