import { convertMinor } from '#common/money.ts'
import {
  ADJUSTING_KINDS,
  PRICE_SETTING_KINDS,
  RULE_LEVELS,
  type AppliedRate,
  type ChainStep,
  type NoPrice,
  type PricingRuleKind,
  type Quote,
  type RuleLevel,
  type RuleParams,
  type RuleSelector,
} from '#common/pricing.ts'

/**
 * The pricing engine (decision 300): a pure function over a product, its costs, the rules that
 * may apply, and the exchange rates → a price and the chain of rules that produced it. No I/O:
 * the service loads what it needs once and prices thousands of products with it.
 */

export type EngineProduct = { id: string; code: string; kind: string; action: string; tld: string | null; tags: readonly string[] }
/** A cost from `effective_from` (epoch ms) on, per year, in minor units of `currency`. */
export type EngineCost = { currency: string; amount_minor: number; effective_from: number }
export type EngineRule = {
  id: string
  rule_name: string
  level: RuleLevel
  product_id: string | null
  selector: RuleSelector | null
  kind: PricingRuleKind
  params: RuleParams
  currency: string | null
  starts_at: number | null
  ends_at: number | null
}
/** The rate of one unit of `from` in `to`, with the date it was set, or null when staff keep none. */
export type RateLookup = (from: string, to: string) => { rate: number; date: string } | null

const LEVEL_RANK: Record<RuleLevel, number> = Object.fromEntries(RULE_LEVELS.map((l, i) => [l, i])) as Record<RuleLevel, number>
const SETTING = new Set<string>(PRICE_SETTING_KINDS)

/** Rules compiled for many products: per-product rules by product, custom rules with set matchers. */
export type RuleBook = {
  byProduct: Map<string, EngineRule[]>
  custom: { rule: EngineRule; kinds: Set<string> | null; actions: Set<string> | null; tlds: Set<string> | null; tags: Set<string> | null }[]
}

const asSet = (values: readonly string[] | undefined) => (values?.length ? new Set(values) : null)

/** Indexes rules once, so that finding a product's candidates is a map lookup and a few set checks. */
export function ruleBook(rules: readonly EngineRule[]): RuleBook {
  const byProduct = new Map<string, EngineRule[]>()
  const custom: RuleBook['custom'] = []
  for (const rule of rules) {
    if (rule.product_id) {
      const list = byProduct.get(rule.product_id)
      if (list) list.push(rule)
      else byProduct.set(rule.product_id, [rule])
    } else if (rule.selector) {
      const s = rule.selector
      custom.push({ rule, kinds: asSet(s.kinds), actions: asSet(s.actions), tlds: asSet(s.tlds), tags: asSet(s.tags) })
    }
  }
  return { byProduct, custom }
}

/** True when a custom rule's selector takes the product (every list given matches; tags: any). */
export function selects(selector: RuleSelector, product: EngineProduct): boolean {
  const book = ruleBook([{ id: '', rule_name: '', level: 'global-custom', product_id: null, selector, kind: 'margin', params: {}, currency: null, starts_at: null, ends_at: null }])
  return matches(book.custom[0]!, product)
}

function matches(c: RuleBook['custom'][number], p: EngineProduct): boolean {
  if (c.kinds && !c.kinds.has(p.kind)) return false
  if (c.actions && !c.actions.has(p.action)) return false
  if (c.tlds && (p.tld === null || !c.tlds.has(p.tld))) return false
  if (c.tags && !p.tags.some((t) => c.tags!.has(t))) return false
  return true
}

const inWindow = (r: EngineRule, at: number) => (r.starts_at === null || r.starts_at <= at) && (r.ends_at === null || at < r.ends_at)

/** The cost in force at `at`: the latest effective_from at or before it, per currency. */
export function costsAt(costs: readonly EngineCost[], at: number): Map<string, EngineCost> {
  const out = new Map<string, EngineCost>()
  for (const c of costs) {
    if (c.effective_from > at) continue
    const seen = out.get(c.currency)
    if (!seen || seen.effective_from < c.effective_from) out.set(c.currency, c)
  }
  return out
}

/** Higher level first; within a level the later-starting window, then the name. */
const byPrecedence = (a: EngineRule, b: EngineRule) =>
  LEVEL_RANK[b.level] - LEVEL_RANK[a.level] || (b.starts_at ?? -Infinity) - (a.starts_at ?? -Infinity) || (a.rule_name < b.rule_name ? -1 : a.rule_name > b.rule_name ? 1 : 0)

/** The rules that may price a product at `at`, highest precedence first (the same in every currency). */
export function candidatesFor(book: RuleBook, product: EngineProduct, at: number): EngineRule[] {
  const candidates: EngineRule[] = []
  for (const r of book.byProduct.get(product.id) ?? []) if (inWindow(r, at)) candidates.push(r)
  for (const c of book.custom) if (inWindow(c.rule, at) && matches(c, product)) candidates.push(c.rule)
  return candidates.length > 1 ? candidates.sort(byPrecedence) : candidates
}

export type PriceInput = {
  product: EngineProduct
  costs: readonly EngineCost[]
  book: RuleBook
  currency: string
  rates: RateLookup
  at: number
  pricingEntityId: string
  period?: number
  quantity?: number
  /** The product's candidate rules at `at` (candidatesFor), when the caller prices it in several currencies. */
  candidates?: EngineRule[]
  /** The costs in force at `at` (costsInForce), likewise. */
  costsInForce?: Map<string, EngineCost>
  /** `at` as ISO text, likewise. */
  pricedAt?: string
  /** false: the price only, no chain (pricing a whole list); the chain is built otherwise. */
  explain?: boolean
}

/**
 * Prices one product in one currency at one instant. The price-setting rule of the highest
 * precedence sets the price over the cost; then one rule of each adjusting kind (the highest)
 * applies, in the order volume, minimum margin, promotion, rounding: the floor
 * protects the price from a volume discount, not from a promotion (a deliberate price whose
 * below-cost is confirmed with a reason when it is saved). Every candidate rule is in the
 * chain, with what it did.
 */
export function priceProduct(input: PriceInput): { ok: true; quote: Quote } | ({ ok: false } & NoPrice) {
  const { product, currency, at } = input
  const period = input.period ?? 1
  const quantity = input.quantity ?? 1
  const rates: AppliedRate[] = []
  const convert = (minor: number, from: string): number | null => {
    if (from === currency) return minor
    const found = input.rates(from, currency)
    if (!found) return null
    if (!rates.some((r) => r.from === from)) rates.push({ from, to: currency, rate: found.rate, date: found.date })
    return convertMinor(minor, from, currency, found.rate)
  }

  // The cost: in the currency priced when there is one, otherwise the first convertible one.
  const costs = input.costsInForce ?? costsAt(input.costs, at)
  if (!costs.size) return { ok: false, reason: 'no-cost' }
  let cost = costs.get(currency)
  let costMinor: number | null = cost ? cost.amount_minor : null
  if (!cost) {
    for (const c of [...costs.values()].sort((a, b) => a.currency.localeCompare(b.currency))) {
      costMinor = convert(c.amount_minor, c.currency)
      if (costMinor !== null) {
        cost = c
        break
      }
    }
  }
  if (!cost || costMinor === null) {
    const from = [...costs.keys()][0]!
    return { ok: false, reason: 'no-rate', from, to: currency }
  }

  const candidates = input.candidates ?? candidatesFor(input.book, product, at)

  const chain: ChainStep[] = []
  const explain = input.explain ?? true
  const step = (rule: EngineRule, effect: ChainStep['effect'], before: number | null, after: number | null) => {
    if (explain) chain.push({ rule_id: rule.id, rule_name: rule.rule_name, level: rule.level, kind: rule.kind, effect, before_minor: before, after_minor: after })
  }

  // 1. The price-setting rule.
  const setting: EngineRule[] = []
  const adjusting = new Map<string, EngineRule[]>()
  for (const r of candidates) {
    if (SETTING.has(r.kind)) setting.push(r)
    else {
      const list = adjusting.get(r.kind)
      if (list) list.push(r)
      else adjusting.set(r.kind, [r])
    }
  }
  if (!setting.length) return { ok: false, reason: 'no-price-rule' }
  let noRate: NoPrice | null = null
  const money = (rule: EngineRule): number | null => {
    const amount = rule.params.amount_minor ?? 0
    const from = rule.currency ?? currency
    const converted = convert(amount, from)
    if (converted === null) noRate = { reason: 'no-rate', from, to: currency }
    return converted
  }
  const winner = setting[0]!
  let price: number
  if (winner.kind === 'margin') price = Math.round(costMinor * (1 + (winner.params.percent ?? 0) / 100))
  else if (winner.kind === 'markup') price = costMinor + (money(winner) ?? 0)
  else price = money(winner) ?? 0
  if (noRate) return { ok: false, ...(noRate as NoPrice) }
  step(winner, 'applied', costMinor, price)
  for (const r of setting.slice(1)) step(r, 'overridden', null, null)

  // 2. One rule of each adjusting kind, the highest; the regular price skips a first-year promotion.
  let regular = price
  for (const kind of ADJUSTING_KINDS) {
    const ofKind = adjusting.get(kind)
    if (!ofKind) continue
    const rule = ofKind[0]!
    const before = price
    if (kind === 'promotion') {
      // A first-year promotion is a registration's: a renewal or a transfer pays the regular price.
      if (rule.params.first_year_only && product.action !== 'register') {
        step(rule, 'not-reached', before, price)
        continue
      }
      const promo = money(rule)
      if (promo === null) return { ok: false, ...(noRate as unknown as NoPrice) }
      price = promo
      if (!rule.params.first_year_only) regular = promo
    } else if (kind === 'volume') {
      const tier = [...(rule.params.tiers ?? [])].sort((a, b) => b.min_quantity - a.min_quantity).find((t) => quantity >= t.min_quantity)
      if (tier) {
        price = Math.round(price * (1 - tier.percent_off / 100))
        regular = Math.round(regular * (1 - tier.percent_off / 100))
      }
    } else if (kind === 'minimum-margin') {
      const floor = Math.round(costMinor * (1 + (rule.params.percent ?? 0) / 100))
      price = Math.max(price, floor)
      regular = Math.max(regular, floor)
    } else {
      price = roundPrice(price, rule.params.mode ?? 'ends-99')
      regular = roundPrice(regular, rule.params.mode ?? 'ends-99')
    }
    step(rule, price === before && kind === 'volume' ? 'not-reached' : 'applied', before, price)
    for (const r of ofKind.slice(1)) step(r, 'overridden', null, null)
  }

  // A first-year promotion prices the first year of the period; the others pay the regular price.
  const total = (price + regular * (period - 1)) * quantity
  return {
    ok: true,
    quote: {
      product_id: product.id,
      product_code: product.code,
      currency,
      period,
      quantity,
      unit_minor: price,
      regular_minor: regular,
      total_minor: total,
      cost_minor: costMinor,
      cost_currency: currency,
      below_cost: price < costMinor,
      rates,
      chain,
      priced_at: input.pricedAt ?? new Date(at).toISOString(),
      pricing_entity_id: input.pricingEntityId,
    },
  }
}

/** Rounds a price up: to end in .99 (99 in a currency without decimals), or to a whole unit (100 yen). */
export function roundPrice(minor: number, mode: 'ends-99' | 'whole'): number {
  // A whole unit is 100 minor units (1.00 EUR); a currency without decimals rounds to 100 of its units.
  const unit = 100
  if (mode === 'whole') return Math.ceil(minor / unit) * unit
  return Math.ceil((minor + 1) / unit) * unit - 1
}

/** The rule level of a stored rule: global or of a price list, per product or custom. */
export const levelOf = (rule: { pricing_entity_id: string | null; product_id: string | null }): RuleLevel =>
  rule.pricing_entity_id === null ? (rule.product_id ? 'global-product' : 'global-custom') : rule.product_id ? 'entity-product' : 'entity-custom'
