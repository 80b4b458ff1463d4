/**
 * The statistics tab's chart, computed on the server: the API's 5-minute buckets regrouped into
 * bars for the chosen range (every bar present, zero included, so gaps show as gaps); the reports'
 * ColumnChart (app/components/charts.tsx) draws them. No chart library and no client code.
 */
export const RANGES = { '24h': { hours: 24, barMinutes: 30 }, '7d': { hours: 24 * 7, barMinutes: 180 }, '30d': { hours: 24 * 30, barMinutes: 720 } } as const
export type RangeKey = keyof typeof RANGES

export const rangeOf = (value: string | null): RangeKey => (value && value in RANGES ? (value as RangeKey) : '24h')

/** The window of a range ending now, `to` rounded up to a whole bar so bars do not shift by the minute. */
export function windowOf(range: RangeKey, now: Date): { from: Date; to: Date } {
  const bar = RANGES[range].barMinutes * 60_000
  const to = new Date(Math.ceil(now.getTime() / bar) * bar)
  return { from: new Date(to.getTime() - RANGES[range].hours * 3_600_000), to }
}

export type Bar = { start: string; queries: number }

/** Every bar of the window with the queries of the buckets that start in it. */
export function toBars(buckets: { start: string; queries: number }[], from: Date, to: Date, barMinutes: number): Bar[] {
  const bar = barMinutes * 60_000
  const count = Math.max(0, Math.round((to.getTime() - from.getTime()) / bar))
  const totals = new Array<number>(count).fill(0)
  for (const b of buckets) {
    const i = Math.floor((new Date(b.start).getTime() - from.getTime()) / bar)
    if (i >= 0 && i < count) totals[i]! += b.queries
  }
  return totals.map((queries, i) => ({ start: new Date(from.getTime() + i * bar).toISOString(), queries }))
}
