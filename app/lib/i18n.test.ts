import { createInstance, type i18n as I18n } from 'i18next'
import { describe, expect, it } from 'vitest'
import { resources, serverI18nOptions } from './i18n-resources.server.ts'
import { documentResources } from './i18n.ts'
import { Translator, type Resources } from '#common/translator.ts'

// A document inlines only the texts its server render asked for (use-translation.ts records them):
// the browser must find in those exactly the text the server rendered, for every key, in its plural
// and context forms, or hydration shows a key. Each key alone, so no other key's texts can help it.

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix.replace(/_(zero|one|two|few|many|other)$/, '')]
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k))
}

async function requestInstance(lng: string, used: string[]): Promise<I18n> {
  const base = createInstance()
  await base.init({ ...serverI18nOptions, lng })
  return Object.assign(Object.create(base) as I18n, { usedTexts: new Set(used) })
}

describe('the texts a document inlines', () => {
  for (const lng of ['en', 'ja', 'pt-BR']) {
    it(`give the browser the server's text for every key in ${lng}, and nothing of other keys`, async () => {
      const server = new Translator(lng, resources as Resources)
      const base = await requestInstance(lng, [])
      let compared = 0
      for (const ns of Object.keys(resources.en!)) {
        for (const key of new Set(keysOf(resources.en![ns]))) {
          const instance = Object.assign(Object.create(base) as I18n, { usedTexts: new Set([`${ns}\u0000${key}`]) })
          const inline = documentResources(instance)
          expect(inline.lng).toBe(lng)
          const browser = new Translator(lng, inline.resources as Resources)
          for (const options of [undefined, { n: 3, count: 0 }, { n: 3, count: 1 }, { n: 3, count: 5 }, { context: 'male' }]) {
            expect(browser.getFixedT(lng, ns)(key, options), `${lng} ${ns}:${key} ${JSON.stringify(options)}`).toBe(server.getFixedT(lng, ns)(key, options))
            compared++
          }
        }
      }
      expect(compared).toBeGreaterThan(5000)
    })
  }

  it('hold the used texts and the whole validation namespace, not the rest of a namespace', async () => {
    const instance = await requestInstance('es', ['common\u0000app.name', 'domains\u0000list.title'])
    const { resources: inline } = documentResources(instance)
    expect(Object.keys(inline)).toEqual(['es'])
    expect(inline.es!.common).toEqual({ app: { name: (resources.es!.common as { app: { name: string } }).app.name } })
    expect(Object.keys(inline.es!).sort()).toEqual(['common', 'domains', 'validation'])
    expect(inline.es!.validation).toEqual(resources.es!.validation)
    expect(JSON.stringify(inline.es!.domains).length).toBeLessThan(JSON.stringify(resources.es!.domains).length / 10)
  })
})
