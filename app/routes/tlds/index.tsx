import { useTranslation } from '#app/lib/use-translation.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { data } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { tldsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { formatMoney } from '#common/money.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useColumnLabels, yesNo } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/index.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, tldsList, activeContext(requestUrl(request), user.group_id))
  const t = getInstance(context).t
  return data({ page, meta: pageMeta(request, context, t('directory:tlds.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Tlds({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const labels = useColumnLabels('tlds')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <PageHeader title={t('tlds.title')} />
      <DataTable
        def={tldsList}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'name')
            return (
              <RowLink className="font-mono" to={href(`/tlds/${String(row.id)}`)}>
                .{String(row.name)}
              </RowLink>
            )
          if (key === 'unicode_name') return row.unicode_name && row.unicode_name !== row.name ? `.${String(row.unicode_name)}` : ''
          if (key === 'kind') return t(`tlds.kinds.${String(row.kind)}`, { defaultValue: String(row.kind) })
          if (['is_offered', 'dnssec', 'idn', 'registry_lock'].includes(key)) return yesNo(t, row[key])
          if (key === 'list_price_minor')
            return row.list_price_minor === null || row.list_price_minor === undefined ? '—' : formatMoney(Number(row.list_price_minor), String(row.currency ?? 'EUR'), i18n.language)
          return undefined
        }}
      />
    </div>
  )
}
