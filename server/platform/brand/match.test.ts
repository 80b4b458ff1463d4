import { describe, expect, test } from 'vitest'
import { generateLookalikes, toAsciiName } from './lookalikes.ts'
import { LookalikeIndex } from './match.ts'

describe('the reverse match', () => {
  const index = new LookalikeIndex([
    { id: 'acme', name: 'acme.com', dictionary: ['login', 'pay'] },
    { id: 'globex', name: 'globex', suffixes: ['com', 'de'] },
    { id: 'microsoft', name: 'microsoft.com' },
  ])

  test('names the brand and the fuzzer of a typed-in name', () => {
    expect(index.match('acmee.com')).toEqual([{ brand: 'acme', fuzzers: expect.arrayContaining(['addition', 'repetition']), score: expect.any(Number) }])
    expect(index.match('acme-login.net')[0]).toMatchObject({ brand: 'acme', fuzzers: ['dictionary'] })
    expect(index.match('globex.shop')[0]).toMatchObject({ brand: 'globex', fuzzers: ['tld-swap'] })
    expect(index.match('glo.bex.com')[0]).toMatchObject({ brand: 'globex', fuzzers: ['subdomain'] })
    expect(index.match('rnicrosoft.com')[0]).toMatchObject({ brand: 'microsoft', fuzzers: ['homoglyph'] })
    expect(index.match(toAsciiName('\u0430\u0441\u043c\u0435.com'))[0]).toMatchObject({ brand: 'acme', fuzzers: ['cyrillic'] }) // асме
    expect(index.match('\u0430\u0441\u043c\u0435.ru')[0]?.fuzzers).toContain('cyrillic')
  })

  test('answers nothing for a brand’s own names and for strangers', () => {
    expect(index.match('acme.com')).toEqual([])
    expect(index.match('globex.de')).toEqual([])
    expect(index.match('example.com')).toEqual([])
    expect(index.match('not a name')).toEqual([])
  })

  test('finds each brand again from its generated candidates, by the same fuzzer', () => {
    const candidates = generateLookalikes('acme.com', { dictionary: ['login', 'pay'], tlds: ['net', 'shop'] })
    let missed = 0
    for (const candidate of candidates) {
      if (!candidate.registrable || candidate.fuzzers.includes('various')) continue
      const match = index.match(candidate.ascii).find((m) => m.brand === 'acme')
      const looks = ['homoglyph', 'cyrillic', 'confusable']
      const same = (f: string) => candidate.fuzzers.includes(f as never) || (looks.includes(f) && candidate.fuzzers.some((g) => looks.includes(g)))
      if (!match || !match.fuzzers.some(same)) missed++
    }
    expect(missed).toBe(0)
  })
})
