import { describe, expect, it } from 'vitest'
import { convertMinor } from './money.ts'

describe('a price converted into the account currency', () => {
  it('is rounded half up once, to the minor unit of the target currency', () => {
    expect(convertMinor(1299, 'EUR', 'USD', 1.08)).toBe(1403) // 14.0292
    expect(convertMinor(2598, 'EUR', 'USD', 1.08)).toBe(2806) // 28.0584
    expect(convertMinor(1250, 'EUR', 'USD', 1.1)).toBe(1375)
    expect(convertMinor(5, 'EUR', 'USD', 1.5)).toBe(8) // 7.5 → 8
  })

  it('keeps the decimals of each currency: JPY has none', () => {
    expect(convertMinor(3900, 'JPY', 'USD', 0.0067)).toBe(2613) // ¥3900 → $26.13
    expect(convertMinor(1299, 'EUR', 'JPY', 162)).toBe(2104) // €12.99 → ¥2104.38 → ¥2104
  })

  it('leaves a price in the same currency as it is', () => {
    expect(convertMinor(1299, 'EUR', 'EUR', 1)).toBe(1299)
  })
})
