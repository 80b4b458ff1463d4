import { describe, expect, it } from 'vitest'
import { columnGeometry, COLUMNS, niceMax } from '#app/components/charts.tsx'
import { rangeOf, toBars, windowOf } from './statistics-chart.ts'

describe('statistics chart', () => {
  it('regroups 5-minute buckets into every bar of the window, zeros included', () => {
    const from = new Date('2025-01-01T00:00:00Z')
    const to = new Date('2025-01-01T02:00:00Z')
    const bars = toBars(
      [
        { start: '2025-01-01T00:05:00Z', queries: 3 },
        { start: '2025-01-01T00:25:00Z', queries: 4 },
        { start: '2025-01-01T01:35:00Z', queries: 10 },
        { start: '2025-01-01T02:00:00Z', queries: 99 }, // outside: to is exclusive
      ],
      from,
      to,
      30,
    )
    expect(bars).toEqual([
      { start: '2025-01-01T00:00:00.000Z', queries: 7 },
      { start: '2025-01-01T00:30:00.000Z', queries: 0 },
      { start: '2025-01-01T01:00:00.000Z', queries: 0 },
      { start: '2025-01-01T01:30:00.000Z', queries: 10 },
    ])
  })

  it('ends a window on a whole bar and falls back to 24 h for unknown ranges', () => {
    expect(rangeOf('7d')).toBe('7d')
    expect(rangeOf('1y')).toBe('24h')
    const w = windowOf('24h', new Date('2025-01-01T10:07:00Z'))
    expect(w.to.toISOString()).toBe('2025-01-01T10:30:00.000Z')
    expect(w.from.toISOString()).toBe('2024-12-31T10:30:00.000Z')
  })

  it('scales bars to a nice maximum', () => {
    expect(niceMax(0)).toBe(1)
    expect(niceMax(7)).toBe(10)
    expect(niceMax(130)).toBe(200)
    expect(niceMax(500)).toBe(500)
    const [a, b] = columnGeometry(
      [
        { key: 'x', label: 'x', value: 50 },
        { key: 'y', label: 'y', value: 0 },
      ],
      100,
    )
    const plot = COLUMNS.height - COLUMNS.top - COLUMNS.bottom
    expect(a!.height).toBeCloseTo(plot / 2)
    expect(b!.height).toBe(0)
    expect(a!.y + a!.height).toBeCloseTo(COLUMNS.height - COLUMNS.bottom)
  })
})
