import { initReactI18next } from 'react-i18next'
import { createI18nextMiddleware } from 'remix-i18next'
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES } from './i18n.ts'
import { serverI18nOptions } from './i18n-resources.server.ts'
import { readCookie } from './cookies.server.ts'

/**
 * Language of a request: the `lng` cookie (set by sign-in and the language switch), else
 * Accept-Language, else en.
 */
export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...SUPPORTED_LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    order: ['custom', 'header'],
    findLocale: async ({ request }) => readCookie(request, 'lng'),
  },
  i18next: serverI18nOptions,
  plugins: [initReactI18next],
})
