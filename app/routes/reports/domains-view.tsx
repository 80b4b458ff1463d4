import { Link } from 'react-router'
import { BarChart, type Bar, type Tone } from '#app/components/charts.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import type { Answer } from '#app/lib/platform-api.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { printPql } from '#common/pql.ts'
import { DOMAIN_DIMENSIONS, domainFigureFilters, type DomainDimension } from '#common/reports.ts'

export type DomainsReport = Answer<'/groups/{context}/reports/domains'>

/** The domain list showing exactly the domains one figure counts (its pql in the URL). */
export const figureHref = (report: DomainsReport, dimension: DomainDimension, key: string) =>
  `/domains?${new URLSearchParams({ pql: printPql(domainFigureFilters(dimension, key, report.today, report.filters)) })}`

/** The whole report's domains as the domain list shows them (the tag filter only). */
export const totalHref = (report: DomainsReport) =>
  report.filters.tag ? `/domains?${new URLSearchParams({ pql: printPql(domainFigureFilters('tag', report.filters.tag, report.today, { tag: null })) })}` : '/domains'

const STATUS_TONE: Record<string, Tone> = { active: 'green', pending: 'blue', transferring: 'blue', expired: 'red', redemption: 'red', 'pending-delete': 'amber' }
const BUCKET_TONE: Record<string, Tone> = { past: 'red', d30: 'red', d60: 'amber', d90: 'amber', d365: 'blue', later: 'green' }

/** The words of one figure: a status, a yes/no of a lock, an expiry bucket, or the TLD or tag itself. */
export function useFigureLabel() {
  const { t } = useTranslation('reports')
  return (dimension: DomainDimension, key: string) => {
    switch (dimension) {
      case 'status':
        return t(`common:status.domain.${key}`, { defaultValue: key })
      case 'expiry':
        return t(`domains.bucket.${key}`, { defaultValue: key })
      case 'tld':
        return `.${key}`
      case 'tag':
        return key
      default:
        return t(`domains.bool.${dimension}.${key}`, { defaultValue: key })
    }
  }
}

function toneOf(dimension: DomainDimension, key: string): Tone {
  if (dimension === 'status') return STATUS_TONE[key] ?? 'slate'
  if (dimension === 'expiry') return BUCKET_TONE[key] ?? 'slate'
  if (dimension === 'tld' || dimension === 'tag') return 'blue'
  // A lock, auto-renew or DNSSEC on is the safe side.
  return key === 'true' ? 'green' : 'slate'
}

/**
 * The domains report's figures: a card per dimension with its chart (on screen) and its table, each
 * figure a link to the domain list filtered to exactly the domains it counts.
 */
export function DomainFigures({ report, charts }: { report: DomainsReport; charts: boolean }) {
  const { t, i18n } = useTranslation('reports')
  const href = useContextHref()
  const label = useFigureLabel()
  const format = (n: number) => n.toLocaleString(i18n.language)
  return (
    <div className="grid gap-4 lg:grid-cols-2 print:block print:space-y-4">
      {DOMAIN_DIMENSIONS.map((dimension) => {
        const figures = report.by[dimension]
        const bars: Bar[] = figures.map((f) => ({ key: f.key, label: label(dimension, f.key), value: f.count, href: href(figureHref(report, dimension, f.key)) }))
        return (
          <Card key={dimension} data-testid={`report-dimension-${dimension}`} className="break-inside-avoid">
            <CardTitle className="text-base">{t(`domains.dimension.${dimension}`)}</CardTitle>
            {figures.length === 0 ? (
              <p className="text-sm text-slate-500">{dimension === 'tag' ? t('domains.noTags') : t('domains.empty')}</p>
            ) : (
              <>
                {charts ? (
                  <BarChart bars={bars.slice(0, 12)} title={t(`domains.dimension.${dimension}`)} format={format} tone={(bar) => toneOf(dimension, bar.key)} testId={`report-chart-${dimension}`} />
                ) : null}
                <table className="data-grid mt-3 w-full text-sm">
                  <thead>
                    <tr>
                      <th className="text-left">{t('domains.columns.figure')}</th>
                      <th className="text-right">{t('domains.columns.count')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {bars.map((bar) => (
                      <tr key={bar.key}>
                        <td>{bar.label}</td>
                        <td className="text-right tabular-nums">
                          <Link to={bar.href!} data-row-link data-testid={`figure-${dimension}-${bar.key}`}>
                            {format(bar.value)}
                          </Link>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </>
            )}
            {dimension === 'expiry' ? <p className="mt-2 text-xs text-slate-500">{t('domains.noExpiry')}</p> : null}
          </Card>
        )
      })}
    </div>
  )
}
