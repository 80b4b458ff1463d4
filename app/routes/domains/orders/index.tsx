import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { domainOrdersList } from '#app/routes/domains/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { domainScreen } from '../shared.server.ts'
import type { Route } from './+types/index.ts'
import { useOrderCell } from './order-cell.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, domainOrdersList, screen.groupContext)
  const t = getInstance(context).getFixedT(null, 'orders')
  return data({ page, canManage: screen.canManage, meta: pageMeta(request, context, t('list.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** /domains/orders: the account's orders through the one list mechanism. */
export default function OrdersList({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('orders')
  const { t: tDomains } = useTranslation('domains')
  const orderCell = useOrderCell()
  const def = domainOrdersList
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
      <DataTable def={def} page={loaderData.page} labels={(key) => t(`fields.${key}`, { defaultValue: key })} rowLabel={def.rowLabel} renderCell={orderCell} />
    </div>
  )
}
