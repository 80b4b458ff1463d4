import { INVOICE_LANGUAGES, TRANSACTION_STATES } from '../billing.ts'
import { listCatalogue } from '../list-catalogue.ts'
import { AUDIT_LIST } from './audit.ts'

/** Field catalogues of the billing lists (issue 18): billing entities and transactions. */

export const BILLING_ENTITIES_LIST = listCatalogue({
  name: 'billing-entities',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    country: { type: 'text', filterable: true, sortable: true },
    vat_id: { type: 'text', filterable: true, sortable: true },
    currency: { type: 'text', filterable: true, sortable: true },
    payment_terms_days: { type: 'integer', filterable: true, sortable: true },
    invoice_language: { type: 'enum', filterable: true, sortable: true, choices: INVOICE_LANGUAGES },
    billing_email: { type: 'text', filterable: true, sortable: true },
    accounts: { type: 'integer', sortable: true },
    balance_text: { type: 'text' },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const TRANSACTIONS_LIST = listCatalogue({
  name: 'transactions',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    state: { type: 'enum', filterable: true, sortable: true, choices: TRANSACTION_STATES },
    action: { type: 'text', filterable: true, sortable: true },
    product_code: { type: 'text', filterable: true, sortable: true },
    /** The product's name (issue 28): what a person reads, where the code is what a script filters by. */
    'product.name': { type: 'text' },
    object_name: { type: 'text', filterable: true, sortable: true },
    period: { type: 'integer', filterable: true, sortable: true },
    amount_minor: { type: 'integer', filterable: true, sortable: true },
    currency: { type: 'text', filterable: true, sortable: true },
    amount_text: { type: 'text' },
    account_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
    billing_entity_id: { type: 'uuid', filterable: true },
    'billing_entity.name': { type: 'text', filterable: true, sortable: true },
    domain_id: { type: 'uuid', filterable: true },
    order_id: { type: 'uuid', filterable: true },
    actor_label: { type: 'text', filterable: true, sortable: true },
    settled_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

/** Invoices and credit notes (issue 28): a client reads those of the entity paying for its account. */
export const INVOICE_KINDS = ['invoice', 'credit-note'] as const
/** Issued (its mail not sent yet) or sent to the billing address. */
export const INVOICE_STATUSES = ['issued', 'sent'] as const
export const INVOICES_LIST = listCatalogue({
  name: 'invoices',
  defaultSort: '-issued_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    number: { type: 'text', filterable: true, sortable: true },
    kind: { type: 'enum', filterable: true, sortable: true, choices: INVOICE_KINDS },
    issued_at: { type: 'timestamp', filterable: true, sortable: true },
    period: { type: 'text', filterable: true, sortable: true },
    currency: { type: 'text', filterable: true, sortable: true },
    subtotal_minor: { type: 'integer', filterable: true, sortable: true },
    tax_minor: { type: 'integer', filterable: true, sortable: true },
    total_minor: { type: 'integer', filterable: true, sortable: true },
    total_text: { type: 'text' },
    due_at: { type: 'timestamp', filterable: true, sortable: true },
    status: { type: 'enum', filterable: true, sortable: true, choices: INVOICE_STATUSES },
    reverse_charge: { type: 'boolean', filterable: true },
    corrects_number: { type: 'text', filterable: true },
    billing_entity_id: { type: 'uuid', filterable: true },
    'billing_entity.name': { type: 'text', filterable: true, sortable: true },
  },
})

/**
 * A billing entity's trail (its edits, terms, payments, adjustments, invoices and the accounts it
 * pays for): the audit entries of area invoicing about the entity, read by whoever can open it.
 */
export const BILLING_ENTITY_LOG_LIST = listCatalogue({
  name: 'billing-entity-log',
  defaultSort: '-created_at',
  fields: {
    ...AUDIT_LIST.fields,
    area: { type: 'enum', filterable: true, sortable: true, choices: ['invoicing'] },
  },
})
