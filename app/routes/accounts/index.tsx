import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Outlet, useLocation } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { requireScreen, canChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { accountsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { SubNav, useColumnLabels, yesNo } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/index.ts'
import { DateText } from '#app/components/date-text.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const { page, headers } = await loadListPage(request, context, accountsList, activeContext(url, user.group_id))
  const t = getInstance(context).t
  return data({ page, canCreate: canChange(request, user, 'staff'), meta: pageMeta(request, context, t('directory:accounts.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Accounts({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(['directory', 'common'])
  const labels = useColumnLabels('accounts')
  const href = useContextHref()
  const { search } = useLocation()
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('accounts.title')}
        actions={
          loaderData.canCreate ? (
            // A new account's form is a sheet over this list (/accounts/new), which keeps the list's query to come back to.
            <HeaderAction to={`/accounts/new${search}`} primary preventScrollReset data-testid="account-new">
              {t('accounts.new')}
            </HeaderAction>
          ) : null
        }
      />
      <SubNav
        links={[
          { to: '/accounts', label: t('accounts.title'), current: true },
          { to: '/accounts/log', label: t('log') },
        ]}
      />
      <DataTable
        def={accountsList}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/accounts/${String(row.id)}`)}>{String(row.name ?? '')}</RowLink>
          if (key === 'status') return <Badge color={row.status === 'active' ? 'green' : 'red'}>{t(`accounts.status.${String(row.status)}`)}</Badge>
          if (key === 'language') return t(`common:languages.${String(row.language)}`, { defaultValue: String(row.language) })
          if (key === 'is_registrar') return yesNo(t, row.is_registrar)
          if (key === 'created_at') return <DateText value={row.created_at as string} lng={i18n.language} />
          return undefined
        }}
      />
      <Outlet />
    </div>
  )
}
