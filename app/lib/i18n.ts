import type { Resource } from 'i18next'

/** The 23 locales of spec §9. Screen texts exist in en, es and ja; the others fall back to en. */
export const SUPPORTED_LANGUAGES = ['en', 'ar', 'ca', 'cs', 'de', 'es', 'fi', 'fr', 'hu', 'id', 'it', 'ja', 'ko', 'nb', 'nl', 'pl', 'pt-BR', 'ru', 'sk', 'sv', 'th', 'zh', 'zh-TW'] as const
export type Language = (typeof SUPPORTED_LANGUAGES)[number]
export const DEFAULT_LANGUAGE: Language = 'en'
/** Languages offered in the language menu: those whose screens are complete. */
export const UI_LANGUAGES = ['en', 'es', 'ja'] as const
const RTL_LANGUAGES = new Set<string>(['ar'])

export const isSupportedLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value)

export const languageDirection = (lng: string): 'rtl' | 'ltr' => (RTL_LANGUAGES.has(lng.split('-')[0]!) ? 'rtl' : 'ltr')

// Bundled at build time (every locales/<lng>/<ns>.json), so there is no HTTP backend and no
// loading flash; the files are small.
const files = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', { eager: true, import: 'default' })

export const resources: Resource = {}
for (const [file, content] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file)
  if (!match) continue
  const [, lng, ns] = match as unknown as [string, string, string]
  ;(resources[lng] ??= {})[ns] = content
}

export const i18nOptions = {
  resources,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  ns: ['common', 'validation', 'auth'],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
}
