import { describe, expect, test } from 'vitest'
import type { Fuzzer } from '#common/brand.ts'
import { confusableLabels, editDistance, generateLookalikes, labelRegistrable, parseInput, similarity } from './lookalikes.ts'
import { visualKey } from './confusables.ts'

/** ѕрасе: every letter Cyrillic (UTS #39 has no Cyrillic twin of m or l, so acme and paypal have none). */
const SPACE_CYRILLIC = '\u0455\u0440\u0430\u0441\u0435'

const names = (input: string, fuzzer: Fuzzer, options: Parameters<typeof generateLookalikes>[1] = {}) => new Set(generateLookalikes(input, { ...options, fuzzers: [fuzzer] }).map((c) => c.domain))

describe('the input', () => {
  test('splits subdomain, label and public suffix; a bare label is a .com', () => {
    expect(parseInput('www.Acme.co.uk')).toEqual({ subdomain: 'www', label: 'acme', tld: 'co.uk' })
    expect(parseInput('acme')).toEqual({ subdomain: '', label: 'acme', tld: 'com' })
    expect(parseInput('xn--mnchen-3ya.de')).toEqual({ subdomain: '', label: 'münchen', tld: 'de' })
    expect(parseInput('')).toBeNull()
  })
})

describe('each fuzzer', () => {
  test('addition appends a letter or digit', () => {
    const got = names('acme.com', 'addition')
    expect(got.size).toBe(36)
    expect(got).toContain('acmea.com')
    expect(got).toContain('acme9.com')
  })

  test('bitsquatting flips one bit of one character into another LDH character', () => {
    const got = names('acme.com', 'bitsquatting')
    expect(got).toContain('ccme.com') // a ^ 2
    expect(got).toContain('qcme.com') // a ^ 16
    expect(got).not.toContain('Acme.com')
    for (const name of got) expect(name).toMatch(/^[a-z0-9-]{4}\.com$/)
  })

  test('cyrillic writes every letter in Cyrillic, or nothing when one has no twin', () => {
    expect([...names('acme.com', 'cyrillic')]).toEqual(['\u0430\u0441\u043c\u0435.com'])
    expect(names('fun.com', 'cyrillic').size).toBe(0) // f, u and n have none
  })

  test('homoglyph swaps characters for their look-alikes, in two passes', () => {
    const got = names('bob.com', 'homoglyph')
    expect(got).toContain('dob.com')
    expect(got).toContain('b0b.com')
    expect(got).toContain('d0b.com') // a second pass over the first's
    expect(got).toContain('dod.com')
    expect(got).toContain('lbob.com')
  })

  test('hyphenation puts a hyphen between two characters', () => {
    expect(names('acme.com', 'hyphenation')).toEqual(new Set(['a-cme.com', 'ac-me.com', 'acm-e.com']))
  })

  test('insertion adds a neighbouring key before or after an inner character', () => {
    const got = names('acme.com', 'insertion')
    expect(got).toContain('acxme.com') // x beside c
    expect(got).toContain('acjme.com') // j beside m (qwerty)
    expect(got).not.toContain('qacme.com') // never before the first character
  })

  test('omission leaves one character out', () => {
    expect(names('acme.com', 'omission')).toEqual(new Set(['cme.com', 'ame.com', 'ace.com', 'acm.com']))
  })

  test('repetition doubles one character', () => {
    expect(names('acme.com', 'repetition')).toEqual(new Set(['aacme.com', 'accme.com', 'acmme.com', 'acmee.com']))
  })

  test('replacement swaps a character for a neighbouring key on qwerty, qwertz or azerty', () => {
    const got = names('acme.com', 'replacement')
    expect(got).toContain('scme.com')
    expect(got).toContain('zcme.com') // qwerty
    expect(got).toContain('2cme.com') // azerty
  })

  test('subdomain puts a dot inside the label, the part after it being what is registered', () => {
    const candidates = generateLookalikes('acme.com', { fuzzers: ['subdomain'] })
    expect(candidates.map((c) => c.domain).sort()).toEqual(['a.cme.com', 'ac.me.com'])
    expect(candidates.find((c) => c.domain === 'a.cme.com')?.registers).toBe('cme.com')
  })

  test('transposition swaps two neighbours', () => {
    expect(names('acme.com', 'transposition')).toEqual(new Set(['came.com', 'amce.com', 'acem.com']))
  })

  test('vowel-swap writes another vowel for a vowel', () => {
    const got = names('acme.com', 'vowel-swap')
    expect(got).toContain('ecme.com')
    expect(got).toContain('acmu.com')
    expect(got.size).toBe(8)
  })

  test('various writes the TLD into the label', () => {
    expect(names('acme.com', 'various')).toEqual(new Set(['acmecom.com']))
    expect(names('acme.de', 'various')).toEqual(new Set(['acmede.de', 'acme-de.com']))
    expect(names('acme.co.uk', 'various')).toEqual(new Set(['acme.uk', 'acmeco.uk']))
  })

  test('dictionary (combosquatting) joins the brand with each word, with and without a hyphen', () => {
    const got = names('acme.com', 'dictionary', { dictionary: ['login', 'pay'] })
    expect(got).toEqual(new Set(['acme-login.com', 'acmelogin.com', 'login-acme.com', 'loginacme.com', 'acme-pay.com', 'acmepay.com', 'pay-acme.com', 'payacme.com']))
    expect(names('my-bank.com', 'dictionary', { dictionary: ['pay'] })).toContain('my-pay.com')
  })

  test('tld-swap puts the label under every other TLD given', () => {
    expect(names('acme.com', 'tld-swap', { tlds: ['com', 'net', 'shop'] })).toEqual(new Set(['acme.net', 'acme.shop']))
  })

  test('confusable writes in the scripts the TLD takes: Latin look-alikes on .com, whole Cyrillic on .ru', () => {
    const got = generateLookalikes('space.com', { fuzzers: ['confusable'], tlds: ['ru', 'de'] })
    const com = got.filter((c) => c.tld === 'com')
    expect(com.length).toBeGreaterThan(2)
    expect(com.every((c) => c.registrable)).toBe(true) // all Latin, .com takes Latin
    expect(got.filter((c) => c.tld === 'de')).toEqual([]) // Latin only, and only the input's TLD gets Latin swaps
    const ru = got.filter((c) => c.tld === 'ru')
    expect(ru.map((c) => c.domain)).toEqual([`${SPACE_CYRILLIC}.ru`])
    expect(ru[0]!.registrable).toBe(true)
    expect(confusableLabels('acme', ['Grek'])).toEqual([]) // no Greek c or m
  })

  test('a catalogue entry naming a TLD’s scripts is what confusable writes in', () => {
    const got = generateLookalikes('space.com', { fuzzers: ['confusable'], tlds: ['shop'], scriptsOf: (tld) => (tld === 'shop' ? ['Latn', 'Cyrl'] : null) })
    expect(got.filter((c) => c.tld === 'shop').map((c) => c.domain)).toEqual([`${SPACE_CYRILLIC}.shop`])
  })
})

describe('a candidate', () => {
  test('carries every fuzzer that made it, never the original', () => {
    const all = generateLookalikes('acme.com')
    expect(all.find((c) => c.domain === 'acme.com')).toBeUndefined()
    expect(all.find((c) => c.domain === 'acmee.com')?.fuzzers).toEqual(expect.arrayContaining(['addition', 'repetition']))
    expect(new Set(all.map((c) => c.ascii)).size).toBe(all.length)
  })

  test('is registrable only under an ICANN suffix, in LDH rules and a script the TLD takes', () => {
    expect(labelRegistrable('acme', 'com')).toBe(true)
    expect(labelRegistrable('acme', 'nosuchtld')).toBe(false)
    expect(labelRegistrable('-acme', 'com')).toBe(false)
    expect(labelRegistrable('ac--me', 'com')).toBe(false)
    expect(labelRegistrable('a'.repeat(64), 'com')).toBe(false)
    expect(labelRegistrable('\u0430\u0441\u043c\u0435', 'com')).toBe(false) // Cyrillic: .com is Latin in our catalogue
    expect(labelRegistrable('\u0430\u0441\u043c\u0435', 'ru')).toBe(true)
    expect(labelRegistrable('\u0430cme', 'ru')).toBe(false) // Cyrillic а among Latin letters: mixed scripts
    expect(labelRegistrable('\u0251cme', 'com')).toBe(true) // Latin alpha
  })

  test('scores by edit distance and looks: a homoglyph scores above a typo of the same distance', () => {
    expect(editDistance('acme', 'amce')).toBe(1)
    expect(editDistance('acme', 'acmee')).toBe(1)
    expect(visualKey('rnicrosoft')).toBe(visualKey('microsoft'))
    expect(visualKey('\u0430\u0441\u043c\u0435')).toBe(visualKey('acme'))
    expect(similarity('acme', '\u0430cme', true)).toBeGreaterThan(similarity('acme', 'xcme', true))
    expect(similarity('acme', 'acme', false)).toBe(90)
  })
})
