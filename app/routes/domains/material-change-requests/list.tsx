import { useTranslation } from '#app/lib/use-translation.ts'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { data } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { materialChangeRequestsList } from '#app/routes/domains/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/list.ts'
import { DateText } from '#app/components/date-text.tsx'

const MATERIAL_LIST = materialChangeRequestsList

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, MATERIAL_LIST, activeContext(requestUrl(request), user.group_id))
  return data({ page, meta: pageMeta(request, context, getInstance(context).getFixedT(null, 'material')('list.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function MaterialRequests({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('material')
  const { t: tDomains } = useTranslation('domains')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: tDomains('list.title'), to: '/domains' }]} title={t('list.title')} />
      <DataTable
        def={MATERIAL_LIST}
        page={loaderData.page}
        labels={(key) => t(`columns.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'domain_name') return <RowLink to={href(`/domains/material-change-requests/${String(row.id)}`)}>{String(row.domain_name)}</RowLink>
          if (key === 'state') return <StatusBadge kind="approval" code={String(row.state)} />
          if (key === 'created_at') return <DateText value={row[key] as string} lng={i18n.language} time />
          if (key === 'expires_at') return <DateText value={row[key] as string} lng={i18n.language} />
          return undefined
        }}
      />
    </div>
  )
}
