import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Link } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { HeaderAction, HeaderMenu, HeaderMenuItem, PageHeader } from '#app/components/page-header.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { domainsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/list.ts'
import { domainScreen } from './shared.server.ts'
import { StatusBadge } from './shared.tsx'
import { DateText } from '#app/components/date-text.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, domainsList, screen.groupContext)
  const t = getInstance(context).getFixedT(null, 'domains')
  // The API stops counting at 10,000 rows and says so; the page must not pretend to be exact.
  const capped = (page.meta as { total_capped?: boolean }).total_capped === true
  // Differences the reconciliation found stay visible on the portfolio: never a silent wrong expiry.
  const differences = await screen.platform
    .get('/groups/{context}/domains/reconciliation-differences', { path: { context: screen.groupContext }, query: { limit: 1, fields: 'id' } })
    .then((r) => r.meta.total)
    .catch(() => 0)
  return data({ page, capped, differences, canManage: screen.canManage, meta: pageMeta(request, context, t('list.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** The portfolio: the one list mechanism over GET /groups/{context}/domains. */
export default function DomainsList({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('domains')
  const href = useContextHref()
  const def = domainsList
  const { page, capped } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('list.title')}
        actions={
          <>
            {/* One primary action; the rest behind "⋯" (issue 28, Look). */}
            <HeaderMenu>
              <HeaderMenuItem to="/domains/search">{t('search.title')}</HeaderMenuItem>
              {loaderData.canManage ? (
                <>
                  <HeaderMenuItem to="/domains/contacts">{t('contacts.title')}</HeaderMenuItem>
                  <HeaderMenuItem to="/domains/delete">{t('delete.title')}</HeaderMenuItem>
                </>
              ) : null}
              <HeaderMenuItem to="/domains/log">{t('list.log')}</HeaderMenuItem>
            </HeaderMenu>
            {loaderData.canManage ? (
              <HeaderAction to="/domains/add" primary>
                {t('add.title')}
              </HeaderAction>
            ) : null}
          </>
        }
      />
      {loaderData.differences > 0 ? (
        <Alert variant="error" data-testid="reconciliation-banner">
          {t('reconciliation.banner', { count: loaderData.differences })}{' '}
          <Link to={href('/domains/reconciliation')} className="underline">
            {t('reconciliation.show')}
          </Link>
        </Alert>
      ) : null}
      {capped ? (
        <p className="text-sm" data-testid="list-total-capped">
          {t('list.capped', { count: page.meta.total.toLocaleString(i18n.language) })}
        </p>
      ) : null}
      {/* When the count is capped, the table's exact-count line would be wrong: hide it. */}
      <div className={capped ? '[&_[data-testid=list-total]]:invisible' : undefined}>
        <DataTable
          def={def}
          page={page}
          labels={(key) => t(`fields.${key}`, { defaultValue: key })}
          rowLabel={def.rowLabel}
          valueLabel={(key, value) => (key === 'status' ? t(`status.${value}`, { defaultValue: value }) : value === 'true' ? t('yes') : value === 'false' ? t('no') : value)}
          renderCell={(row, key) => {
            const value = row[key]
            if (key === 'name')
              return (
                <RowLink to={href(`/domains/${String(row.id)}`)} data-testid="domain-link">
                  {String(row.unicode_name ?? value ?? '')}
                </RowLink>
              )
            if (key === 'expires_at' || key === 'created_at' || key === 'updated_at') return <DateText value={value as string | null} lng={i18n.language} />
            if (key === 'status') return <StatusBadge status={String(value ?? '')} />
            if (typeof value === 'boolean') return value ? t('yes') : t('no')
            if (Array.isArray(value)) return value.join(', ')
            return String(value ?? '')
          }}
        />
      </div>
    </div>
  )
}
