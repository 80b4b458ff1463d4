import { useTranslation } from '#app/lib/use-translation.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { data } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { reconciliationDifferencesList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/reconciliation.ts'
import { domainScreen } from './shared.server.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, reconciliationDifferencesList, screen.groupContext)
  const t = getInstance(context).getFixedT(null, 'domains')
  return data({ page, meta: pageMeta(request, context, t('reconciliation.title'), t('reconciliation.description')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/**
 * Every open difference between our records and the registry across the portfolio (the
 * reconciliation job's findings), so that a wrong expiry date is never silent. Each row links to
 * the domain, whose overview shows the same differences.
 */
export default function ReconciliationDifferences({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('domains')
  const href = useContextHref()
  const def = reconciliationDifferencesList
  const { page } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('list.title'), to: '/domains' }]} title={t('reconciliation.title')} />
      <DataTable
        def={def}
        page={page}
        empty={<span data-testid="reconciliation-empty">{t('reconciliation.empty')}</span>}
        labels={(key) => (key === 'domain_name' ? t('fields.name') : key === 'detected_at' ? t('reconciliation.detected_at') : t(`detail.${key}`, { defaultValue: key }))}
        renderCell={(row, key) => {
          const value = row[key]
          if (key === 'domain_name') return <RowLink to={href(`/domains/${String(row.domain_id)}`)}>{String(value ?? '')}</RowLink>
          if (key === 'detected_at') return value ? <time dateTime={String(value)}>{formatDateTime(String(value), i18n.language)}</time> : ''
          if (key === 'ours' || key === 'registry') return <span className="break-all font-mono text-xs">{String(value ?? '')}</span>
          return String(value ?? '')
        }}
      />
    </div>
  )
}
