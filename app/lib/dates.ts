// Built on Intl rather than a date library: Intl ships with every browser and Node, so the client
// bundle carries no locale data of ours (issue 6, JS budget).

const formatters = new Map<string, [Intl.DateTimeFormat, Intl.DateTimeFormat]>()

function formattersFor(lng: string): [Intl.DateTimeFormat, Intl.DateTimeFormat] {
  let pair = formatters.get(lng)
  if (!pair) {
    // Hour shapes of the long "LLL" forms the portal has always shown: en "h:mm AM", es "H:mm", ja "HH:mm".
    pair = [
      new Intl.DateTimeFormat(lng, { dateStyle: 'long', timeZone: 'UTC' }),
      new Intl.DateTimeFormat(lng, { hour: lng === 'ja' ? '2-digit' : 'numeric', minute: '2-digit', hourCycle: lng === 'en' ? 'h12' : 'h23', timeZone: 'UTC' }),
    ]
    formatters.set(lng, pair)
  }
  return pair
}

/**
 * Texts already made, by function, language and ISO string: a list page shows the same dates at
 * every load (25 rows: 75 Intl calls and their clean-up, ~2 % of the portfolio page's server CPU,
 * issue 34). At most 2,000 kept, forgotten all at once when full. Only strings are kept (a Date
 * would need its own key).
 */
const made = new Map<string, string>()
function remembered(kind: string, value: string, lng: string, make: () => string): string {
  const key = `${kind}\u0000${lng}\u0000${value}`
  let text = made.get(key)
  if (text === undefined) {
    text = make()
    if (made.size >= 2000) made.clear()
    made.set(key, text)
  }
  return text
}

/** A timestamp in the user's locale (long date + time), in UTC so server and browser render the same. */
export function formatDateTime(value: string | Date | null | undefined, lng: string): string {
  if (!value) return ''
  if (typeof value === 'string') return remembered('t', value, lng, () => dateTime(value, lng))
  return dateTime(value, lng)
}

function dateTime(value: string | Date, lng: string): string {
  const d = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(d.getTime())) return String(value)
  const [date, time] = formattersFor(/^(es|ja)$/.test(lng) ? lng : 'en')
  // Newer ICU puts narrow/no-break spaces before "PM"; plain spaces keep server and browser text identical.
  return `${date.format(d)} ${time.format(d)} UTC`.replace(/[\u202f\u00a0]/g, ' ')
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>()

/**
 * A calendar day in the user's language — "31 Jan 2026", "31 ene 2026", "2026年1月31日" — with no
 * time: expiry, creation and registry dates are days (issue 16). In UTC, as stored, so the
 * server's text and the browser's are the same.
 */
export function formatDate(value: string | Date | null | undefined, lng: string): string {
  if (!value) return ''
  if (typeof value === 'string') return remembered('d', value, lng, () => day(value, lng))
  return day(value, lng)
}

function day(value: string | Date, lng: string): string {
  const d = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(d.getTime())) return String(value)
  const language = /^(es|ja)$/.test(lng) ? lng : 'en'
  let format = dayFormatters.get(language)
  if (!format) {
    // British English orders day, month, year as the other languages do.
    format = new Intl.DateTimeFormat(language === 'en' ? 'en-GB' : language, { day: 'numeric', month: language === 'ja' ? 'long' : 'short', year: 'numeric', timeZone: 'UTC' })
    dayFormatters.set(language, format)
  }
  return format.format(d).replace(/[\u202f\u00a0]/g, ' ')
}

/** Spec §5 date-time shape: YYYY-MM-DDTHH:mm:ssZ (UTC, no fraction). */
export const DATE_TIME_SHAPE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/

export const isDateTimeShape = (value: unknown): value is string => typeof value === 'string' && DATE_TIME_SHAPE.test(value) && !Number.isNaN(Date.parse(value))
