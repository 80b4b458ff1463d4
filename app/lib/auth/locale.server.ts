import en from '../../../locales/en/auth.json' with { type: 'json' }
import { readCookie } from '../cookies.server.ts'
import { negotiateLanguage } from '../i18n.server.ts'
import type { AuthMessages } from './messages.ts'

/** `lng` is the cookie the shell reads too. */
export const LANGUAGE_COOKIE = 'lng'
export const THEME_COOKIE = 'theme'
const YEAR_SECONDS = 365 * 24 * 3600

const files = import.meta.glob<AuthMessages>('../../../locales/*/auth.json', { eager: true, import: 'default' })
const byLocale = new Map<string, AuthMessages>()
for (const [file, content] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/auth\.json$/.exec(file)
  if (match) byLocale.set(match[1]!, content)
}

/** The current locale: the `lng` cookie, else the best Accept-Language match, else en (one rule: `negotiateLanguage`). */
export const currentLocale = (request: Request): string => negotiateLanguage(readCookie(request, LANGUAGE_COOKIE), request.headers.get('accept-language'))

function merge<T>(base: T, over: unknown): T {
  if (!over || typeof over !== 'object') return base
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) }
  for (const [key, value] of Object.entries(base as Record<string, unknown>)) {
    const given = (over as Record<string, unknown>)[key]
    out[key] = value && typeof value === 'object' ? merge(value, given) : typeof given === 'string' ? given : value
  }
  return out as T
}

/** The sign-in texts of a locale, with English for anything it lacks. */
export function authMessages(locale: string): AuthMessages {
  let messages = merged.get(locale)
  if (!messages) merged.set(locale, (messages = Object.freeze(merge(en, byLocale.get(locale)))))
  return messages
}
// Merged once per locale (a handful), not per request; frozen, as every caller shares it.
const merged = new Map<string, AuthMessages>()

/** The texts the sign-in page renders (its loader data: the rest of the sign-in texts stay on the server). */
export type LoginMessages = Pick<AuthMessages, 'login' | 'twoFactor' | 'sso' | 'validation'>
const forLogin = new Map<string, LoginMessages>()
export function loginMessages(locale: string): LoginMessages {
  let messages = forLogin.get(locale)
  if (!messages) {
    const { login, twoFactor, sso, validation } = authMessages(locale)
    forLogin.set(locale, (messages = Object.freeze({ login, twoFactor, sso, validation })))
  }
  return messages
}

/** The `lng` cookie of spec §9 (365 days); readable by scripts, it is a preference only. */
export const languageCookie = (locale: string, secure: boolean) => `${LANGUAGE_COOKIE}=${encodeURIComponent(locale)}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`

/** The theme preference cookie (`light` or `dark`, 365 days). */
export const themeCookie = (theme: 'light' | 'dark', secure: boolean) => `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure ? '; Secure' : ''}`
