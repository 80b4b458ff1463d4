/**
 * Money of spec §5: a string or number, optional minus, digits with optional thousands
 * separators (commas), up to 2 decimals — none for JPY. Amounts are integer minor units.
 */
export const INVALID_MONETARY_VALUE = 'invalidMonetaryValue'

const ZERO_DECIMAL = new Set(['JPY'])

/** An ISO 4217 code the runtime knows (the API's own check; the portal's forms say it first). */
let currencyCodes: Set<string> | undefined
export const isCurrencyCode = (code: string) => (currencyCodes ??= new Set(Intl.supportedValuesOf('currency'))).has(code)
export const currencyDecimals = (currency: string) => (ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2)

export function isMonetaryValue(value: unknown, currency = 'EUR'): boolean {
  if (typeof value === 'number') value = String(value)
  if (typeof value !== 'string') return false
  const decimals = currencyDecimals(currency)
  const fraction = decimals === 0 ? '' : `(\\.\\d{1,${decimals}})?`
  return new RegExp(`^-?(\\d{1,3}(,\\d{3})+|\\d+)${fraction}$`).test(value.trim())
}

/** Parses a monetary value into minor units, or null with the failure key invalidMonetaryValue. */
export function parseMoney(value: unknown, currency = 'EUR'): { ok: true; minor: number } | { ok: false; error: typeof INVALID_MONETARY_VALUE } {
  if (!isMonetaryValue(value, currency)) return { ok: false, error: INVALID_MONETARY_VALUE }
  const text = String(value).trim().replace(/,/g, '')
  const negative = text.startsWith('-')
  const [whole, frac = ''] = text.replace('-', '').split('.')
  const decimals = currencyDecimals(currency)
  const minor = Number(whole) * 10 ** decimals + Number(frac.padEnd(decimals, '0') || '0')
  if (!Number.isSafeInteger(minor)) return { ok: false, error: INVALID_MONETARY_VALUE }
  return { ok: true, minor: negative ? -minor : minor }
}

/** Formats minor units in the user's locale (JPY without decimals). */
// A formatter per locale and currency, made once: making one costs more than formatting (an invoice formats a thousand amounts).
const moneyFormats = new Map<string, Intl.NumberFormat>()

export function formatMoney(minor: number, currency: string, locale = 'en'): string {
  const decimals = currencyDecimals(currency)
  const key = `${locale}:${currency}`
  let format = moneyFormats.get(key)
  if (!format) {
    // Grouping always: Spanish leaves four-digit sums ungrouped by default ("1748,04 €" beside "12.345,00 €"); issue 28 asks one form.
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: 'always' })
    if (moneyFormats.size < 1000) moneyFormats.set(key, format)
  }
  return format.format(minor / 10 ** decimals)
}

/** Formats a rate in percent in the locale, with two decimals (es: "21,00 %", en: "21.00%"), as amounts are. */
const percentFormats = new Map<string, Intl.NumberFormat>()
export function formatPercent(percent: number, locale = 'en'): string {
  let format = percentFormats.get(locale)
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 })
    if (percentFormats.size < 100) percentFormats.set(locale, format)
  }
  return format.format(percent / 100)
}

/**
 * Minor units of `from` as minor units of `to` at `rate` (one unit of `from` in `to`), rounded half
 * up once, to the minor unit of `to` (decision 103): 12.99 EUR at 1.08 → 14.03 USD.
 */
export function convertMinor(minor: number, from: string, to: string, rate: number): number {
  if (from === to) return minor
  const scale = 10 ** (currencyDecimals(to) - currencyDecimals(from))
  // toFixed first, so that a binary fraction such as 1402.4999999 that is really .5 rounds up.
  return Math.round(Number((minor * rate * scale).toFixed(6)))
}

// One sum as the API's texts write it ("USD 63.98", "JPY 3900", "EUR -1748.04"): a code, a space, a plain number.
const MONEY_TEXT_PART = /^([A-Z]{3}) (-?\d+(?:\.\d+)?)$/

/**
 * The API's money texts (a list's amount_text, total_text, balance_text: "EUR 1748.04; USD 12.00")
 * in the user's locale, each sum through formatMoney ("€1,748.04 · $12.00"), so a list reads as
 * the detail screens do. A text that is not such sums comes back as it is.
 */
export function formatMoneyText(text: string | null | undefined, locale = 'en'): string {
  if (!text) return ''
  const parts = text.split(/[;,] /).map((part) => MONEY_TEXT_PART.exec(part.trim()))
  if (parts.some((p) => !p || !isCurrencyCode(p[1]!))) return text
  return parts
    .map((p) => {
      const [, currency, amount] = p!
      const decimals = currencyDecimals(currency!)
      return formatMoney(Math.round(Number(amount) * 10 ** decimals), currency!, locale)
    })
    .join(' · ')
}
