import { data, Link } from 'react-router'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { domainTransactionsList } from '#app/routes/invoicing/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { canChange } from '#app/lib/guards.server.ts'
import { TransactionTable } from '../invoicing/billing.tsx'
import { loadCertificate } from './detail.server.ts'
import { SslHeader } from './shared.tsx'
import type { Route } from './+types/transactions.ts'

/** No transaction has this id: the list of a term never charged is the empty list, not every transaction. */
const NONE = '00000000-0000-0000-0000-000000000000'

/** The transactions list (the domain tab's) narrowed to the charges of one coverage term. */
function termTransactions(ids: string[]): ListDefinition {
  const base = domainTransactionsList
  return { ...base, fixedFilters: [{ field: 'id', operator: 'equals', values: ids.length ? ids : [NONE] }] }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user, groupContext, certificate } = await loadCertificate(request, context, params)
  const t = getInstance(context).t
  const meta = pageMeta(request, context, t('ssl:tabs.transactions'))
  // Charges are the invoice viewer's to see; an SSL manager without it is told so, not refused the certificate.
  if (!canChange(request, user, 'invoice-viewer')) return data({ certificate, page: null, meta })
  const { page, headers } = await loadListPage(request, context, termTransactions(certificate.term.transaction_ids), groupContext)
  return data({ certificate, page, meta }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** /ssls/{id}/transactions: what the certificate's coverage term was charged (its order, the renewals of the term). */
export default function SslTransactions({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('ssl')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <SslHeader certificate={loaderData.certificate} current="transactions" />
      <section aria-labelledby="ssl-transactions-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div>
            <h2 id="ssl-transactions-heading" className="text-lg font-semibold">
              {t('transactions.title')}
            </h2>
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('transactions.intro')}</p>
          </div>
          <Link className="text-sm underline" to={href('/invoicing/transactions')}>
            {t('billing:transactions.all')}
          </Link>
        </div>
        {loaderData.page ? <TransactionTable def={domainTransactionsList} page={loaderData.page} /> : <p className="text-sm text-slate-500">{t('billing:transactions.noAccess')}</p>}
      </section>
    </div>
  )
}
