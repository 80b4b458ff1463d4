import { describe, expect, it } from 'vitest'
import { priceProduct, roundPrice, ruleBook, type EngineCost, type EngineProduct, type EngineRule, type RateLookup } from './engine.ts'

const AT = Date.UTC(2026, 5, 1)
const com: EngineProduct = { id: 'p-com', code: 'domain:com:register', kind: 'domain', action: 'register', tld: 'com', tags: ['popular'] }
const renew: EngineProduct = { ...com, id: 'p-com-renew', code: 'domain:com:renew', action: 'renew' }
const costs: EngineCost[] = [
  { currency: 'EUR', amount_minor: 900, effective_from: Date.UTC(2025, 0, 1) },
  { currency: 'EUR', amount_minor: 1000, effective_from: Date.UTC(2026, 0, 1) },
  // Announced for later: not in force yet.
  { currency: 'EUR', amount_minor: 2000, effective_from: Date.UTC(2027, 0, 1) },
]
const rates: RateLookup = (from, to) => (from === 'EUR' && to === 'USD' ? { rate: 1.08, date: '2026-05-01T00:00:00.000Z' } : null)
let n = 0
const rule = (over: Partial<EngineRule>): EngineRule => ({
  id: `r${++n}`,
  rule_name: `rule-${n}`,
  level: 'global-product',
  product_id: 'p-com',
  selector: null,
  kind: 'margin',
  params: { percent: 20 },
  currency: null,
  starts_at: null,
  ends_at: null,
  ...over,
})
const price = (rules: EngineRule[], over: Partial<Parameters<typeof priceProduct>[0]> = {}) =>
  priceProduct({ product: com, costs, book: ruleBook(rules), currency: 'EUR', rates, at: AT, pricingEntityId: 'e1', ...over })

describe('pricing engine', () => {
  it('prices a margin over the cost in force, and explains it', () => {
    const result = price([rule({ rule_name: 'base' })])
    expect(result.ok && result.quote).toMatchObject({ unit_minor: 1200, cost_minor: 1000, total_minor: 1200, below_cost: false })
    expect(result.ok && result.quote.chain).toEqual([expect.objectContaining({ rule_name: 'base', effect: 'applied', before_minor: 1000, after_minor: 1200 })])
  })

  it('takes the cost announced for a later date from that date on', () => {
    const result = price([rule({})], { at: Date.UTC(2027, 0, 2) })
    expect(result.ok && result.quote.unit_minor).toBe(2400)
  })

  it('lets entity custom beat entity per-product beat global custom beat global per-product', () => {
    const rules = [
      rule({ rule_name: 'g-product', level: 'global-product', params: { percent: 10 } }),
      rule({ rule_name: 'g-custom', level: 'global-custom', product_id: null, selector: { tlds: ['com'] }, params: { percent: 20 } }),
      rule({ rule_name: 'e-product', level: 'entity-product', params: { percent: 30 } }),
      rule({ rule_name: 'e-custom', level: 'entity-custom', product_id: null, selector: { kinds: ['domain'], tags: ['popular'] }, kind: 'fixed', params: { amount_minor: 1499 } }),
    ]
    const all = price(rules)
    expect(all.ok && all.quote.unit_minor).toBe(1499)
    expect(all.ok && all.quote.chain.map((s) => [s.rule_name, s.effect])).toEqual([
      ['e-custom', 'applied'],
      ['e-product', 'overridden'],
      ['g-custom', 'overridden'],
      ['g-product', 'overridden'],
    ])
    const withoutEntityCustom = price(rules.filter((r) => r.rule_name !== 'e-custom'))
    expect(withoutEntityCustom.ok && withoutEntityCustom.quote.unit_minor).toBe(1300)
    const globalOnly = price(rules.filter((r) => r.level.startsWith('global')))
    expect(globalOnly.ok && globalOnly.quote.unit_minor).toBe(1200)
  })

  it('applies a minimum margin, a promotion in its window and rounding, in that order', () => {
    const rules = [
      rule({ rule_name: 'base', params: { percent: 25 } }),
      rule({ rule_name: 'summer', kind: 'promotion', params: { amount_minor: 990 }, currency: 'EUR', starts_at: Date.UTC(2026, 5, 1), ends_at: Date.UTC(2026, 8, 1) }),
      rule({ rule_name: 'floor', kind: 'minimum-margin', params: { percent: 5 } }),
      rule({ rule_name: 'nines', kind: 'rounding', params: { mode: 'ends-99' } }),
    ]
    const inWindow = price(rules)
    // 12.50 above the 10.50 floor → the 9.90 promotion (a deliberate price: the floor is before it) → 9.99.
    expect(inWindow.ok && inWindow.quote.unit_minor).toBe(999)
    expect(inWindow.ok && inWindow.quote.chain.map((s) => [s.kind, s.after_minor])).toEqual([
      ['margin', 1250],
      ['minimum-margin', 1250],
      ['promotion', 990],
      ['rounding', 999],
    ])
    const floorOnly = price([rule({ params: { percent: 2 } }), rule({ kind: 'minimum-margin', params: { percent: 5 } })])
    expect(floorOnly.ok && floorOnly.quote.unit_minor).toBe(1050)
    const after = price(rules, { at: Date.UTC(2026, 8, 1) })
    expect(after.ok && after.quote.unit_minor).toBe(1299)
  })

  it('prices a first-year promotion for the first year of a registration only', () => {
    const rules = [
      rule({ rule_name: 'base', product_id: null, level: 'global-custom', selector: { tlds: ['com'] } }),
      rule({ product_id: null, level: 'global-custom', selector: { tlds: ['com'] }, kind: 'promotion', params: { amount_minor: 199, first_year_only: true } }),
    ]
    const register = price(rules, { period: 3 })
    expect(register.ok && register.quote).toMatchObject({ unit_minor: 199, regular_minor: 1200, total_minor: 199 + 2400, below_cost: true })
    const renewal = price(rules, { product: renew, period: 2 })
    expect(renewal.ok && renewal.quote).toMatchObject({ unit_minor: 1200, total_minor: 2400 })
  })

  it('takes volume tiers by quantity', () => {
    const rules = [
      rule({}),
      rule({
        kind: 'volume',
        params: {
          tiers: [
            { min_quantity: 10, percent_off: 10 },
            { min_quantity: 100, percent_off: 20 },
          ],
        },
      }),
    ]
    const one = price(rules)
    const many = price(rules, { quantity: 150 })
    expect(one.ok && one.quote.unit_minor).toBe(1200)
    expect(many.ok && many.quote).toMatchObject({ unit_minor: 960, total_minor: 960 * 150 })
  })

  it('converts the cost at the rate and keeps the rate; refuses without a rate, cost or rule', () => {
    const usd = price([rule({})], { currency: 'USD' })
    expect(usd.ok && usd.quote).toMatchObject({ cost_minor: 1080, unit_minor: 1296, rates: [{ from: 'EUR', to: 'USD', rate: 1.08 }] })
    expect(price([rule({})], { currency: 'JPY' })).toEqual({ ok: false, reason: 'no-rate', from: 'EUR', to: 'JPY' })
    expect(price([rule({})], { costs: [] })).toEqual({ ok: false, reason: 'no-cost' })
    expect(price([rule({ kind: 'rounding', params: { mode: 'whole' } })])).toEqual({ ok: false, reason: 'no-price-rule' })
    // A fixed price in EUR priced in JPY needs the rate too.
    expect(price([rule({ kind: 'fixed', params: { amount_minor: 1500 }, currency: 'EUR' })], { costs: [{ currency: 'JPY', amount_minor: 1500, effective_from: 0 }], currency: 'JPY' })).toMatchObject({
      ok: false,
      reason: 'no-rate',
    })
  })

  it('ignores rules outside their window and custom rules that do not select the product', () => {
    const rules = [
      rule({}),
      rule({ params: { percent: 50 }, starts_at: Date.UTC(2027, 0, 1) }),
      rule({ level: 'global-custom', product_id: null, selector: { tlds: ['net'] }, params: { percent: 90 } }),
    ]
    const result = price(rules)
    expect(result.ok && result.quote.unit_minor).toBe(1200)
    expect(result.ok && result.quote.chain).toHaveLength(1)
  })

  it('rounds up to .99 or a whole unit', () => {
    expect([roundPrice(1234, 'ends-99'), roundPrice(1299, 'ends-99'), roundPrice(1300, 'ends-99'), roundPrice(1201, 'whole'), roundPrice(1200, 'whole')]).toEqual([1299, 1299, 1399, 1300, 1200])
  })
})
