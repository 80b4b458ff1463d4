import type { Translator } from '#common/translator.ts'

// One lazy chunk per locales/<lng>/<ns>.json: the browser fetches only the language it shows.
// The mails' texts (mail.json) are the Platform API's, never a screen's.
const files = import.meta.glob<Record<string, unknown>>(['../../locales/*/*.json', '!../../locales/*/mail.json'], { import: 'default' })
const byLanguage = new Map<string, [ns: string, load: () => Promise<Record<string, unknown>>][]>()
for (const [file, load] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file)
  if (!match) continue
  const [, lng, ns] = match as unknown as [string, string, string]
  byLanguage.set(lng, [...(byLanguage.get(lng) ?? []), [ns, load]])
}

const complete = new WeakMap<Translator, Map<string, Promise<void>>>()

/**
 * Adds the named namespaces of `lng` and of its fallbacks to the instance, in one change: right
 * after hydration, the whole of the namespaces whose used texts the document inlined.
 */
export async function loadNamespaces(instance: Translator, lng: string, namespaces: readonly string[]): Promise<void> {
  const wanted = new Set(namespaces)
  await Promise.all(
    instance.hierarchy(lng).map(async (code) => {
      const files = (byLanguage.get(code) ?? []).filter(([ns]) => wanted.has(ns))
      const bundles = await Promise.all(files.map(async ([ns, load]) => [ns, await load()] as const))
      if (bundles.length) instance.addResourceBundles(code, bundles)
    }),
  )
}

/**
 * Adds every namespace of `lng` and of its fallbacks (pt-BR → pt → en) to the instance, once per
 * language. The document inlines only what its first render used; this runs before a client
 * navigation renders (root clientMiddleware) and before a language change, so no screen shows a key.
 */
export function loadLanguage(instance: Translator, lng: string): Promise<void> {
  let started = complete.get(instance)
  if (!started) complete.set(instance, (started = new Map()))
  const codes = instance.hierarchy(lng)
  return Promise.all(
    codes.map((code) => {
      let pending = started.get(code)
      if (!pending) {
        // Every file of the language, then one change: the screens re-render once, not per file.
        pending = Promise.all((byLanguage.get(code) ?? []).map(async ([ns, load]) => [ns, await load()] as const)).then((bundles) => instance.addResourceBundles(code, bundles))
        // A failed fetch (a deploy removed the chunk) may be retried by the next navigation.
        pending.catch(() => started.delete(code))
        started.set(code, pending)
      }
      return pending
    }),
  ).then(() => undefined)
}
