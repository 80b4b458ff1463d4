import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Link } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/list.ts'
import { domainScreen } from './shared.server.ts'
import { StatusBadge } from './shared.tsx'
import { DateText } from '#app/components/date-text.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, LISTS.domains!, screen.groupContext)
  const t = getInstance(context).getFixedT(null, 'domains')
  // The API stops counting at 10,000 rows and says so; the page must not pretend to be exact.
  const capped = (page.meta as { total_capped?: boolean }).total_capped === true
  // Differences the reconciliation found stay visible on the portfolio: never a silent wrong expiry.
  const differences = await screen.platform
    .get<{ meta: { total: number } }>(`${screen.base}/domains/reconciliation-differences`, { query: { limit: 1, fields: 'id' } })
    .then((r) => r.meta.total)
    .catch(() => 0)
  return data({ page, capped, differences, canManage: screen.canManage, meta: pageMeta(request, context, t('list.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** The portfolio: the one list mechanism over GET /groups/{context}/domains. */
export default function DomainsList({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('domains')
  const href = useContextHref()
  const def = LISTS.domains!
  const { page, capped } = loaderData
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">{t('list.title')}</h1>
        <nav aria-label={t('list.actions')} className="flex flex-wrap gap-2">
          <Button asChild variant="outline" size="sm"><Link to={href('/domains/search')}>{t('search.title')}</Link></Button>
          {loaderData.canManage ? (
            <>
              <Button asChild size="sm"><Link to={href('/domains/add')}>{t('add.title')}</Link></Button>
              <Button asChild variant="outline" size="sm"><Link to={href('/domains/contacts')}>{t('contacts.title')}</Link></Button>
              <Button asChild variant="outline" size="sm"><Link to={href('/domains/delete')}>{t('delete.title')}</Link></Button>
            </>
          ) : null}
          <Button asChild variant="ghost" size="sm"><Link to={href('/domains/log')}>{t('list.log')}</Link></Button>
        </nav>
      </div>
      {loaderData.differences > 0 ? (
        <Alert variant="error" data-testid="reconciliation-banner">
          {t('reconciliation.banner', { count: loaderData.differences })}{' '}
          <Link to={href('/domains/reconciliation')} className="underline">{t('reconciliation.show')}</Link>
        </Alert>
      ) : null}
      {capped ? (
        <p className="text-sm" data-testid="list-total-capped">{t('list.capped', { count: page.meta.total.toLocaleString(i18n.language) })}</p>
      ) : null}
      {/* When the count is capped, the table's exact-count line would be wrong: hide it. */}
      <div className={capped ? '[&_[data-testid=list-total]]:invisible' : undefined}>
        <DataTable
          def={def}
          page={page}
          labels={(key) => t(`fields.${key}`, { defaultValue: key })}
          rowLabel={def.rowLabel}
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
