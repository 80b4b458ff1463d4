import { data } from 'react-router'
import { changesText } from '#app/lib/audit-changes.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/print.ts'
import { DomainFigures } from './domains-view.tsx'
import { reportDnsRecordsList, REPORT_LISTS } from './lists.ts'
import { ReportStamp } from './parts.tsx'
import { accountChoices, figureReportOf, listPages, loadDomainsReport, loadSectionsReport, reportScreen } from './report.server.ts'
import { CoverageGap, SectionFigures } from './sections-view.tsx'

/** A cell of a list row by its field (`zone.name` is nested, as the list engine answers it). */
export const valueAt = (row: Record<string, unknown>, key: string): unknown =>
  key.split('.').reduce<unknown>((v, part) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined), row)

/**
 * /reports/<report>/print: the report in the clean layout (no navigation) for paper, A4 or Letter
 * alike (the page box is the printer's): the title, filters and generated-at head every printed
 * page (a table header group repeats), tables break between rows with their header repeated, and
 * the page number is in the page's margin.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const t = getInstance(context).getFixedT(null, 'reports')
  const report = requestUrl(request).pathname.split('/')[2]
  const figureKind = figureReportOf(requestUrl(request))
  if (figureKind) {
    const screen = await loadSectionsReport(request, context, figureKind)
    const def = REPORT_LISTS[figureKind]
    const [list, choices] = await Promise.all([def ? listPages(screen.platform, def, screen.group, screen.url) : null, accountChoices(request, context, screen.user, screen.group)])
    const pql = screen.url.searchParams.get('pql')
    return {
      kind: figureKind,
      title: t(`${figureKind}.title`),
      figures: null,
      sections: screen.report,
      account: choices?.acting ?? null,
      records: list ? { columns: list.columns, rows: list.first.data, total: list.first.meta.total, pql, generatedAt: screen.report.generated_at } : null,
      meta: pageMeta(request, context, t(`${figureKind}.title`)),
    }
  }
  if (report === 'domains') {
    const { report: figures, user, group } = await loadDomainsReport(request, context)
    const account = (await accountChoices(request, context, user, group))?.acting ?? null
    return { kind: 'domains' as const, title: t('domains.title'), figures, sections: null, account, records: null, meta: pageMeta(request, context, t('domains.title')) }
  }
  if (report === 'dns-records') {
    const screen = await reportScreen(request, context, 'dns-viewer')
    const [{ first, columns }, choices] = await Promise.all([listPages(screen.platform, reportDnsRecordsList, screen.group, screen.url), accountChoices(request, context, screen.user, screen.group)])
    const pql = screen.url.searchParams.get('pql')
    return {
      kind: 'dns-records' as const,
      title: t('dnsRecords.title'),
      figures: null,
      sections: null,
      account: choices?.acting ?? null,
      records: { columns, rows: first.data, total: first.meta.total, pql, generatedAt: new Date().toISOString() },
      meta: pageMeta(request, context, t('dnsRecords.title')),
    }
  }
  throw data('Page Not Found', { status: 404 })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

// Paper: the printer's page size (A4 or Letter), a number on every page, rows never cut.
const PRINT_CSS = `
@page { size: auto; margin: 14mm 12mm 16mm; @bottom-right { content: counter(page) " / " counter(pages); font: 9pt sans-serif; color: #475569; } }
@media print {
  html, body { background: #fff !important; color: #0f172a !important; }
  .report-print thead { display: table-header-group; }
  .report-print tr, .report-print section { break-inside: avoid; }
  .report-print a { color: inherit; text-decoration: none; }
}
`

export default function ReportPrint({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('reports')
  const dns = useTranslation('dns')
  const common = useTranslation('common')
  const { kind, title, figures, sections, records, account } = loaderData
  const label = (c: string) =>
    kind === 'dns' ? t(`dns.fields.${c}`, { defaultValue: c }) : kind === 'portfolio-activity' ? common.t(`audit.${c}`, { defaultValue: c }) : dns.t(`fields.${c}`, { defaultValue: c })
  const stamp = figures ? (
    <ReportStamp tag={figures.filters.tag} generatedAt={figures.generated_at} account={account} />
  ) : sections ? (
    <ReportStamp
      tag={sections.filters.tag}
      generatedAt={sections.generated_at}
      account={account}
      extra={[
        sections.filters.days && kind === 'portfolio-activity' ? `${t('filters.days')} = ${t('filters.daysChoice', { count: sections.filters.days })}` : null,
        sections.filters.months && kind === 'renewals-forecast' ? `${t('filters.months')} = ${t('filters.monthsChoice', { count: sections.filters.months })}` : null,
        records?.pql ?? null,
      ]}
    />
  ) : (
    <p className="text-sm text-slate-600" data-testid="report-stamp">
      {t('print.filters')}: {[account ? `${t('filters.account')} = ${account}` : null, records?.pql].filter(Boolean).join(', ') || t('filters.none')} ·{' '}
      {t('generatedAt', { at: formatDateTime(records!.generatedAt, i18n.language) })}
    </p>
  )
  return (
    <div className="report-print" data-testid="report-print">
      <style>{PRINT_CSS}</style>
      {/* One outer table: its header group (title, filters, generated-at) repeats at the top of every printed page. */}
      <table className="w-full">
        <thead>
          <tr>
            <td className="pb-3">
              <h1 className="text-xl font-semibold">{title}</h1>
              {stamp}
            </td>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>
              {figures ? (
                <div className="space-y-4">
                  <p className="text-lg font-semibold" data-testid="report-total">
                    {t('domains.total', { count: figures.total, formatted: figures.total.toLocaleString(i18n.language) })}
                  </p>
                  <DomainFigures report={figures} charts />
                </div>
              ) : null}
              {sections ? (
                <div className="space-y-4">
                  <p className="text-lg font-semibold" data-testid="report-total">
                    {sections.total.toLocaleString(i18n.language)} {t(`${kind}.totalLabel`, { count: sections.filters.days ?? sections.filters.months ?? 0 })}
                  </p>
                  {sections.gap ? <CoverageGap gap={sections.gap} /> : null}
                  <SectionFigures kind={kind} report={sections} charts />
                </div>
              ) : null}
              {records ? (
                <div className="mt-4 space-y-2">
                  <p className="font-semibold" data-testid={sections ? 'report-list-total' : 'report-total'}>
                    {kind === 'dns-records'
                      ? t('dnsRecords.total', { count: records.total, formatted: records.total.toLocaleString(i18n.language) })
                      : `${t(`${kind}.listTitle`)}: ${records.total.toLocaleString(i18n.language)}`}
                  </p>
                  {records.total > records.rows.length ? <p className="text-sm text-slate-600">{t('print.firstRows', { shown: records.rows.length, total: records.total })}</p> : null}
                  <table className="w-full border-collapse text-xs">
                    <thead>
                      <tr className="border-b border-slate-300">
                        {records.columns.map((c) => (
                          <th key={c} className="px-1 py-1 text-left">
                            {label(c)}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {records.rows.map((row, i) => (
                        <tr key={String(row.id ?? i)} className="border-b border-slate-100">
                          {records.columns.map((c) => (
                            <td
                              key={c}
                              className={
                                c === 'content' || c === 'name' || c === 'zone.name' || c === 'changes'
                                  ? 'break-all px-1 py-0.5 align-top font-mono'
                                  : 'whitespace-nowrap px-1 py-0.5 align-top font-mono'
                              }
                            >
                              {c === 'updated_at' || c === 'created_at'
                                ? formatDateTime(String(valueAt(row, c)), i18n.language)
                                : c === 'changes'
                                  ? changesText(valueAt(row, c), { max: 6 })
                                  : String(valueAt(row, c) ?? '')}
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              ) : null}
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  )
}
