import punycode from 'punycode/punycode.js'
import { describe, expect, it } from 'vitest'
import { checkTldScripts, parseDomainName } from './domain-name.ts'
import { idnLabelError, labelScripts, tldScripts } from './idna.ts'

// Issue 26 item 11: names no registry should take. IDNA2008 after UTS #46 mapping, UTS #39's
// script restriction, and the scripts of the TLD (docs/decisions/104-idn-names.md).

const error = (name: string) => {
  const parsed = parseDomainName(name)
  return parsed.ok ? null : parsed.error
}
const tldCheck = (name: string, configured?: string[]) => {
  const parsed = parseDomainName(name)
  if (!parsed.ok) return parsed.error
  const tld = parsed.domain.unicode.split('.').at(-1)!
  return checkTldScripts(parsed.domain, tldScripts(parsed.domain.tld, tld, configured))
}

describe('invisible characters are refused, never mapped away', () => {
  it.each([
    ['a right-to-left override', 'x\u202e.com'],
    ['a left-to-right embedding', 'a\u202ab.com'],
    ['a first strong isolate', 'a\u2068b.com'],
    ['a right-to-left mark', 'ab\u200f.com'],
    ['an Arabic letter mark', 'ab\u061c.com'],
    ['a zero-width space', 'a\u200bb.com'],
    ['a zero-width joiner', 'ab\u200dc.com'],
    ['a zero-width non-joiner', 'ab\u200cc.com'],
    ['a word joiner', 'a\u2060b.com'],
    ['a zero-width no-break space (BOM)', 'exa\ufeffmple.com'],
    ['a soft hyphen', 'ab\u00adc.com'],
    ['a combining grapheme joiner', 'a\u034fb.com'],
  ])('%s', (_, name) => {
    expect(error(name)).toBe('label-invisible')
  })
  it('in an A-label as well: the Unicode it stands for is checked', () => {
    expect(error(`xn--${punycode.encode('x\u202e')}.com`)).toBe('label-invisible')
    expect(error(`xn--${punycode.encode('ab\u200dc')}.com`)).toBe('label-invisible')
  })
})

describe('UTS #46 mapping (non-transitional): the name answered is the mapped one', () => {
  it('maps full-width forms, capitals and the ideographic full stop', () => {
    expect(parseDomainName('ｅｘａｍｐｌｅ.com')).toMatchObject({ ok: true, domain: { ascii: 'example.com', unicode: 'example.com' } })
    expect(parseDomainName('ＥＸＡＭＰＬＥ。ＣＯＭ')).toMatchObject({ ok: true, domain: { ascii: 'example.com' } })
    expect(parseDomainName('BÜCHER.de')).toMatchObject({ ok: true, domain: { ascii: 'xn--bcher-kva.de', unicode: 'bücher.de' } })
  })
  it('keeps ß and ς (non-transitional), and refuses an A-label whose Unicode is not in mapped form', () => {
    expect(parseDomainName('straße.de')).toMatchObject({ ok: true, domain: { ascii: 'xn--strae-oqa.de' } })
    expect(error(`xn--${punycode.encode('ｂücher')}.de`)).toBe('idn-round-trip') // a full-width b: maps to b
  })
})

describe('IDNA2008 code points, CONTEXTO and the Bidi rule', () => {
  it('refuses symbols, punctuation, a leading combining mark', () => {
    expect(error('♥.com')).toBe('label-characters')
    expect(error('a★b.com')).toBe('label-characters')
    expect(error('\u0308ab.com')).toBe('label-characters')
    expect(error('ab\u0640c.com')).toBe('label-characters') // ARABIC TATWEEL: DISALLOWED by exception
  })
  it('takes a middle dot between two l only, a Katakana middle dot beside Japanese only, one kind of Arabic digits', () => {
    expect(error('col·legi.cat')).toBeNull()
    expect(error('a·b.cat')).toBe('label-context')
    expect(error('ア・イ.jp')).toBeNull()
    expect(error('・.jp')).toBe('label-context')
    expect(idnLabelError('مثال\u0661\u06f1')).toBe('label-context')
  })
  it('refuses a right-to-left label that starts with a digit or holds Latin letters', () => {
    expect(idnLabelError('مثال')).toBeNull()
    expect(idnLabelError('1مثال')).toBe('label-bidi')
    expect(error('מבחןabc.co.il')).not.toBeNull()
  })
})

describe('one script per label (UTS #39, highly restrictive)', () => {
  it('refuses Latin mixed with Cyrillic or Greek look-alikes', () => {
    expect(error('p\u0430ypal.com')).toBe('label-mixed-scripts') // Cyrillic а
    expect(error('g\u03bfogle.com')).toBe('label-mixed-scripts') // Greek ο
    expect(error('\u0440\u0430ypal.com')).toBe('label-mixed-scripts')
  })
  it('takes one script, Common characters with any, and Latin with Japanese, Korean or Han', () => {
    expect(labelScripts('пример')).toEqual(['Cyrl'])
    expect(labelScripts('пример-2026')).toEqual(['Cyrl'])
    expect(labelScripts('ドメイン名例')).toEqual(expect.arrayContaining(['Jpan']))
    expect(labelScripts('abcひらがな')).toEqual(['Latn', 'Jpan'])
    expect(labelScripts('한국어abc')).toEqual(['Latn', 'Kore'])
    expect(labelScripts('пример-abc')).toBeNull()
  })
})

describe("the TLD's scripts", () => {
  it('a generic TLD takes Latin only unless its catalogue entry says more; an IDN TLD its own script', () => {
    expect(tldCheck('bücher.com')).toBeNull()
    expect(tldCheck('مثال.com')).toBe('label-script')
    expect(tldCheck('пример.com')).toBe('label-script')
    expect(tldCheck('مثال.com', ['Latn', 'Arab'])).toBeNull()
    expect(tldCheck('пример.рф')).toBeNull()
    expect(tldCheck('bücher.рф')).toBe('label-script')
    expect(tldCheck('ドメイン.jp')).toBeNull()
    expect(tldCheck('abcドメイン.jp')).toBeNull()
    expect(tldCheck('example.рф')).toBeNull() // an ASCII label is the registry's to judge
  })
})
