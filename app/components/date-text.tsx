import { formatDate, formatDateTime } from '#app/lib/dates.ts'

/**
 * A date as people read it: the day ("31 Jan 2026") with the exact time on hover, or the day and
 * time where the time matters (logs). One element for every screen, so dates look alike everywhere.
 */
export function DateText({ value, lng, time = false }: { value: string | Date | null | undefined; lng: string; time?: boolean }) {
  if (!value) return null
  const iso = value instanceof Date ? value.toISOString() : value
  const exact = formatDateTime(iso, lng)
  return (
    <time dateTime={iso} title={exact}>
      {time ? exact : formatDate(iso, lng)}
    </time>
  )
}
