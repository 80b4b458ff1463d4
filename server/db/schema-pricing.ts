import type { ColumnType, Generated, Selectable } from 'kysely'
import type { PricingRuleKind, ProductKind, RuleParams, RuleSelector } from '#common/pricing.ts'
import type { Quote } from '#common/pricing.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
/** bigint columns arrive as strings from PostgreSQL and numbers from PGlite; services read them with Number(). */
type Minor = ColumnType<string | number, number, number>
type Json<T> = ColumnType<T, string, string>

/** Tables of migration 0700 (issue 17, decision 300). */
export interface RegistrarTemplatesTable {
  id: Generated<string>
  name: string
  schema: Json<Record<string, unknown>>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface ProductsTable {
  id: Generated<string>
  code: string
  name: string
  kind: ProductKind
  action: string
  tld: string | null
  tags: Defaulted<string[]>
  periods: Defaulted<number[]>
  registrar_template_id: string | null
  is_active: Defaulted<boolean>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface ProductCostsTable {
  id: Generated<string>
  product_id: string
  currency: string
  amount_minor: Minor
  effective_from: Timestamp
  created_at: Timestamp
}

export interface PricingEntitiesTable {
  id: Generated<string>
  name: string
  currencies: string[]
  is_default: Defaulted<boolean>
  notice_days: Defaulted<number>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface PricingRulesTable {
  id: Generated<string>
  rule_name: string
  pricing_entity_id: string | null
  product_id: string | null
  selector: ColumnType<RuleSelector | null, string | null, string | null>
  kind: PricingRuleKind
  params: Json<RuleParams>
  currency: string | null
  starts_at: Date | null
  ends_at: Date | null
  below_cost_reason: string | null
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

/** A price-rise notice mailed to an account for one window (and version) of a rule, once. */
export interface PriceRiseNoticesTable {
  rule_id: string
  rule_version: number
  account_id: string
  sent_at: Generated<Date>
}

/** accounts.pricing_entity_id: the price list of an account (null: the default list). */
export type AccountPricingColumns = { pricing_entity_id: ColumnType<string | null, string | null | undefined, string | null> }
/** The quote an item was priced at (cart_items, order_items). */
export type QuoteColumn = { quote: ColumnType<Quote | null, string | null | undefined, string | null> }
/** The registrar template's values an order item was placed with (order_items). */
export type TemplateValuesColumn = { template_values: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null> }
/** The day an exchange rate is the reference rate of (the ECB file's date; null when typed by hand). */
export type RateDateColumn = { rate_date: ColumnType<Date | string | null, string | null | undefined, string | null> }

export type Product = Selectable<ProductsTable>
export type PricingEntity = Selectable<PricingEntitiesTable>
export type PricingRuleRow = Selectable<PricingRulesTable>
export type RegistrarTemplate = Selectable<RegistrarTemplatesTable>
