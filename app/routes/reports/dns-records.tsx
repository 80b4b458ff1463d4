import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { dnsRecordCell } from '#app/routes/domains/dns/record-cells.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/dns-records.ts'
import { reportDnsRecordsList } from './lists.ts'
import { ReportActions, searchOf } from './parts.tsx'
import { reportScreen } from './report.server.ts'

/** The list's own parameters the exports and the print view carry (the report's filters are the list's). */
const LIST_PARAMS = ['pql', 'sort', 'fields'] as const

/** /reports/dns-records: every record of every zone in scope, filtered by type, name and value through the list engine (issue 29). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const screen = await reportScreen(request, context, 'dns-viewer')
  const { page, headers } = await loadListPage(request, context, reportDnsRecordsList, screen.group)
  const t = getInstance(context).getFixedT(null, 'reports')
  const query = searchOf(Object.fromEntries(LIST_PARAMS.map((k) => [k, screen.url.searchParams.get(k)])))
  return data({ page, query, meta: pageMeta(request, context, t('dnsRecords.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function DnsRecordsReport({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('reports')
  const dns = useTranslation('dns')
  const href = useContextHref()
  const { page, query } = loaderData
  const def = reportDnsRecordsList
  return (
    <div className="space-y-4" data-testid="report-dns-records">
      <PageHeader title={t('dnsRecords.title')} breadcrumb={[{ label: t('title'), to: '/reports' }]} actions={<ReportActions report="dns-records" query={query} />} />
      <Card className="flex flex-wrap items-baseline gap-4">
        <span className="text-3xl font-semibold tabular-nums" data-testid="report-total">
          {page.meta.total.toLocaleString(i18n.language)}
        </span>
        <span className="text-slate-600 dark:text-slate-400">{t('dnsRecords.totalLabel')}</span>
        <p className="w-full text-sm text-slate-500">{t('dnsRecords.hint')}</p>
      </Card>
      <DataTable
        def={def}
        page={page}
        labels={(key) => dns.t(`fields.${key}`, { defaultValue: key })}
        rowLabel={def.rowLabel}
        renderCell={(row, key) => dnsRecordCell(row, key, href, i18n.language) ?? String(row[key] ?? '')}
      />
    </div>
  )
}
