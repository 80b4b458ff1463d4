import { DEFAULT_LANGUAGE, INLINE_I18N_GLOBAL, type InlineI18n } from './i18n.ts'
import { Translator, type Resources } from '#common/translator.ts'

let translator: Translator | undefined

/**
 * The browser's one translator, made from the texts the document inlined. Other texts of the
 * language arrive through `loadLanguage` (i18n.client.ts, loaded on demand).
 */
export function browserTranslator(): Translator {
  if (!translator) {
    const inline = (window as unknown as Record<string, InlineI18n | undefined>)[INLINE_I18N_GLOBAL]
    const lng = inline?.lng ?? (document.documentElement.lang || DEFAULT_LANGUAGE)
    translator = new Translator(lng, (inline?.resources ?? {}) as Resources, { defaultNS: 'common', fallbackLng: DEFAULT_LANGUAGE })
  }
  return translator
}

/** The namespaces whose used texts the document inlined (the rest of them is fetched after hydration). */
export const inlineNamespaces = (): string[] => (window as unknown as Record<string, InlineI18n | undefined>)[INLINE_I18N_GLOBAL]?.namespaces ?? []
