import { data, Outlet, useLocation } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { SubNav } from '#app/components/screen-parts.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { canChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { countryName } from '#common/countries.ts'
import { hasPermission } from '#common/permissions.ts'
import type { SslOrganisationStatus } from '#common/ssl.ts'
import { sslOrganisationsList } from './lists.ts'
import { OrganisationStatus } from './shared.tsx'
import type { Route } from './+types/organisations.ts'

/** /ssls/organisations: the account's OV/EV organisations with their validation state; adding one is a sheet over it. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const { page, headers } = await loadListPage(request, context, sslOrganisationsList, groupContext)
  const t = getInstance(context).t
  // An organisation belongs to an account: staff in their own group see every one and add none.
  const canAdd = canChange(request, user, 'ssl-manager') && !(hasPermission(user, 'staff', { ignoreHidden: true }) && groupContext === user.group_id)
  return data({ page, canAdd, meta: pageMeta(request, context, t('ssl:organisations.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function SslOrganisations({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('ssl')
  const href = useContextHref()
  const { search } = useLocation()
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('organisations.title')}
        description={t('organisations.intro')}
        actions={
          loaderData.canAdd ? (
            // Adding one is a sheet over the list (/ssls/organisations/new).
            <HeaderAction to={`/ssls/organisations/new${search}`} primary preventScrollReset data-testid="ssl-organisation-add-open">
              {t('organisations.add')}
            </HeaderAction>
          ) : null
        }
      />
      <SubNav
        links={[
          { to: '/ssls', label: t('title') },
          { to: '/ssls/organisations', label: t('organisations.title'), current: true },
        ]}
      />
      <DataTable
        def={sslOrganisationsList}
        page={loaderData.page}
        labels={(key) => t(`organisations.fields.${key.replace('.', '_')}`, { defaultValue: key })}
        empty={t('organisations.none')}
        renderCell={(row, key) => {
          if (key === 'legal_name') return <RowLink to={href(`/ssls/organisations/${String(row.id)}`)}>{String(row.legal_name ?? '')}</RowLink>
          if (key === 'status') return <OrganisationStatus status={row.status as SslOrganisationStatus} />
          if (key === 'country') return countryName(String(row.country ?? ''), i18n.language)
          if (key === 'validated_at' || key === 'created_at') return row[key] ? formatDateTime(String(row[key]), i18n.language) : '—'
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          return undefined
        }}
      />
      <Outlet />
    </div>
  )
}
