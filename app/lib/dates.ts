import dayjs from 'dayjs'
import localizedFormat from 'dayjs/plugin/localizedFormat.js'
import utc from 'dayjs/plugin/utc.js'
import 'dayjs/locale/es.js'
import 'dayjs/locale/ja.js'

dayjs.extend(localizedFormat)
dayjs.extend(utc)

const DAYJS_LOCALES = new Set(['en', 'es', 'ja'])

/** A timestamp in the user's locale ("LLL" form), in UTC so server and browser render the same. */
export function formatDateTime(value: string | Date | null | undefined, lng: string): string {
  if (!value) return ''
  const d = dayjs.utc(value)
  if (!d.isValid()) return String(value)
  return d.locale(DAYJS_LOCALES.has(lng) ? lng : 'en').format('LLL [UTC]')
}

/** Spec §5 date-time shape: YYYY-MM-DDTHH:mm:ssZ (UTC, no fraction). */
export const DATE_TIME_SHAPE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/

export const isDateTimeShape = (value: unknown): value is string => typeof value === 'string' && DATE_TIME_SHAPE.test(value) && dayjs.utc(value).isValid()
