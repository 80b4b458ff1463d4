import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Link } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { loadListPage } from '#app/lib/list-page.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { domainTabOrdersList } from './lists.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/orders-tab.ts'
import { domainScreen } from './shared.server.ts'
import { useOrderCell } from './orders/order-cell.tsx'

/** The orders list narrowed to the orders with an item for this domain (exact ASCII name). */
function domainOrders(name: string): ListDefinition {
  const base = domainTabOrdersList
  return { ...base, fixedFilters: [{ field: 'item_name', operator: 'equals', values: [name] }] }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  // Another account's id answers 404 here as in the frame.
  const domain = await screen.platform.get('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: params.id } })
  const { page, headers } = await loadListPage(request, context, domainOrders(domain.name), screen.groupContext)
  return data({ page }, { headers })
}

/** /domains/{id}/orders: every order that registered, transferred or renewed this domain. */
export default function DomainOrdersTab({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('orders')
  const { t: td } = useTranslation('domains')
  const href = useContextHref()
  const orderCell = useOrderCell()
  const def = domainTabOrdersList
  const { page } = loaderData
  return (
    <section aria-labelledby="domain-orders-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="domain-orders-heading" className="text-lg font-semibold">
          {td('ordersTab.title')}
        </h2>
        <Link className="text-sm underline" to={href('/domains/orders')}>
          {td('ordersTab.allOrders')}
        </Link>
      </div>
      {page.meta.total === 0 && page.errors.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="domain-orders-empty">
          {td('ordersTab.empty')}
        </p>
      ) : null}
      <DataTable def={def} page={page} labels={(key) => t(`fields.${key}`, { defaultValue: key })} renderCell={orderCell} />
    </section>
  )
}
