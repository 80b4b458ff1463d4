import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS, type ListDefinition } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Filter } from '#common/pql.ts'
import { requireChange } from '#app/lib/guards.server.ts'
import { billingScreen, loadEntity } from './billing.server.ts'
import { EntityTabs, TransactionTabs, type Transaction } from './billing.tsx'
import type { Route } from './+types/billing-log.ts'

/**
 * The /log screens of billing: a billing entity's (staff: its payments, limits, accounts and
 * edits), one transaction's (reserved, settled, released, refunded) and every transaction's
 * (/invoicing/transactions/log). The invoicing trail fixed by the route; the entity is read first,
 * so an unknown or foreign one is a 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await billingScreen(request, context, params)
  const t = getInstance(context).t
  const path = screen.url.pathname
  let fixed: Filter[]
  let title: string
  let tabs: { kind: 'entity' | 'transaction'; id: string } | null = null
  let breadcrumb = [{ to: '/invoicing', label: t('common:nav.invoicing') }]
  // The trail of the account a transaction belongs to (staff read it from their own group too).
  let trailContext = screen.groupContext
  let hint: string | null = null
  if (path.startsWith('/invoicing/billing-entities/')) {
    requireChange(request, screen.user, 'staff')
    const entity = await loadEntity(screen, params.id)
    fixed = [
      { field: 'entity_type', operator: 'equals', values: ['billing-entity'] },
      { field: 'entity_id', operator: 'equals', values: [entity.id] },
    ]
    title = t('billing:entities.logOf', { name: entity.name })
    tabs = { kind: 'entity', id: entity.id }
    breadcrumb = [...breadcrumb, { to: '/invoicing/billing-entities', label: t('billing:entities.title') }]
  } else if (params.id) {
    const transaction = await screen.platform.get<Transaction>(`${screen.base}/transactions/${params.id}`)
    fixed = [
      { field: 'entity_type', operator: 'equals', values: ['transaction'] },
      { field: 'entity_id', operator: 'equals', values: [transaction.id] },
    ]
    title = t('billing:transactions.logOf')
    tabs = { kind: 'transaction', id: transaction.id }
    if (screen.staff) trailContext = transaction.account_id
    breadcrumb = [...breadcrumb, { to: '/invoicing/transactions', label: t('billing:transactions.title') }]
  } else {
    fixed = [{ field: 'entity_type', operator: 'equals', values: ['transaction'] }]
    title = t('billing:transactions.allLog')
    if (screen.staff) hint = t('billing:transactions.staffLog')
    breadcrumb = [...breadcrumb, { to: '/invoicing/transactions', label: t('billing:transactions.title') }]
  }
  const base = LISTS['billing-log']!
  const def: ListDefinition = { ...base, fixedFilters: [...base.fixedFilters, ...fixed] }
  const { page, headers } = await loadListPage(request, context, def, trailContext)
  return data({ page, title, hint, tabs, breadcrumb, staff: screen.staff, fixedFilters: def.fixedFilters, meta: pageMeta(request, context, title) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** What a change did, in a line: each field before → after. */
function changesText(changes: unknown): string {
  if (!changes || typeof changes !== 'object') return ''
  const { before, after } = changes as { before?: Record<string, unknown>; after?: Record<string, unknown> }
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((k) => !['version', 'updated_at', 'created_at', 'id'].includes(k))
  return keys.map((k) => (before && k in before ? `${k}: ${JSON.stringify(before[k])} → ${JSON.stringify(after?.[k] ?? null)}` : `${k}: ${JSON.stringify(after?.[k] ?? null)}`)).join('; ')
}

export default function BillingLog({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('common')
  const def = { ...LISTS['billing-log']!, fixedFilters: loaderData.fixedFilters }
  const { tabs } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader title={loaderData.title} breadcrumb={loaderData.breadcrumb} description={loaderData.hint} />
      {tabs?.kind === 'entity' ? <EntityTabs id={tabs.id} current="log" staff={loaderData.staff} /> : tabs?.kind === 'transaction' ? <TransactionTabs id={tabs.id} current="log" /> : null}
      <DataTable
        def={def}
        page={loaderData.page}
        labels={(key) => t(`audit.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'created_at') return <time dateTime={String(row.created_at)}>{formatDateTime(String(row.created_at), i18n.language)}</time>
          if (key === 'changes')
            return (
              <span className="line-clamp-4 max-w-2xl break-all font-mono text-xs" data-testid="log-changes">
                {changesText(row.changes)}
              </span>
            )
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}
