import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Outlet, useLocation } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { requireScreen, canChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { usersList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { hasPermission } from '#common/permissions.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { SubNav, useColumnLabels, yesNo } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/index.ts'
import { DateText } from '#app/components/date-text.tsx'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const { page, headers } = await loadListPage(request, context, usersList, activeContext(url, user.group_id))
  const t = getInstance(context).t
  return data(
    { page, canInvite: canChange(request, user, 'user-admin'), isStaff: hasPermission(user, 'staff', { ignoreHidden: true }), meta: pageMeta(request, context, t('directory:users.title')) },
    { headers },
  )
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Users({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const labels = useColumnLabels('users')
  const { t: tt } = useTranslation('tokens')
  const href = useContextHref()
  const { search } = useLocation()
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('users.title')}
        actions={
          loaderData.canInvite ? (
            // Inviting a person and making a service user are sheets over the list (/users/invite, /users/service-users/new).
            <>
              <HeaderAction to={`/users/invite${search}`} primary preventScrollReset data-testid="user-invite-open">
                {t('users.invite')}
              </HeaderAction>
              <HeaderAction to={`/users/service-users/new${search}`} preventScrollReset data-testid="service-user-open">
                {tt('serviceUsers.title')}
              </HeaderAction>
            </>
          ) : null
        }
      />
      <SubNav
        links={[
          { to: '/users', label: t('users.title'), current: true },
          { to: '/users/log', label: t('log') },
          { to: '/users/authentication-log', label: t('users.authLog') },
        ]}
      />
      <DataTable
        def={usersList}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/users/${String(row.id)}`)}>{String(row.name || row.email || '')}</RowLink>
          if (key === 'roles')
            return (
              <span className="flex flex-wrap gap-1">
                {((row.roles as string[] | undefined) ?? []).map((role) => (
                  <StatusBadge key={role} kind="role" code={role} />
                ))}
              </span>
            )
          if (key === 'status') return <StatusBadge kind="user" code={String(row.status)} />
          if (key === 'two_factor' || key === 'invited') return yesNo(t, row[key])
          if (key === 'account.name') return String((row.account as { name?: string } | undefined)?.name ?? '')
          if (key === 'last_sign_in_at') return row[key] ? <DateText value={row[key] as string} lng={i18n.language} time /> : t('users.never')
          if (key === 'created_at') return <DateText value={row[key] as string} lng={i18n.language} />
          return undefined
        }}
      />
      <Outlet />
    </div>
  )
}
