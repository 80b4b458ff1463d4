import type { i18n as I18n, Resource } from 'i18next'

/** The 23 locales of spec §9. Screen texts exist in en, es and ja; the others fall back to en. */
export const SUPPORTED_LANGUAGES = ['en', 'ar', 'ca', 'cs', 'de', 'es', 'fi', 'fr', 'hu', 'id', 'it', 'ja', 'ko', 'nb', 'nl', 'pl', 'pt-BR', 'ru', 'sk', 'sv', 'th', 'zh', 'zh-TW'] as const
export type Language = (typeof SUPPORTED_LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'en'
/** Languages offered in the language menu: those whose screens are complete. */
export const UI_LANGUAGES = ['en', 'es', 'ja'] as const
const RTL_LANGUAGES = new Set<string>(['ar'])

export const isSupportedLanguage = (value: unknown): value is Language => typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value)

export const languageDirection = (lng: string): 'rtl' | 'ltr' => (RTL_LANGUAGES.has(lng.split('-')[0]!) ? 'rtl' : 'ltr')

/**
 * Options shared by the server and the browser; neither carries texts here. The server adds every
 * locale (`i18n-resources.server.ts`); the browser starts with the texts the document inlined
 * (`documentResources`) and loads a language's other files on demand (`i18n.client.ts`).
 */
export const i18nOptions = {
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  ns: ['common', 'validation', 'auth'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
}

/** Namespaces every document carries even when the first render did not ask for them: client-side form checks use them. */
const ALWAYS_INLINED = ['common', 'validation']

/** The global the document sets before the client entry runs (see `documentI18nScript`). */
export const INLINE_I18N_GLOBAL = '__portalI18n'
export type InlineI18n = { lng: string; resources: Resource }

/**
 * The texts a document needs in the browser, from the server's request instance (which holds every
 * locale): the namespaces the render used plus ALWAYS_INLINED, each from the first language of the
 * fallback chain (pt-BR → pt → en) that has the file. Locale files are complete against en (a
 * language either has a namespace's file with every key or falls back to en for all of it), so
 * the browser resolves every text the server rendered, and no other language ships.
 */
export function documentResources(instance: I18n): InlineI18n {
  const lng = instance.language
  const used = new Set([...ALWAYS_INLINED, ...(instance.reportNamespaces?.getUsedNamespaces() ?? [])])
  const chain: string[] = instance.services.languageUtils.toResolveHierarchy(lng)
  const resources: Resource = {}
  for (const ns of used) {
    const code = chain.find((c) => instance.hasResourceBundle(c, ns))
    if (code) (resources[code] ??= {})[ns] = instance.getResourceBundle(code, ns) as Resource[string][string]
  }
  return { lng, resources }
}

// The script for a language and set of namespaces is the same for every document of the build
// (the server's resources are loaded once): written once, not per render. A handful of entries.
const scripts = new Map<string, string>()

/** `documentResources` as an inline script body; `<` is escaped so no text can close the tag. */
export function documentI18nScript(instance: I18n): string {
  const used = instance.reportNamespaces?.getUsedNamespaces() ?? []
  const key = `${instance.language}\u0000${[...new Set(used)].sort().join(',')}`
  let script = scripts.get(key)
  if (script === undefined) {
    script = `window.${INLINE_I18N_GLOBAL}=${JSON.stringify(documentResources(instance)).replace(/</g, '\\u003c')}`
    if (scripts.size >= 256) scripts.clear()
    scripts.set(key, script)
  }
  return script
}
