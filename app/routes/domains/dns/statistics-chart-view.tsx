import { useTranslation } from '#app/lib/use-translation.ts'
import { ColumnChart, niceMax } from '#app/components/charts.tsx'

/**
 * Query counts as an inline SVG bar chart (no chart library, no client code) with the same
 * figures as a table: the SVG is one image to assistive technology (title and summary in
 * desc), the table is the accessible, copyable form of every bar.
 */
export function StatisticsChart(props: { bars: { start: string; queries: number }[]; total: number; rangeLabel: string; number: Intl.NumberFormat; when: (iso: string) => string }) {
  const { t } = useTranslation('dns')
  const { bars, total, rangeLabel, number, when } = props
  const first = bars[0]?.start ?? ''
  const last = bars.at(-1)?.start ?? ''
  return (
    <figure className="space-y-2" data-testid="dns-statistics-chart">
      <p className="text-sm" data-testid="statistics-total">
        {t('statistics.total', { count: total, total: number.format(total), range: rangeLabel })}
      </p>
      <ColumnChart
        bars={bars.map((b) => ({ key: b.start, label: when(b.start), value: b.queries }))}
        title={t('statistics.chartTitle', { range: rangeLabel })}
        desc={t('statistics.chartDesc', { total: number.format(total), from: when(first), to: when(last), max: number.format(niceMax(Math.max(0, ...bars.map((b) => b.queries)))) })}
        format={(n) => number.format(n)}
        tone={() => 'teal'}
      />
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
