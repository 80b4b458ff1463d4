import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isE164, parsePhone } from './phone.ts'

describe('parsePhone', () => {
  it('reads typed numbers into E.164', () => {
    expect(parsePhone('+34 600 12 34 56')).toEqual({ ok: true, e164: '+34600123456', countryCallingCode: '34' })
    expect(parsePhone('+1 (555) 010-0199')).toMatchObject({ ok: true, e164: '+15550100199', countryCallingCode: '1' })
    expect(parsePhone('0049 30 1234567')).toMatchObject({ ok: true, e164: '+49301234567', countryCallingCode: '49' })
    expect(parsePhone('+81.3.1234.5678')).toMatchObject({ ok: true, e164: '+81312345678', countryCallingCode: '81' })
    expect(parsePhone('+683 4002')).toMatchObject({ ok: true, e164: '+6834002', countryCallingCode: '683' })
  })

  it('names what is wrong', () => {
    expect(parsePhone('600 123 456')).toEqual({ ok: false, error: 'phone.missing_plus' })
    expect(parsePhone('+34 600 CALL ME')).toEqual({ ok: false, error: 'phone.invalid' })
    expect(parsePhone('+0 123 4567')).toEqual({ ok: false, error: 'phone.invalid' })
    expect(parsePhone('')).toEqual({ ok: false, error: 'phone.invalid' })
    expect(parsePhone('+1234567890123456')).toEqual({ ok: false, error: 'phone.too_long' })
    expect(parsePhone('+34 12')).toEqual({ ok: false, error: 'phone.too_short' })
    // 259 and 999 are not assigned.
    expect(parsePhone('+259 1234 5678')).toEqual({ ok: false, error: 'phone.unknown_country_code' })
    expect(parsePhone('+999 1234 5678')).toEqual({ ok: false, error: 'phone.unknown_country_code' })
  })

  it('gives a canonical form that reads back unchanged and fits the database check', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 24 }), (input) => {
        const parsed = parsePhone(input)
        if (!parsed.ok) return
        expect(parsed.e164).toMatch(/^\+[1-9][0-9]{5,14}$/)
        expect(isE164(parsed.e164)).toBe(true)
        expect(parsePhone(parsed.e164)).toEqual(parsed)
      }),
    )
    fc.assert(
      fc.property(fc.stringMatching(/^\+[1-9][0-9]{6,13}$/), (number) => {
        const parsed = parsePhone(number)
        if (parsed.ok) expect(parsed.e164).toBe(number)
      }),
    )
  })
})
