import { describe, expect, it } from 'vitest'
import { formatDateTime, isDateTimeShape } from './dates.ts'

describe('date-time shape', () => {
  it('accepts YYYY-MM-DDTHH:mm:ssZ only', () => {
    expect(isDateTimeShape('2026-03-01T12:30:00Z')).toBe(true)
    for (const bad of ['2026-03-01 12:30:00', '2026-03-01T12:30:00.000Z', '2026-03-01T12:30:00+01:00', '2026-13-01T00:00:00Z', '2026-03-01T24:00:00Z', '', null]) expect(isDateTimeShape(bad), String(bad)).toBe(false)
  })
  it('formats in the user locale', () => {
    expect(formatDateTime('2026-03-01T12:30:00Z', 'en')).toBe('March 1, 2026 12:30 PM UTC')
    expect(formatDateTime('2026-03-01T12:30:00Z', 'es')).toMatch(/marzo/)
    expect(formatDateTime('2026-03-01T12:30:00Z', 'ja')).toMatch(/2026年3月1日/)
  })
})
