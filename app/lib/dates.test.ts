import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime, isDateTimeShape } from './dates.ts'

describe('date-time shape', () => {
  it('accepts YYYY-MM-DDTHH:mm:ssZ only', () => {
    expect(isDateTimeShape('2026-03-01T12:30:00Z')).toBe(true)
    for (const bad of ['2026-03-01 12:30:00', '2026-03-01T12:30:00.000Z', '2026-03-01T12:30:00+01:00', '2026-13-01T00:00:00Z', '2026-03-01T24:00:00Z', '', null])
      expect(isDateTimeShape(bad), String(bad)).toBe(false)
  })
  it('formats in the user locale, in UTC', () => {
    expect(formatDateTime('2026-03-01T12:30:00Z', 'en')).toBe('March 1, 2026 12:30 PM UTC')
    expect(formatDateTime('2026-03-01T12:30:00Z', 'es')).toBe('1 de marzo de 2026 12:30 UTC')
    expect(formatDateTime('2026-03-01T12:30:00Z', 'ja')).toBe('2026年3月1日 12:30 UTC')
  })
  it('keeps each locale hour shape around midnight', () => {
    expect(formatDateTime('2026-12-31T00:05:00Z', 'en')).toBe('December 31, 2026 12:05 AM UTC')
    expect(formatDateTime('2026-12-31T00:05:00Z', 'es')).toBe('31 de diciembre de 2026 0:05 UTC')
    expect(formatDateTime('2026-12-31T00:05:00Z', 'ja')).toBe('2026年12月31日 00:05 UTC')
  })
  it('formats a day without a time, day first, in UTC', () => {
    expect(formatDate('2026-01-31T00:00:00Z', 'en')).toBe('31 Jan 2026')
    expect(formatDate('2026-01-31T00:00:00Z', 'es')).toBe('31 ene 2026')
    expect(formatDate('2026-01-31T00:00:00Z', 'ja')).toBe('2026年1月31日')
    expect(formatDate('2026-01-31T23:30:00-02:00', 'en')).toBe('1 Feb 2026')
    expect(formatDate(null, 'en')).toBe('')
  })

  it('renders in UTC whatever the offset of the input', () => {
    expect(formatDateTime('2026-03-01T23:30:00-02:00', 'en')).toBe('March 2, 2026 1:30 AM UTC')
    expect(formatDateTime(new Date(Date.UTC(2026, 2, 1, 12, 30)), 'en')).toBe('March 1, 2026 12:30 PM UTC')
  })
  it('falls back to English for other languages, and passes through what is not a date', () => {
    expect(formatDateTime('2026-03-01T12:30:00Z', 'xx')).toBe('March 1, 2026 12:30 PM UTC')
    expect(formatDateTime('not a date', 'en')).toBe('not a date')
    expect(formatDateTime(null, 'en')).toBe('')
  })

  it('answers a text it made before the same, per language and per kind, and a Date as its string', () => {
    const iso = '2026-07-04T09:05:00Z'
    const first = [formatDateTime(iso, 'en'), formatDate(iso, 'en'), formatDateTime(iso, 'es'), formatDate(iso, 'ja')]
    expect([formatDateTime(iso, 'en'), formatDate(iso, 'en'), formatDateTime(iso, 'es'), formatDate(iso, 'ja')]).toEqual(first)
    expect(first).toEqual(['July 4, 2026 9:05 AM UTC', '4 Jul 2026', '4 de julio de 2026 9:05 UTC', '2026年7月4日'])
    expect(formatDateTime(new Date(iso), 'en')).toBe(first[0])
    expect(formatDate(new Date(iso), 'en')).toBe(first[1])
  })
})
