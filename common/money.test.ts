import { describe, expect, it } from 'vitest'
import { formatMoney, formatMoneyText, isMonetaryValue, parseMoney } from './money.ts'

describe('monetary value', () => {
  it('accepts the shapes of spec §5', () => {
    for (const v of ['0', '12', '-12', '1,234', '1,234,567.89', '12.5', '12.50', 12.5, -3]) expect(isMonetaryValue(v), String(v)).toBe(true)
  })
  it('refuses everything else with invalidMonetaryValue', () => {
    for (const v of ['', '12.345', '1,23', '12,34.5', 'abc', '1.2.3', '--1', '+1', null, {}]) expect(parseMoney(v), String(v)).toEqual({ ok: false, error: 'invalidMonetaryValue' })
  })
  it('has no decimals for JPY', () => {
    expect(isMonetaryValue('1,200', 'JPY')).toBe(true)
    expect(isMonetaryValue('1200.5', 'JPY')).toBe(false)
    expect(parseMoney('3,900', 'JPY')).toEqual({ ok: true, minor: 3900 })
  })
  it('parses into minor units', () => {
    expect(parseMoney('1,234.5')).toEqual({ ok: true, minor: 123450 })
    expect(parseMoney('-0.07')).toEqual({ ok: true, minor: -7 })
  })
  it('formats in the locale', () => {
    expect(formatMoney(123450, 'EUR', 'en')).toBe('€1,234.50')
    expect(formatMoney(3900, 'JPY', 'ja')).toMatch(/3,900/)
    expect(formatMoney(3900, 'JPY', 'en')).not.toMatch(/\./)
  })
})

describe('one money form everywhere (issue 28, item 6)', () => {
  it('groups thousands in every language, four-digit sums too', () => {
    expect(formatMoney(174804, 'EUR', 'en')).toBe('€1,748.04')
    expect(formatMoney(174804, 'EUR', 'es')).toMatch(/^1\.748,04\s€$/)
    expect(formatMoney(174804, 'EUR', 'ja')).toMatch(/1,748\.04/)
    expect(formatMoney(3900, 'JPY', 'ja')).toMatch(/^[￥¥]3,900$/)
  })
  it("reads the API's money texts in the user's locale", () => {
    expect(formatMoneyText('USD 63.98', 'en')).toBe('$63.98')
    expect(formatMoneyText('EUR 1748.04', 'en')).toBe('€1,748.04')
    expect(formatMoneyText('EUR 1748.04; USD 12.00', 'en')).toBe('€1,748.04 · $12.00')
    expect(formatMoneyText('EUR -5.00', 'en')).toBe('-€5.00')
    expect(formatMoneyText('JPY 3900', 'ja')).toMatch(/^[￥¥]3,900$/)
    expect(formatMoneyText('USD 63.98', 'es')).toMatch(/^63,98\sUS\$$/)
  })
  it('leaves any other text as it is', () => {
    for (const text of ['', 'no charge', 'EUR', 'XYZ 12.00', 'EUR 12.00 extra', '12.00']) expect(formatMoneyText(text, 'en')).toBe(text)
    expect(formatMoneyText(null, 'en')).toBe('')
  })
})
