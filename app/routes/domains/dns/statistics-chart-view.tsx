import { useTranslation } from '#app/lib/use-translation.ts'
import { barGeometry, CHART, niceMax } from './statistics-chart.ts'

/**
 * Query counts as an inline SVG bar chart (no chart library, no client code) with the same
 * figures as a table: the SVG is one image to assistive technology (title and summary in
 * desc), the table is the accessible, copyable form of every bar.
 */
export function StatisticsChart(props: { bars: { start: string; queries: number }[]; total: number; rangeLabel: string; number: Intl.NumberFormat; when: (iso: string) => string }) {
  const { t } = useTranslation('dns')
  const { bars, total, rangeLabel, number, when } = props
  const max = niceMax(Math.max(...bars.map((b) => b.queries)))
  const rects = barGeometry(bars, max)
  const baseline = CHART.height - CHART.bottom
  const ticks = [0, max / 2, max]
  const first = bars[0]?.start ?? ''
  const last = bars.at(-1)?.start ?? ''
  return (
    <figure className="space-y-2" data-testid="dns-statistics-chart">
      <p className="text-sm" data-testid="statistics-total">
        {t('statistics.total', { count: total, total: number.format(total), range: rangeLabel })}
      </p>
      <svg viewBox={`0 0 ${CHART.width} ${CHART.height}`} className="h-auto w-full max-w-3xl text-sky-600 dark:text-sky-400" role="img" aria-labelledby="dns-stats-title dns-stats-desc">
        <title id="dns-stats-title">{t('statistics.chartTitle', { range: rangeLabel })}</title>
        <desc id="dns-stats-desc">{t('statistics.chartDesc', { total: number.format(total), from: when(first), to: when(last), max: number.format(max) })}</desc>
        {ticks.map((v) => {
          const y = CHART.top + (1 - v / max) * (baseline - CHART.top)
          return (
            <g key={v} className="text-slate-400">
              <line x1={CHART.left} x2={CHART.width - CHART.right} y1={y} y2={y} stroke="currentColor" strokeWidth={0.5} strokeDasharray={v ? '2 3' : undefined} />
              <text x={CHART.left - 4} y={y + 4} textAnchor="end" fontSize={11} fill="currentColor">
                {number.format(v)}
              </text>
            </g>
          )
        })}
        {rects.map((r) => (
          <rect key={r.bar.start} x={r.x} y={r.y} width={r.width} height={r.height} fill="currentColor">
            <title>{`${when(r.bar.start)}: ${number.format(r.bar.queries)}`}</title>
          </rect>
        ))}
        <text x={CHART.left} y={CHART.height - 6} fontSize={11} fill="currentColor" className="text-slate-500">
          {when(first)}
        </text>
        <text x={CHART.width - CHART.right} y={CHART.height - 6} fontSize={11} textAnchor="end" fill="currentColor" className="text-slate-500">
          {when(last)}
        </text>
      </svg>
      {/* The same figures as a table: for screen readers, copying, and anyone who prefers numbers. */}
      <details>
        <summary className="cursor-pointer text-sm underline">{t('statistics.asTable')}</summary>
        <table className="mt-2 text-sm" data-testid="statistics-table">
          <caption className="sr-only">{t('statistics.chartTitle', { range: rangeLabel })}</caption>
          <thead>
            <tr>
              <th scope="col" className="pr-4 text-left">
                {t('statistics.period')}
              </th>
              <th scope="col" className="text-right">
                {t('statistics.queries')}
              </th>
            </tr>
          </thead>
          <tbody>
            {bars.map((b) => (
              <tr key={b.start}>
                <td className="pr-4">
                  <time dateTime={b.start}>{when(b.start)}</time>
                </td>
                <td className="text-right tabular-nums">{number.format(b.queries)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
