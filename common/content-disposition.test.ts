import { describe, expect, it } from 'vitest'
import { attachmentDisposition } from './content-disposition.ts'

describe('attachmentDisposition (RFC 6266)', () => {
  it('says an ASCII name as it is', () => {
    expect(attachmentDisposition('INV-2026-0001.pdf')).toBe('attachment; filename="INV-2026-0001.pdf"')
  })
  it('gives a name in another script an ASCII fallback and filename* in UTF-8, a value a header can carry', () => {
    const value = attachmentDisposition('登記簿謄本.pdf')
    expect(value).toBe(`attachment; filename="_____.pdf"; filename*=UTF-8''%E7%99%BB%E8%A8%98%E7%B0%BF%E8%AC%84%E6%9C%AC.pdf`)
    expect(() => new Headers({ 'content-disposition': value })).not.toThrow()
    expect(decodeURIComponent(value.split("''")[1]!)).toBe('登記簿謄本.pdf')
  })
  it('keeps quotes, backslashes and control characters out of the quoted fallback', () => {
    expect(attachmentDisposition('a"b\\c\r\n.pdf')).toBe(`attachment; filename="a_b_c.pdf"; filename*=UTF-8''a%22b%5Cc.pdf`)
    expect(attachmentDisposition('')).toBe('attachment; filename="download"')
  })
})
