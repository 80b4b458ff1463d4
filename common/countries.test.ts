import { describe, expect, it } from 'vitest'
import { countryName } from './countries.ts'

describe('country names', () => {
  it('names a country code in en, es and ja', () => {
    expect(countryName('DE', 'en')).toBe('Germany')
    expect(countryName('de', 'es')).toBe('Alemania')
    expect(countryName('DE', 'ja')).toBe('ドイツ')
  })
  it('falls back to en and keeps bad codes', () => {
    expect(countryName('JP', 'fr')).toBe('Japan')
    expect(countryName('XYZ', 'en')).toBe('XYZ')
    expect(countryName(null)).toBe('')
  })
})
