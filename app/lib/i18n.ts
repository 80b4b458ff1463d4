import type { i18n as I18n, Resource } from 'i18next'

/** The 23 locales of spec §9. Screen texts exist in en, es and ja; the others fall back to en. */
export const SUPPORTED_LANGUAGES = ['en', 'ar', 'ca', 'cs', 'de', 'es', 'fi', 'fr', 'hu', 'id', 'it', 'ja', 'ko', 'nb', 'nl', 'pl', 'pt-BR', 'ru', 'sk', 'sv', 'th', 'zh', 'zh-TW'] as const
export type Language = (typeof SUPPORTED_LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'en'
/** Languages offered in the language menu: those whose screens are complete. */
export const UI_LANGUAGES = ['en', 'es', 'ja'] as const
const RTL_LANGUAGES = new Set<string>(['ar'])

export type UiLanguage = (typeof UI_LANGUAGES)[number]

export const isSupportedLanguage = (value: unknown): value is Language => typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value)

/**
 * A language the interface is written in (issue 28): the portal negotiates, switches to and stores
 * only these. A browser in Arabic or German gets English, laid out left to right, and a user's
 * stored language is never rewritten to one the screens do not have (spec §4's rule, applied among
 * these).
 */
export const isUiLanguage = (value: unknown): value is UiLanguage => typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value)

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

/** Namespaces every document carries whole even when the first render did not ask for them: client-side form checks use them. */
const ALWAYS_INLINED = ['validation']

/** The global the document sets before the client entry runs (see `documentI18nScript`). */
export const INLINE_I18N_GLOBAL = '__portalI18n'
/** `namespaces`: those the render used, whose other texts the browser fetches right after hydration. */
export type InlineI18n = { lng: string; resources: Resource; namespaces?: string[] }

/** What the server's request instance carries: the texts its render asked for (`useTranslation`), as `ns\u0000key`. */
type RequestI18n = I18n & { usedTexts?: Set<string> }

/**
 * The texts a document needs in the browser, from the server's request instance (which holds every
 * locale): the texts the render used (with their plural and context forms) plus the namespaces of
 * ALWAYS_INLINED, each from the first language of the fallback chain (pt-BR → pt → en) that has the
 * namespace's file. Locale files are complete against en (a language either has a namespace's file
 * with every key or falls back to en for all of it), so the browser resolves every text the server
 * rendered, and no other language ships. The rest of the namespaces the page used (and `common`)
 * follow right after hydration (root `App`), before anything rendered only in the browser (a menu
 * opened, a check's message) asks for them; the whole language before a client navigation. A render that
 * recorded nothing of its texts (no request instance) inlines the namespaces it used, whole.
 */
export function documentResources(instance: I18n): InlineI18n {
  const lng = instance.language
  const chain: string[] = instance.services.languageUtils.toResolveHierarchy(lng)
  const resources: Resource = {}
  const bundleOf = (ns: string): [string, Record<string, unknown>] | undefined => {
    const code = chain.find((c) => instance.hasResourceBundle(c, ns))
    return code ? [code, instance.getResourceBundle(code, ns) as Record<string, unknown>] : undefined
  }
  const texts = (instance as RequestI18n).usedTexts
  const whole = new Set([...ALWAYS_INLINED, ...(texts ? [] : (instance.reportNamespaces?.getUsedNamespaces() ?? []))])
  for (const ns of whole) {
    const found = bundleOf(ns)
    if (found) (resources[found[0]] ??= {})[ns] = found[1]
  }
  for (const entry of texts ?? []) {
    const at = entry.indexOf('\u0000')
    const ns = entry.slice(0, at)
    if (whole.has(ns)) continue
    const found = bundleOf(ns)
    if (!found) continue
    const target = ((resources[found[0]] ??= {})[ns] ??= {}) as Record<string, unknown>
    copyText(found[1], target, entry.slice(at + 1))
  }
  return texts ? { lng, resources, namespaces: [...new Set(['common', ...(instance.reportNamespaces?.getUsedNamespaces() ?? [])])] } : { lng, resources }
}

/** Copies one key (a flat key, or a dotted path into nested objects) and its `_plural`/`_context` forms. */
function copyText(from: Record<string, unknown>, to: Record<string, unknown>, key: string) {
  let source = from
  let target = to
  let parts = key.split('.')
  // Down the shortest runs of parts that name objects, as i18next finds a key: one may be written
  // flat inside a nested one ("fields": { "account.name": … }).
  for (;;) {
    if (parts.length === 1 || parts.join('.') in source) break
    const isObject = (name: string) => source[name] !== null && typeof source[name] === 'object'
    let j = 1
    while (j < parts.length && !isObject(parts.slice(0, j).join('.'))) j++
    if (j === parts.length) break
    const part = parts.slice(0, j).join('.')
    source = source[part] as Record<string, unknown>
    target = (target[part] ??= {}) as Record<string, unknown>
    parts = parts.slice(j)
  }
  const last = parts.join('.')
  const forms = `${last}_`
  for (const name of Object.keys(source)) if (name === last || name.startsWith(forms)) target[name] = source[name]
}

// The script for a language and set of texts is the same for every document asking for that set
// (the server's resources are loaded once): written once, not per render. Bounded.
const scripts = new Map<string, string>()

/** `documentResources` as an inline script body; `<` is escaped so no text can close the tag. */
export function documentI18nScript(instance: I18n): string {
  const texts = (instance as RequestI18n).usedTexts
  const used = texts ? [...texts] : [...new Set(instance.reportNamespaces?.getUsedNamespaces() ?? [])].sort()
  const key = `${instance.language}\u0000${texts ? 't' : 'n'}\u0000${used.join('\u0001')}`
  let script = scripts.get(key)
  if (script === undefined) {
    script = `window.${INLINE_I18N_GLOBAL}=${JSON.stringify(documentResources(instance)).replace(/</g, '\\u003c')}`
    if (scripts.size >= 256) scripts.clear()
    scripts.set(key, script)
  }
  return script
}
