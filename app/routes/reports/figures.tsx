import { Link } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { changesText } from '#app/lib/audit-changes.ts'
import { rowAccountHref } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { ACTIVITY_PERIODS, FORECAST_HORIZONS, type FigureReport } from '#common/reports.ts'
import { formatMoney } from '#common/money.ts'
import { REPORT_LISTS } from './lists.ts'
import type { Route } from './+types/figures.ts'
import { ReportActions, ReportStamp, searchOf, SubscribeForm, TagFilter } from './parts.tsx'
import { accountChoices, figureReportOf, loadSectionsReport } from './report.server.ts'
import { CoverageGap, SectionFigures, type SectionsReport } from './sections-view.tsx'

/** The list parameters a report with its own table carries to its exports and print view. */
const LIST_PARAMS = ['pql', 'sort', 'fields'] as const

/**
 * /reports/dns, /reports/ssls, /reports/renewals-forecast, /reports/portfolio-activity: one module
 * (issue 29), the report in the path — its headline, its sections of figures (charts drawn on the
 * server, each figure a link to the list it counts) and, for the DNS report's zones and the
 * activity's entries, the list itself below, filtered by the figure followed.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const kind = figureReportOf(requestUrl(request))!
  const { report, user, group, url } = await loadSectionsReport(request, context, kind)
  const def = REPORT_LISTS[kind]
  const [list, accounts] = await Promise.all([def ? loadListPage(request, context, def, group) : null, accountChoices(request, context, user, group)])
  const t = getInstance(context).getFixedT(null, 'reports')
  const query = searchOf({
    tag: report.filters.tag,
    days: kind === 'portfolio-activity' ? String(report.filters.days) : null,
    months: kind === 'renewals-forecast' ? String(report.filters.months) : null,
    ...Object.fromEntries(LIST_PARAMS.map((k) => [k, url.searchParams.get(k)])),
  })
  return { kind, report, accounts, page: list?.page ?? null, query, meta: pageMeta(request, context, t(`${kind}.title`)) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** What a figure report says beside its total: the forecast's sums per currency and what has no price. */
function Headline({ kind, report }: { kind: FigureReport; report: SectionsReport }) {
  const { t, i18n } = useTranslation('reports')
  return (
    <Card className="flex flex-wrap items-baseline gap-x-6 gap-y-2">
      <span className="text-3xl font-semibold tabular-nums" data-testid="report-total">
        {report.total.toLocaleString(i18n.language)}
      </span>
      <span className="text-slate-600 dark:text-slate-400">{t(`${kind}.totalLabel`, { count: report.filters.days ?? report.filters.months ?? 0 })}</span>
      {report.totals?.length ? (
        <span className="text-xl font-semibold tabular-nums" data-testid="report-amount">
          {report.totals.map((a) => formatMoney(a.minor, a.currency, i18n.language)).join(' + ')}
        </span>
      ) : null}
      {report.totals?.length && kind === 'operations' ? <span className="text-slate-600 dark:text-slate-400">{t('operations.totalsLabel', { count: report.filters.months ?? 12 })}</span> : null}
      {report.unpriced ? <Badge color="amber">{t('renewals-forecast.unpriced', { count: report.unpriced })}</Badge> : null}
      <p className="w-full text-sm text-slate-500">{t(`${kind}.description`)}</p>
    </Card>
  )
}

export default function FigureReportScreen({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('reports')
  const common = useTranslation('common')
  const href = useContextHref()
  const { kind, report, accounts, page, query } = loaderData
  const def = REPORT_LISTS[kind]
  const period =
    kind === 'portfolio-activity'
      ? { name: 'days' as const, value: report.filters.days ?? 30, choices: ACTIVITY_PERIODS }
      : kind === 'renewals-forecast'
        ? { name: 'months' as const, value: report.filters.months ?? 12, choices: FORECAST_HORIZONS }
        : null
  const showTag = kind === 'renewals-forecast'
  return (
    <div className="space-y-6" data-testid={`report-${kind}`}>
      <PageHeader title={t(`${kind}.title`)} breadcrumb={[{ label: t('title'), to: '/reports' }]} actions={<ReportActions report={kind} query={query} />} />
      {accounts || period || showTag ? (
        <TagFilter tag={report.filters.tag} suggestions={report.sections.find((s) => s.key === 'tag')?.figures.map((f) => f.key) ?? []} accounts={accounts} showTag={showTag} period={period} />
      ) : null}
      <ReportStamp
        tag={report.filters.tag}
        generatedAt={report.generated_at}
        account={accounts?.acting}
        extra={[period ? `${t(`filters.${period.name}`)} = ${t(`filters.${period.name}Choice`, { count: period.value })}` : null]}
      />
      <SubscribeForm
        report={kind}
        filters={{ tag: report.filters.tag, days: kind === 'portfolio-activity' ? report.filters.days : null, months: kind === 'renewals-forecast' ? report.filters.months : null }}
      />
      <Headline kind={kind} report={report} />
      {report.gap ? <CoverageGap gap={report.gap} /> : null}
      <SectionFigures kind={kind} report={report} charts />
      {def && page ? (
        <section className="space-y-2" data-testid="report-list">
          <h2 className="text-lg font-semibold">{t(`${kind}.listTitle`)}</h2>
          <DataTable
            def={def}
            page={page}
            labels={(key) => (kind === 'dns' ? t(`dns.fields.${key}`, { defaultValue: key }) : common.t(`audit.${key}`, { defaultValue: key }))}
            rowLabel={def.rowLabel}
            renderCell={(row, key) => {
              const value = row[key]
              if (key === 'name' && kind === 'dns') {
                return (
                  <Link to={rowAccountHref(`/domains/zones/${String(row.id)}`, row, href)} className="font-mono" data-row-link>
                    {String(value)}
                  </Link>
                )
              }
              if (key === 'changes') return <span className="line-clamp-2 max-w-md break-all font-mono text-xs">{changesText(value, { max: 6 })}</span>
              if (key === 'updated_at' || key === 'created_at') return typeof value === 'string' ? formatDateTime(value, i18n.language) : ''
              if (key === 'publish_state' || key === 'dnssec_state') return common.t(`status.${key === 'publish_state' ? 'publish' : 'dnssec'}.${String(value)}`, { defaultValue: String(value) })
              if (['drift', 'spf', 'dmarc', 'caa', 'mx'].includes(key)) return t(`dns.values.${key}.${String(value)}`, { defaultValue: String(value ?? '') })
              return undefined
            }}
          />
        </section>
      ) : null}
    </div>
  )
}
