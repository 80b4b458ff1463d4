/** Country-name languages of spec §9; anything else falls back to en. */
export const COUNTRY_LANGUAGES = ['en', 'es', 'ja'] as const

/** Full country name of an ISO 3166-1 alpha-2 code in en, es or ja (Intl.DisplayNames). */
export function countryName(code: string | null | undefined, lng = 'en'): string {
  if (!code || !/^[A-Za-z]{2}$/.test(code)) return code ?? ''
  const language = (COUNTRY_LANGUAGES as readonly string[]).includes(lng) ? lng : 'en'
  try {
    return new Intl.DisplayNames([language], { type: 'region', fallback: 'code' }).of(code.toUpperCase()) ?? code
  } catch {
    return code.toUpperCase()
  }
}
