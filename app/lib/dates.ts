// Built on Intl rather than a date library: Intl ships with every browser and Node, so the client
// bundle carries no locale data of ours (issue 6, JS budget).

const formatters = new Map<string, [Intl.DateTimeFormat, Intl.DateTimeFormat]>()

function formattersFor(lng: string): [Intl.DateTimeFormat, Intl.DateTimeFormat] {
  let pair = formatters.get(lng)
  if (!pair) {
    // Hour shapes of the long "LLL" forms the portal has always shown: en "h:mm AM", es "H:mm", ja "HH:mm".
    pair = [new Intl.DateTimeFormat(lng, { dateStyle: 'long', timeZone: 'UTC' }), new Intl.DateTimeFormat(lng, { hour: lng === 'ja' ? '2-digit' : 'numeric', minute: '2-digit', hourCycle: lng === 'en' ? 'h12' : 'h23', timeZone: 'UTC' })]
    formatters.set(lng, pair)
  }
  return pair
}

/** A timestamp in the user's locale (long date + time), in UTC so server and browser render the same. */
export function formatDateTime(value: string | Date | null | undefined, lng: string): string {
  if (!value) return ''
  const d = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(d.getTime())) return String(value)
  const [date, time] = formattersFor(/^(es|ja)$/.test(lng) ? lng : 'en')
  // Newer ICU puts narrow/no-break spaces before "PM"; plain spaces keep server and browser text identical.
  return `${date.format(d)} ${time.format(d)} UTC`.replace(/[\u202f\u00a0]/g, ' ')
}

/** Spec §5 date-time shape: YYYY-MM-DDTHH:mm:ssZ (UTC, no fraction). */
export const DATE_TIME_SHAPE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/

export const isDateTimeShape = (value: unknown): value is string => typeof value === 'string' && DATE_TIME_SHAPE.test(value) && !Number.isNaN(Date.parse(value))
