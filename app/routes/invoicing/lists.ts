import { BILLING_ENTITIES_LIST, BILLING_ENTITY_LOG_LIST, INVOICES_LIST, TRANSACTIONS_LIST } from '#common/lists/billing.ts'
import { PRICING_ENTITIES_LIST, PRICING_RULES_LIST } from '#common/lists/pricing.ts'
import { auditList, columnsOf, type ListDefinition } from '#app/lib/lists.ts'

// --- Pricing (issue 17) ---

/** /invoicing/pricing-entities: the price lists. */
export const pricingEntitiesList: ListDefinition = {
  id: 'pricing-entities',
  apiPath: () => '/pricing-entities',
  columns: columnsOf(PRICING_ENTITIES_LIST, { name: true, currencies: true, is_default: true, accounts: true, notice_days: false, updated_at: true }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? ''),
}

/** The rule windows of one set; the route fixes the set (level) and the product or custom. */
export const pricingRulesList: ListDefinition = {
  id: 'pricing-rules',
  apiPath: () => '/pricing-rules',
  columns: columnsOf(PRICING_RULES_LIST, {
    rule_name: true,
    level: true,
    'pricing_entity.name': true,
    'product.code': true,
    kind: true,
    currency: false,
    starts_at: true,
    ends_at: true,
    updated_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'rule_name',
  trayType: null,
  rowLabel: (row) => String(row.rule_name ?? ''),
}

/** The /log screens of price lists and rules (the invoicing trail, fixed to one entity by the route). */
export const pricingLogList: ListDefinition = { ...auditList('pricing-log', 'invoicing'), trayType: null }

// --- Billing (issue 18) ---

/** The billing entities (staff: all; a client: the one paying for its account). */
export const billingEntitiesList: ListDefinition = {
  id: 'billing-entities',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/billing-entities`,
  columns: columnsOf(BILLING_ENTITIES_LIST, {
    name: true,
    country: true,
    vat_id: true,
    currency: true,
    balance_text: true,
    payment_terms_days: false,
    invoice_language: false,
    billing_email: false,
    accounts: true,
    updated_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? ''),
}

const transactionColumns = {
  created_at: true,
  state: true,
  action: true,
  'product.name': true,
  product_code: false,
  object_name: true,
  period: false,
  amount_text: true,
  amount_minor: false,
  currency: false,
  'account.name': true,
  'billing_entity.name': false,
  actor_label: false,
  settled_at: false,
} as const

/** /invoicing/transactions: every billable action, filterable by entity, account, product, state and dates. */
export const transactionsList: ListDefinition = {
  id: 'transactions',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/transactions`,
  columns: columnsOf(TRANSACTIONS_LIST, transactionColumns),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => `${String(row.product_code ?? '')} ${String(row.object_name ?? '')}`,
}

/** /domains/{id}/transactions and /ssls/{id}/transactions: the route fixes the domain. */
export const domainTransactionsList: ListDefinition = {
  ...transactionsList,
  id: 'domain-transactions',
  columns: columnsOf(TRANSACTIONS_LIST, { ...transactionColumns, object_name: false, 'account.name': false }),
}

/** /invoicing for a client (issue 28): its invoices and credit notes, each with its PDF and XML (staff in their own group: every entity's). */
export const invoicesList: ListDefinition = {
  id: 'invoices',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/invoices`,
  columns: columnsOf(INVOICES_LIST, {
    number: true,
    kind: true,
    issued_at: true,
    period: true,
    total_text: true,
    due_at: true,
    status: true,
    currency: false,
    total_minor: false,
    tax_minor: false,
    reverse_charge: false,
    corrects_number: false,
    'billing_entity.name': false,
  }),
  fixedFilters: [],
  defaultSort: '-issued_at',
  trayType: null,
  rowLabel: (row) => String(row.number ?? ''),
}

/** The /log screens of billing entities and transactions (the invoicing trail, fixed by the route). */
export const billingLogList: ListDefinition = { ...auditList('billing-log', 'invoicing'), trayType: null }

/** A billing entity's /log: its own trail route (the API leaves out what a client may not read), the entity fixed by the path. */
export const billingEntityLogList: ListDefinition = {
  ...auditList('billing-entity-log', 'invoicing'),
  columns: columnsOf(
    BILLING_ENTITY_LOG_LIST,
    { created_at: true, area: false, entity_type: false, entity_id: false, action: true, actor_label: true, actor_user_id: false, request_id: false, changes: true },
    { area: { filterable: false } },
  ),
  fixedFilters: [],
  trayType: null,
}
