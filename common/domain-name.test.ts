import { describe, expect, it } from 'vitest'
import { isKnownTld, parseDomainName, toUnicodeName } from './domain-name.ts'

describe('domain name', () => {
  it('accepts names whose last label is in the bundled TLD list', () => {
    expect(parseDomainName('Example.COM.')).toMatchObject({ ok: true, domain: { ascii: 'example.com', tld: 'com' } })
    expect(isKnownTld('shop')).toBe(true)
    expect(parseDomainName('example.notatld')).toEqual({ ok: false, error: 'unknown-tld' })
  })
  it('handles IDNs through punycode', () => {
    const parsed = parseDomainName('bücher.de')
    expect(parsed).toMatchObject({ ok: true, domain: { ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' } })
    expect(toUnicodeName('xn--bcher-kva.de')).toBe('bücher.de')
    expect(parseDomainName('пример.рф')).toMatchObject({ ok: true, domain: { tld: 'xn--p1ai' } })
  })
  it('refuses bad labels', () => {
    expect(parseDomainName('')).toEqual({ ok: false, error: 'empty' })
    expect(parseDomainName('com')).toEqual({ ok: false, error: 'single-label' })
    expect(parseDomainName('a..com')).toEqual({ ok: false, error: 'label-empty' })
    expect(parseDomainName('-a.com')).toEqual({ ok: false, error: 'label-hyphen-edge' })
    expect(parseDomainName('ab--c.com')).toEqual({ ok: false, error: 'label-hyphen-34' })
    expect(parseDomainName(`${'a'.repeat(64)}.com`)).toEqual({ ok: false, error: 'label-too-long' })
    expect(parseDomainName('a_b.com')).toEqual({ ok: false, error: 'label-characters' })
    expect(parseDomainName(`${'abcdefghi.'.repeat(26)}com`)).toEqual({ ok: false, error: 'too-long' })
  })
})
