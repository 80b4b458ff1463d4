import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { domainScreen } from '../shared.server.ts'
import type { Route } from './+types/index.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, LISTS['domain-orders']!, screen.groupContext)
  const t = getInstance(context).getFixedT(null, 'orders')
  return data({ page, canManage: screen.canManage, meta: pageMeta(request, context, t('list.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** /domains/orders: the account's orders through the one list mechanism. */
export default function OrdersList({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('orders')
  const { t: tDomains } = useTranslation('domains')
  const href = useContextHref()
  const def = LISTS['domain-orders']!
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[{ label: tDomains('list.title'), to: '/domains' }]}
        title={t('list.title')}
        actions={
          loaderData.canManage ? (
            <HeaderAction to="/domains/order" primary>
              {t('list.newOrder')}
            </HeaderAction>
          ) : null
        }
      />
      <DataTable
        def={def}
        page={loaderData.page}
        labels={(key) => t(`fields.${key}`, { defaultValue: key })}
        rowLabel={def.rowLabel}
        renderCell={(row, key) => {
          const value = row[key]
          if (key === 'created_at') {
            return (
              <RowLink to={href(`/domains/orders/${String(row.id)}`)}>
                <time dateTime={String(value)}>{formatDateTime(String(value), i18n.language)}</time>
              </RowLink>
            )
          }
          if (key === 'state') return <StatusBadge kind="order" code={String(value)} />
          if (key === 'names') return <span className="line-clamp-2 max-w-md break-all">{String(value ?? '')}</span>
          return String(value ?? '')
        }}
      />
    </div>
  )
}
