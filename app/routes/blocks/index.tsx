import { data, Outlet, useLocation } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { canChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { BlockState } from '#common/blocks.ts'
import { isStaffInContext } from '#common/permissions.ts'
import { blocksList } from './lists.ts'
import { BlockStatus } from './shared.tsx'
import type { Route } from './+types/index.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const [{ page, headers }, offers] = await Promise.all([
    loadListPage(request, context, blocksList, groupContext),
    platform.get('/groups/{context}/block-products', { path: { context: groupContext } }),
  ])
  const t = getInstance(context).t
  // Staff in their own group act for no account: they see every block, and order in a client's context.
  const ordering = canChange(request, user, 'domain-manager') && !isStaffInContext(user, groupContext)
  return data({ page, offers: offers.data, canOrder: ordering, meta: pageMeta(request, context, t('blocks:title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function BlocksList({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('blocks')
  const href = useContextHref()
  const { search } = useLocation()
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          loaderData.canOrder ? (
            // Ordering is a sheet over the list (/blocks/order).
            <HeaderAction to={`/blocks/order${search}`} primary preventScrollReset data-testid="block-order-open">
              {t('order.title')}
            </HeaderAction>
          ) : null
        }
      />
      <DataTable
        def={blocksList}
        page={loaderData.page}
        labels={(key) => t(`fields.${key.replace('.', '_')}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'label_unicode' || key === 'label') return <RowLink to={href(`/blocks/${String(row.id)}`)}>{String(row[key] ?? '')}</RowLink>
          if (key === 'status') return <BlockStatus status={row.status as BlockState} />
          if (key === 'product_code') return loaderData.offers.find((o) => o.code === row.product_code)?.name ?? String(row.product_code ?? '')
          if (key === 'period_years') return t('years', { count: Number(row.period_years) })
          if (key === 'expires_at' || key === 'created_at' || key === 'updated_at') return row[key] ? <DateText value={String(row[key])} lng={i18n.language} /> : '—'
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          return undefined
        }}
      />
      <Outlet />
    </div>
  )
}
