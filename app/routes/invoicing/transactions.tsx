import { data, Link } from 'react-router'
import { PageHeader } from '#app/components/page-header.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { transactionsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { billingScreen } from './billing.server.ts'
import { TransactionTable } from './billing.tsx'
import type { Route } from './+types/transactions.ts'

/** /invoicing/transactions: every charge (staff: of every account; a client: its own), with the list engine's filters and CSV. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await billingScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, transactionsList, screen.groupContext)
  const t = getInstance(context).t
  return data({ page, meta: pageMeta(request, context, t('billing:transactions.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Transactions({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('billing')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('transactions.title')}
        breadcrumb={[{ to: '/invoicing', label: t('common:nav.invoicing') }]}
        description={t('transactions.intro')}
        actions={
          <Link className="text-sm text-blue-700 hover:underline dark:text-blue-400" to={href('/invoicing/transactions/log')}>
            {t('transactions.allLog')}
          </Link>
        }
      />
      <TransactionTable def={transactionsList} page={loaderData.page} />
    </div>
  )
}
