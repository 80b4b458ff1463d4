import { createInstance } from 'i18next'
import { describe, expect, it } from 'vitest'
import { serverI18nOptions, resources } from './i18n-resources.server.ts'
import { SUPPORTED_LANGUAGES } from './i18n.ts'
import { addTextFormats, Translator, type Resources } from '#common/translator.ts'

// The browser renders with Translator what the server rendered with i18next: any difference is a
// hydration mismatch. Every key of every namespace, in every language, with the options screens use.

/** Every key, with plural and context suffixes reduced to the base key the code asks for. */
function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')]
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k))
}

const namespaces = Object.keys(resources.en!)
const values = { name: 'example.com', email: 'help@example.com', total: 12, zone: 'example.org', n: 3, field: 'name', shortfall: 'USD 1234.50', available: 'JPY 3900' }

describe('Translator against i18next', () => {
  for (const lng of SUPPORTED_LANGUAGES) {
    it(`gives i18next's text for every key in ${lng}`, async () => {
      const i18n = createInstance()
      await i18n.init({ ...serverI18nOptions, lng })
      addTextFormats(i18n)
      const ours = new Translator(lng, resources as never)
      // The differences are collected and compared once: an expect per text (about 20,000 a
      // language) cost most of this file's 46 s (issue 27, item 6).
      let compared = 0
      const differences: string[] = []
      for (const ns of namespaces) {
        const theirs = i18n.getFixedT(lng, ns)
        const mine = ours.getFixedT(lng, ns)
        for (const key of new Set(keysOf(resources.en![ns]))) {
          for (const options of [undefined, values, { ...values, count: 0 }, { ...values, count: 1 }, { ...values, count: 2 }, { ...values, count: 5 }, { count: 1 }]) {
            const [got, expected] = [mine(key, options), String(theirs(key, options as never))]
            if (got !== expected) differences.push(`${lng} ${ns}:${key} ${JSON.stringify(options)}: ${JSON.stringify(got)} ≠ ${JSON.stringify(expected)}`)
            compared++
          }
        }
      }
      expect(differences.slice(0, 10)).toEqual([])
      expect(compared).toBeGreaterThan(1000)
    })
  }

  it('handles ns prefixes, the ns option, defaults, missing keys and context like i18next', async () => {
    const i18n = createInstance()
    const extra = { greet: 'Hi', greet_friend: 'Hey', item_one: '{{count}} item', item_other: '{{count}} items' }
    const withExtra = { ...resources, en: { ...resources.en, extra } } as Resources
    await i18n.init({ ...serverI18nOptions, lng: 'es', resources: withExtra as never })
    const ours = new Translator('es', withExtra)
    const theirs = i18n.getFixedT('es', 'common')
    const mine = ours.getFixedT('es', 'common')
    const cases: [string, Record<string, unknown>?][] = [
      ['validation:required'],
      ['nothing.here'],
      ['nothing.here', { defaultValue: 'Fallback {{name}}', name: 'x' }],
      ['extra:item', { count: 1 }],
      ['extra:item', { count: 7 }],
      ['extra:item', { count: 3, defaultValue_other: 'd' }],
      ['greet', { ns: 'extra' }],
      ['greet', { ns: 'extra', context: 'friend' }],
      ['greet', { ns: 'extra', context: 'stranger' }],
      ['extra:greet', { missing: undefined }],
      ['missing.key', { count: 2, defaultValue_other: '{{count}} others', defaultValue: 'one other' }],
      ['missing.key', { defaultValue: 'Has {{unknown}} left' }],
    ]
    for (const [key, options] of cases) expect(mine(key, options as never), key).toBe(theirs(key, options as never))
  })

  it('falls back along the language chain and tells subscribers of a change', async () => {
    const ours = new Translator('pt-BR', { en: { common: { a: 'en' } }, pt: { common: { a: 'pt' } } })
    expect(ours.hierarchy('pt-BR')).toEqual(['pt-BR', 'pt', 'en'])
    expect(ours.t('a')).toBe('pt')
    let told = 0
    const stop = ours.subscribe(() => told++)
    await ours.changeLanguage('ja')
    expect(ours.t('a')).toBe('en')
    ours.addResourceBundle('ja', 'common', { a: 'ja' })
    expect(ours.t('a')).toBe('ja')
    stop()
    await ours.changeLanguage('en')
    expect(told).toBe(2)
  })
})
