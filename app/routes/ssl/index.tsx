import { data, Outlet, useLocation } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { SubNav } from '#app/components/screen-parts.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { canChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import type { Answer } from '#app/lib/platform-api.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { SslState } from '#common/ssl.ts'
import { sslsList } from './lists.ts'
import { SslStatus } from './shared.tsx'
import type { Route } from './+types/index.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'

export type Settings = Answer<'/groups/{context}/ssl-settings'>
export type SslPriceRow = Settings['prices'][number]
export type SslOrganisationChoice = Settings['organisations'][number]

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const [{ page, headers }, settings] = await Promise.all([loadListPage(request, context, sslsList, groupContext), platform.get('/groups/{context}/ssl-settings', { path: { context: groupContext } })])
  const t = getInstance(context).t
  return data({ page, settings, canOrder: canChange(request, user, 'ssl-manager'), meta: pageMeta(request, context, t('ssl:title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function SslList({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('ssl')
  const href = useContextHref()
  const { search } = useLocation()
  const { settings } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('title')}
        description={settings.ca_configured ? t('issuedBy', { ca: settings.ca }) : t('noCa', { missing: settings.missing ?? '' })}
        actions={
          loaderData.canOrder ? (
            // Ordering and importing are sheets over the list (/ssls/order, /ssls/import).
            <>
              {settings.ca_configured ? (
                <HeaderAction to={`/ssls/order${search}`} primary preventScrollReset data-testid="ssl-order-open">
                  {t('order.title')}
                </HeaderAction>
              ) : null}
              <HeaderAction to={`/ssls/import${search}`} preventScrollReset data-testid="ssl-import-open">
                {t('import.open')}
              </HeaderAction>
            </>
          ) : null
        }
      />
      <SubNav
        links={[
          { to: '/ssls', label: t('title'), current: true },
          { to: '/ssls/organisations', label: t('organisations.title') },
        ]}
      />
      <DataTable
        def={sslsList}
        page={loaderData.page}
        labels={(key) => t(`fields.${key.replace('.', '_')}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'common_name') return <RowLink to={href(`/ssls/${String(row.id)}`)}>{String(row.common_name ?? '')}</RowLink>
          if (key === 'status') return <SslStatus status={row.status as SslState} />
          if (key === 'product') return t(`products.${String(row.product)}`, { defaultValue: String(row.product ?? '') })
          if (key === 'not_after' || key === 'issued_at' || key === 'created_at') return row[key] ? <DateText value={String(row[key])} lng={i18n.language} /> : '—'
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          return undefined
        }}
      />
      <Outlet />
    </div>
  )
}
