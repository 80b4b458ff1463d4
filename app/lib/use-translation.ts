import { createContext, useContext, useMemo, useSyncExternalStore } from 'react'
import { I18nContext, type useTranslation as useReactI18next } from 'react-i18next'
import { Translator, type Resources, type TFunction, type TOptions } from '#common/translator.ts'

/** The browser's translator (entry.client.tsx provides it). */
export const TranslatorContext = createContext<Translator | null>(null)

/** The namespaces a render used, in the shape react-i18next keeps them (`i18n.reportNamespaces`). */
class UsedNamespaces {
  private readonly used = new Set<string>()
  addUsedNamespaces(namespaces: readonly string[]) {
    for (const ns of namespaces) this.used.add(ns)
  }
  getUsedNamespaces() {
    return [...this.used]
  }
}

const namespacesOf = (ns: string | readonly string[] | undefined, defaultNS: string) => (typeof ns === 'string' ? [ns] : ns?.length ? [...ns] : [defaultNS])

/**
 * On the server, i18next (react-i18next's context) without react-i18next's hook: each server render
 * is a first render, so that hook copied every property of the i18next instance into a fresh
 * wrapper for every component asking for texts — ~100 times per portfolio page, ~5 % of its server
 * time (issue 6). Nothing re-renders on the server, so this only reports the namespaces the render
 * used (the document inlines those texts) and hands out a fixed `t`.
 */
function useServerTranslation(ns?: string | readonly string[]) {
  const { i18n } = useContext(I18nContext)
  const namespaces = namespacesOf(ns, String(i18n.options.defaultNS ?? 'common'))
  i18n.reportNamespaces ??= new UsedNamespaces()
  i18n.reportNamespaces.addUsedNamespaces(namespaces)
  const fixed = translatorOf(i18n).getFixedT(i18n.language, namespaces[0]!)
  const used = (i18n as { usedTexts?: Set<string> }).usedTexts
  const t: TFunction = used ? (key, options) => (recordText(used, namespaces[0]!, key, options), fixed(key, options)) : fixed
  return Object.assign([t, i18n, true], { t, i18n, ready: true })
}

/**
 * Notes which texts a server render asked for, as `ns\u0000key` (the document inlines those, not
 * whole namespaces: `documentResources`). A key's namespace is the one `t` resolves it in: its
 * `ns:` prefix, else the `ns` option, else the hook's.
 */
function recordText(used: Set<string>, fixedNs: string, key: string | readonly string[], options: TOptions | string | undefined) {
  const optionNs = typeof options === 'object' && options.ns ? options.ns : undefined
  for (const raw of typeof key === 'string' ? [key] : key) {
    const at = raw.indexOf(':')
    if (at > 0) used.add(`${raw.slice(0, at)}\u0000${raw.slice(at + 1)}`)
    else if (optionNs === undefined) used.add(`${fixedNs}\u0000${raw}`)
    else for (const ns of typeof optionNs === 'string' ? [optionNs] : optionNs) used.add(`${ns}\u0000${raw}`)
  }
}

// The texts of a server render come from the Translator over i18next's own store: the browser's
// code path (translator.test.ts holds it equal to i18next on every key), at a fraction of i18next's
// per-call cost — ~7 % of the portfolio page's server CPU went to i18next's t(). One per store:
// every request's instance shares the loaded resources, and the Translator is used with explicit
// languages only, so it holds no request's state.
const serverTranslators = new WeakMap<object, Translator>()

/** The texts of one namespace in the server instance's language, for a loader (the Translator, not i18next's slower `t`). */
export const serverTexts = (i18n: { language: string; store: { data: object }; options: { fallbackLng?: unknown; defaultNS?: unknown } }, ns: string): TFunction =>
  translatorOf(i18n).getFixedT(i18n.language, ns)

function translatorOf(i18n: { store: { data: object }; options: { fallbackLng?: unknown; defaultNS?: unknown } }): Translator {
  let translator = serverTranslators.get(i18n.store.data)
  if (!translator) {
    const fallback = Array.isArray(i18n.options.fallbackLng) ? i18n.options.fallbackLng[0] : i18n.options.fallbackLng
    translator = new Translator('en', i18n.store.data as Resources, { defaultNS: String(i18n.options.defaultNS ?? 'common'), fallbackLng: typeof fallback === 'string' ? fallback : 'en' })
    serverTranslators.set(i18n.store.data, translator)
  }
  return translator
}

/**
 * In the browser, the small Translator instead of i18next (translator.ts): the same texts, and a
 * re-render when the language changes or a language's texts arrive.
 */
function useBrowserTranslation(ns?: string | readonly string[]) {
  const translator = useContext(TranslatorContext)
  if (!translator) throw new Error('useTranslation needs the TranslatorContext of entry.client.tsx')
  const revision = useSyncExternalStore(
    translator.subscribe,
    () => translator.revision,
    () => translator.revision,
  )
  const key = typeof ns === 'string' ? ns : (ns ?? []).join(',')
  return useMemo(() => {
    // The first namespace only, as react-i18next (its default nsMode); others through 'ns:key'.
    const t = translator.getFixedT(null, namespacesOf(ns, translator.options.defaultNS)[0]!)
    return Object.assign([t, translator, true], { t, i18n: translator, ready: true })
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for `ns`; `revision` is the store's version
  }, [translator, revision, key])
}

/**
 * The texts of a component. Typed as react-i18next's hook so the screens keep i18next's types; at
 * run time the browser's `i18n` is the Translator, which has what screens use of it (`language`,
 * `t`, `getFixedT`, `changeLanguage`, `options`).
 */
export const useTranslation = (typeof document === 'undefined' ? useServerTranslation : useBrowserTranslation) as unknown as typeof useReactI18next
