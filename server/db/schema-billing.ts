import type { ColumnType, Generated, Selectable } from 'kysely'
import type { InvoiceLanguage, PaymentKind, TransactionState } from '#common/billing.ts'
import type { Quote } from '#common/pricing.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
/** bigint columns arrive as strings from PostgreSQL and numbers from PGlite; services read them with Number(). */
type Minor = ColumnType<string | number, number, number>

/** Tables of migration 0800 (issue 18). */
export type BillingAddress = { street1?: string; street2?: string; street3?: string; city?: string; state?: string; postcode?: string }

export interface BillingEntitiesTable {
  id: Generated<string>
  name: string
  address: ColumnType<BillingAddress, string | undefined, string>
  country: string
  vat_id: string | null
  currency: string
  payment_terms_days: Defaulted<number>
  invoice_language: Defaulted<InvoiceLanguage>
  billing_email: string
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface BillingBalancesTable {
  billing_entity_id: string
  currency: string
  balance_minor: ColumnType<string | number, number | undefined, number>
  credit_limit_minor: ColumnType<string | number, number | undefined, number>
  low_balance_minor: ColumnType<string | number | null, number | null | undefined, number | null>
  low_balance_warned_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  version: Defaulted<number>
  updated_at: Timestamp
}

export interface BillingPaymentsTable {
  id: Generated<string>
  billing_entity_id: string
  kind: PaymentKind
  currency: string
  amount_minor: Minor
  reference: Defaulted<string>
  reason: Defaulted<string>
  balance_after_minor: Minor
  created_by: string
  created_at: Timestamp
}

export interface TransactionsTable {
  id: Generated<string>
  idempotency_key: string
  account_id: string
  billing_entity_id: string | null
  state: Defaulted<TransactionState>
  kind: string
  action: string
  product_id: string | null
  product_code: string
  object_name: Defaulted<string>
  domain_id: ColumnType<string | null, string | null | undefined, string | null>
  order_id: ColumnType<string | null, string | null | undefined, string | null>
  order_item_id: ColumnType<string | null, string | null | undefined, string | null>
  period: Defaulted<number>
  quantity: Defaulted<number>
  unit_minor: Minor
  amount_minor: Minor
  tax_minor: ColumnType<string | number, number | undefined, number>
  currency: string
  quote: ColumnType<Quote | null, string | null | undefined, string | null>
  actor_label: string
  actor_user_id: string | null
  reason: Defaulted<string>
  settled_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  credit_note_id: ColumnType<string | null, string | null | undefined, string | null>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

/** Tables of migration 0801: tax rates, invoice runs and invoices. */
export interface TaxRatesTable {
  country: string
  rate_percent: ColumnType<string | number, string | number, string | number>
  name: Defaulted<string>
  updated_at: Timestamp
}

export interface InvoiceRunsTable {
  /** A date column: 'YYYY-MM-DD' (both drivers hand dates over as text). */
  period: string
  state: Defaulted<'running' | 'completed'>
  invoices: Defaulted<number>
  started_by: string
  started_at: Timestamp
  finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>
}

/** Migration 0960: each seller's numbering series (its VAT id) per kind and year; the last number taken. */
export interface InvoiceSeriesTable {
  series: string
  kind: 'invoice' | 'credit-note'
  year: number
  last_seq: number
}

export type InvoiceBuyer = { name: string; address: BillingAddress; country: string; vat_id: string | null; billing_email: string }

/** Who invoiced, as issued (migration 0920; configuration SELLER_*, server/platform/billing/seller.ts). */
export type InvoiceSeller = {
  name: string
  street: string
  city: string
  postcode: string
  country: string
  vat_id: string
  registration: string
  email: string
  /** Where to pay (issue 28): absent on documents issued before it was configured. */
  iban?: string
  bic?: string
  bank_name?: string
}

export interface InvoicesTable {
  id: Generated<string>
  billing_entity_id: string
  kind: 'invoice' | 'credit-note'
  /** A date column: 'YYYY-MM-DD' (both drivers hand dates over as text). */
  period: string
  /** The month of the run that issued it (migration 0960): an invoice's period, a credit note's own run. */
  run_period: string
  year: number
  seq: number
  number: string
  /** The series the number is unique in (migration 0960): the seller's VAT id ('entity:{id}' before, numbered per entity). */
  series: string
  /** A credit note's invoice it corrects (EN 16931 BG-3); null for an invoice (and a credit note of before 0960 over several). */
  corrects_invoice_id: ColumnType<string | null, string | null | undefined, string | null>
  currency: string
  language: string
  issued_at: Timestamp
  /** An invoice's due date; a credit note has none (migration 0960). */
  due_at: ColumnType<Date | null, Date | null, Date | null>
  subtotal_minor: Minor
  tax_rate_percent: ColumnType<string | number, string | number, string | number>
  tax_minor: Minor
  total_minor: Minor
  reverse_charge: Defaulted<boolean>
  buyer: ColumnType<InvoiceBuyer, string, string>
  seller: ColumnType<InvoiceSeller, string, string>
  mailed_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** When the mail job took it to mail (migration 0870). */
  mail_claimed_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  created_at: Timestamp
}

export interface InvoiceLinesTable {
  invoice_id: string
  position: number
  transaction_id: string | null
  description: string
  quantity: number
  unit_minor: Minor
  amount_minor: Minor
}

export type Invoice = Selectable<InvoicesTable>
export type InvoiceLine = Selectable<InvoiceLinesTable>

/** accounts.billing_entity_id: who pays for the account (null: nobody set yet). */
export type AccountBillingColumns = { billing_entity_id: ColumnType<string | null, string | null | undefined, string | null> }

export type BillingEntity = Selectable<BillingEntitiesTable>
export type BillingBalance = Selectable<BillingBalancesTable>
export type BillingPayment = Selectable<BillingPaymentsTable>
export type Transaction = Selectable<TransactionsTable>
