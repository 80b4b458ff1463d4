import { describe, expect, it } from 'vitest'
import { isUnsafeText } from '#common/unsafe-text.ts'
import { unsafeFields, unsafeUrlFields } from './unsafe-text.ts'

describe('unsafe text', () => {
  it('finds NUL and lone surrogates, and lets every real character through', () => {
    expect(isUnsafeText('a\0b')).toBe(true)
    expect(isUnsafeText('\uD800')).toBe(true)
    expect(isUnsafeText('x\uDC00y')).toBe(true)
    expect(isUnsafeText('日本語 😀 ñ \t\n')).toBe(false)
  })

  it('names each field of a JSON body, nested and in arrays', () => {
    expect(unsafeFields({ name: 'ok', contacts: { registrant: 'a\0' }, names: ['fine', '\uD83D'] })).toEqual([
      { field: 'contacts.registrant', message: expect.stringContaining('NUL') },
      { field: 'names.1', message: expect.stringContaining('NUL') },
    ])
    expect(unsafeFields('\0')).toEqual([{ field: '(body)', message: expect.any(String) }])
    expect(unsafeFields({ ok: 1, nested: [{ fine: true }] })).toEqual([])
  })

  it('names the query parameter, and refuses bad path segments', () => {
    expect(unsafeUrlFields(new URL('http://x/v1/domains?filter[name]=a%00b&pql=ok'))).toEqual([{ field: 'filter[name]', message: expect.any(String) }])
    expect(unsafeUrlFields(new URL('http://x/v1/domains/%00'))).toEqual([{ field: '(path)', message: expect.any(String) }])
    expect(unsafeUrlFields(new URL('http://x/v1/domains/%E0%A4%A'))).toEqual([{ field: '(path)', message: 'is not valid percent-encoded UTF-8' }])
    expect(unsafeUrlFields(new URL('http://x/v1/domains?filter[name]=%E6%97%A5'))).toEqual([])
  })
})
