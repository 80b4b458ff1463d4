import { Link } from 'react-router'
import { BarChart, ColumnChart, type Bar, type Tone } from '#app/components/charts.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { formatDate } from '#app/lib/dates.ts'
import type { Answer } from '#app/lib/platform-api.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { formatMoney } from '#common/money.ts'
import { printPql } from '#common/pql.ts'
import { figureTarget, type FigureReport } from '#common/reports.ts'

/** The answer of every figure report (GET /groups/{context}/reports/<report>). */
export type SectionsReport = Answer<'/groups/{context}/reports/dns'>
type Figure = SectionsReport['sections'][number]['figures'][number]
type T = (key: string, options?: Record<string, unknown>) => string

/** The sections drawn as columns over time (a month, a week); the others as horizontal bars. */
const OVER_TIME = new Set(['month', 'auto_renew_off', 'week', 'expiry_month', 'revenue_month'])

/** A figure's list as a link (its pql in the URL), or null when no list shows what it counts. */
export function figureHref(kind: FigureReport, report: SectionsReport, section: string, key: string): string | null {
  const target = figureTarget(kind, section, key, { today: report.today, filters: report.filters })
  if (!target) return null
  return target.filters.length ? `${target.path}?${new URLSearchParams({ pql: printPql(target.filters) })}` : target.path
}

/** The words of one figure of a report: a state in the area's words, a month, a week, a TLD, or the key itself. */
export function figureLabel(t: T, language: string, kind: FigureReport, section: string, key: string, named?: string): string {
  if (named) return named
  if (section === 'billing_entity' && key === 'none') return t('reports:renewals-forecast.noPayer')
  if (section === 'month' || section === 'auto_renew_off' || section === 'expiry_month' || section === 'revenue_month') {
    return new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${key}-01T00:00:00Z`))
  }
  if (section === 'week') return t('reports:activity.weekOf', { day: formatDate(`${key}T00:00:00Z`, language) })
  if (section === 'publish_state') return t(`common:status.publish.${key}`, { defaultValue: key })
  if (section === 'dnssec_state') return t(`common:status.dnssec.${key}`, { defaultValue: key })
  if (section === 'status' && kind === 'ssls') return t(`ssl:status.${key}`, { defaultValue: key })
  if (section === 'order_state') return t(`common:status.order.${key}`, { defaultValue: key })
  if (section === 'tld') return `.${key}`
  if (section === 'kind') {
    const [area, ...action] = key.split('.')
    return `${t(`common:nav.${area}`, { defaultValue: area })} · ${action.join('.')}`
  }
  if (['drift', 'spf', 'dmarc', 'caa', 'mx', 'stale', 'ttl', 'failed_renewal', 'difference'].includes(section)) return t(`reports:${kind}.values.${section}.${key}`, { defaultValue: key })
  return key
}

const SAFE: Record<string, Tone> = { completed: 'green', published: 'green', signed: 'green', in_sync: 'green', hard: 'green', reject: 'green', true: 'green', recent: 'green', issued: 'green' }
const RISK: Record<string, Tone> = {
  failed: 'red',
  drifting: 'red',
  missing: 'red',
  open: 'amber',
  soft: 'amber',
  none: 'amber',
  quarantine: 'blue',
  stale: 'amber',
  false: 'slate',
  expired: 'red',
  expiring: 'amber',
  revoked: 'slate',
  unchecked: 'slate',
  pending: 'blue',
}
const toneOf = (section: string, key: string): Tone => (section === 'failed_job' ? 'red' : section === 'auto_renew_off' || section === 'failed_renewal' ? 'amber' : (SAFE[key] ?? RISK[key] ?? 'blue'))

/** The amounts of a figure in the reader's locale, one per currency. */
export const amountsText = (figure: Pick<Figure, 'amounts'>, language: string) => (figure.amounts ?? []).map((a) => formatMoney(a.minor, a.currency, language)).join(' + ')

/**
 * A figure report's sections: a card each with its chart (on screen and on paper) and its table,
 * each figure a link to the list filtered to exactly what it counts (common/reports.ts
 * `figureTarget`). The forecast's figures carry their amounts beside the count.
 */
export function SectionFigures({ kind, report, charts }: { kind: FigureReport; report: SectionsReport; charts: boolean }) {
  const { t, i18n } = useTranslation('reports')
  const href = useContextHref()
  const format = (n: number) => n.toLocaleString(i18n.language)
  // The forecast's renewals and the operations' settled charges carry their amounts.
  const priced = (section: string) => (kind === 'renewals-forecast' && section !== 'tag') || (kind === 'operations' && section === 'revenue_month')
  return (
    <div className="grid items-start gap-4 lg:grid-cols-2 print:block print:space-y-4">
      {report.sections.map((section) => {
        const overTime = OVER_TIME.has(section.key)
        const bars: Bar[] = section.figures.map((f) => ({ key: f.key, label: figureLabel(t, i18n.language, kind, section.key, f.key, f.label), value: f.count }))
        const title = t(`${kind}.section.${section.key}`)
        // A tag's renewals overlap (a domain carries several tags): they are counted, not priced.
        const money = priced(section.key)
        return (
          <Card key={section.key} data-testid={`report-section-${section.key}`} className={`break-inside-avoid ${overTime ? 'lg:col-span-2' : ''}`}>
            <CardTitle className="text-base">{title}</CardTitle>
            <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">{t(`${kind}.hint.${section.key}`, { defaultValue: '' })}</p>
            {section.figures.length === 0 ? (
              <p className="text-sm text-slate-500">{t('sections.empty')}</p>
            ) : (
              <>
                {charts ? (
                  overTime ? (
                    <ColumnChart bars={bars} title={title} format={format} tone={() => toneOf(section.key, '')} testId={`report-chart-${section.key}`} />
                  ) : (
                    <BarChart bars={bars.slice(0, 12)} title={title} format={format} tone={(bar) => toneOf(section.key, bar.key)} testId={`report-chart-${section.key}`} />
                  )
                ) : null}
                <table className="data-grid mt-3 w-full text-sm">
                  <thead>
                    <tr>
                      <th className="text-left">{t('domains.columns.figure')}</th>
                      <th className="text-right">{t(`${kind}.counts.${section.key}`, { defaultValue: t(`${kind}.count`) })}</th>
                      {money ? <th className="text-right">{t(`${kind}.amount`)}</th> : null}
                    </tr>
                  </thead>
                  <tbody>
                    {section.figures.map((figure, i) => {
                      const to = figureHref(kind, report, section.key, figure.key)
                      return (
                        <tr key={figure.key}>
                          <td>{bars[i]!.label}</td>
                          <td className="text-right tabular-nums">
                            {to ? (
                              <Link to={href(to)} data-row-link data-testid={`figure-${section.key}-${figure.key}`}>
                                {format(figure.count)}
                              </Link>
                            ) : (
                              format(figure.count)
                            )}
                          </td>
                          {money ? <td className="text-right tabular-nums">{amountsText(figure, i18n.language) || (figure.count ? t('renewals-forecast.noPrice') : '')}</td> : null}
                        </tr>
                      )
                    })}
                  </tbody>
                </table>
              </>
            )}
          </Card>
        )
      })}
    </div>
  )
}

/** The SSL report's gap: hosted names answering an address without a valid certificate of ours. */
export function CoverageGap({ gap }: { gap: NonNullable<SectionsReport['gap']> }) {
  const { t, i18n } = useTranslation('reports')
  return (
    <Card data-testid="report-ssl-gap" className="break-inside-avoid">
      <CardTitle className="text-base">{t('ssls.gap.title')}</CardTitle>
      <p className="text-sm text-slate-600 dark:text-slate-400">{t('ssls.gap.hint', { count: gap.count, formatted: gap.count.toLocaleString(i18n.language) })}</p>
      {gap.named.length ? (
        <ul className="mt-2 columns-1 font-mono text-xs sm:columns-2 lg:columns-3">
          {gap.named.map((name) => (
            <li key={name} className="break-all py-0.5">
              {name}
            </li>
          ))}
        </ul>
      ) : null}
      {gap.count > gap.named.length ? <p className="mt-2 text-xs text-slate-500">{t('ssls.gap.more', { shown: gap.named.length })}</p> : null}
    </Card>
  )
}
