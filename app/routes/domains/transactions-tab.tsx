import { data, Link } from 'react-router'
import { loadListPage } from '#app/lib/list-page.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { domainTransactionsList } from '#app/routes/invoicing/lists.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { canChange } from '#app/lib/guards.server.ts'
import { TransactionTable } from '../invoicing/billing.tsx'
import type { Route } from './+types/transactions-tab.ts'
import { domainScreen } from './shared.server.ts'

/** The transactions list narrowed to one domain. */
function domainTransactions(domainId: string): ListDefinition {
  const base = domainTransactionsList
  return { ...base, fixedFilters: [{ field: 'domain_id', operator: 'equals', values: [domainId] }] }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  // Another account's id answers 404 here as in the frame.
  const domain = await screen.platform.get('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: params.id } })
  // Charges are the invoice viewer's to see; a domain manager without it is told so, not refused the domain.
  if (!canChange(request, screen.user, 'invoice-viewer')) return data({ page: null })
  const def = domainTransactions(domain.id)
  const { page, headers } = await loadListPage(request, context, def, screen.groupContext)
  return data({ page }, { headers })
}

/** /domains/{id}/transactions: every charge for this domain (registration, transfer, renewals, refunds). */
export default function DomainTransactionsTab({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('billing')
  const href = useContextHref()
  return (
    <section aria-labelledby="domain-transactions-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="domain-transactions-heading" className="text-lg font-semibold">
          {t('transactions.domainTitle')}
        </h2>
        <Link className="text-sm underline" to={href('/invoicing/transactions')}>
          {t('transactions.all')}
        </Link>
      </div>
      {loaderData.page ? <TransactionTable def={domainTransactionsList} page={loaderData.page} /> : <p className="text-sm text-slate-500">{t('transactions.noAccess')}</p>}
    </section>
  )
}
