import { describe, expect, it } from 'vitest'
import { Translator } from '#common/translator.ts'
import { resources } from './i18n-resources.server.ts'
import { productName } from './product-name.ts'

const tIn = (lng: string) => new Translator(lng, resources as never).getFixedT(lng) as never

describe("a product's name", () => {
  it("says a TLD's domain products in the user's language and a name staff gave as given", () => {
    const renew = { code: 'domain:com:renew', name: '.com renew' }
    expect(productName(tIn('en'), renew)).toBe('.com renew')
    expect(productName(tIn('es'), renew)).toBe('.com renovación')
    expect(productName(tIn('ja'), { code: 'domain:xn--q9jyb4c:registry-lock', name: '.みんな registry-lock' })).toBe('.みんな レジストリロック')
    // Staff's own words stay: a certificate, and a domain product they renamed.
    expect(productName(tIn('es'), { code: 'ssl:dv-single:order', name: 'DV certificate, one name' })).toBe('DV certificate, one name')
    expect(productName(tIn('es'), { code: 'domain:com:register', name: '.com launch offer' })).toBe('.com launch offer')
    // No longer in the catalogue: the code stands in.
    expect(productName(tIn('ja'), { code: 'domain:old:register', name: null })).toBe('domain:old:register')
  })
})
