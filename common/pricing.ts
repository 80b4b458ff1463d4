/**
 * Products and pricing (issue 17, decision 300): the words both sides use — product kinds and
 * actions, rule kinds and levels — and the shape of a quote, the price with the chain of rules
 * that produced it.
 */

export const PRODUCT_KINDS = ['domain', 'ssl', 'block', 'service'] as const
export type ProductKind = (typeof PRODUCT_KINDS)[number]

/** The domain actions a TLD's products are generated for (migration 0700). */
export const DOMAIN_ACTIONS = ['register', 'renew', 'transfer', 'restore', 'trade', 'registry-lock'] as const
export type DomainAction = (typeof DOMAIN_ACTIONS)[number]

/** Rule kinds: three set the price, four adjust it (applied in this order after the price is set). */
export const PRICE_SETTING_KINDS = ['margin', 'markup', 'fixed'] as const
export const ADJUSTING_KINDS = ['volume', 'minimum-margin', 'promotion', 'rounding'] as const
export const PRICING_RULE_KINDS = [...PRICE_SETTING_KINDS, ...ADJUSTING_KINDS] as const
export type PricingRuleKind = (typeof PRICING_RULE_KINDS)[number]

/**
 * Where a rule sits, lowest precedence first: a higher level overrides a lower one of the same
 * effect (decision 300): entity custom over entity per-product over global custom over global
 * per-product.
 */
export const RULE_LEVELS = ['global-product', 'global-custom', 'entity-product', 'entity-custom'] as const
export type RuleLevel = (typeof RULE_LEVELS)[number]

export const ROUNDING_MODES = ['ends-99', 'whole'] as const
export type RoundingMode = (typeof ROUNDING_MODES)[number]

/** A custom rule's choice of products: every list given must match (tags: any one of them). */
export type RuleSelector = { kinds?: string[]; actions?: string[]; tlds?: string[]; tags?: string[] }

/** Parameters by kind; money in minor units of the rule's currency. */
export type RuleParams = {
  /** margin, minimum-margin: percent over cost. */
  percent?: number
  /** markup, fixed, promotion: an amount in minor units of the rule's currency. */
  amount_minor?: number
  /** promotion: the promotional price applies to the first year of a registration only. */
  first_year_only?: boolean
  /** rounding. */
  mode?: RoundingMode
  /** volume: percent off from a quantity on (the highest tier reached applies). */
  tiers?: { min_quantity: number; percent_off: number }[]
}

/** One step of the chain that produced a price. */
export type ChainStep = {
  rule_id: string
  rule_name: string
  level: RuleLevel
  kind: PricingRuleKind
  /** applied: changed (or confirmed) the price; overridden: a higher rule of the same effect won. */
  effect: 'applied' | 'overridden' | 'not-reached'
  before_minor: number | null
  after_minor: number | null
}

export type AppliedRate = { from: string; to: string; rate: number; date: string }

/** A product priced: the unit price (a year), the total for the period and quantity, and why. */
export type Quote = {
  product_id: string
  product_code: string
  currency: string
  period: number
  quantity: number
  /** The price of one year after every rule. */
  unit_minor: number
  /** The price of one year without a first-year-only promotion (equal to unit_minor otherwise). */
  regular_minor: number
  total_minor: number
  cost_minor: number
  cost_currency: string
  below_cost: boolean
  rates: AppliedRate[]
  chain: ChainStep[]
  priced_at: string
  pricing_entity_id: string
}

/** Why a product has no price: no cost, no rate between two currencies, or no rule that sets a price. */
export type NoPrice = { reason: 'no-cost' | 'no-rate' | 'no-price-rule'; from?: string; to?: string }

/** The products' code: lowercase letters, digits and : . _ - (domain:com:register). */
export const PRODUCT_CODE = /^[a-z0-9][a-z0-9:._-]{0,99}$/
/** A rule's name: lowercase letters, digits and . _ - (it is a path segment). */
export const RULE_NAME = /^[a-z0-9][a-z0-9._-]{0,79}$/

/** A line of a product-costs CSV as the upload's preview answers it (POST /product-costs/upload), read by the portal's preview table. */
export type CostUploadRow = {
  line: number
  code: string
  currency: string
  amount: string
  effective_from: string
  product_id: string | null
  amount_minor: number | null
  previous_minor: number | null
  status: 'new' | 'changed' | 'unchanged' | 'error'
  /** Some price list would sell the product below this cost. */
  at_loss: boolean
  errors: { field: string; code: string; message: string }[]
}
