import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS, type ListDefinition } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { SubNav, useColumnLabels } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/authentication-log.ts'
import { PageHeader } from '#app/components/page-header.tsx'

/** /users/authentication-log (the account's sign-ins) and /users/{id}/authentication-log (one user's). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const t = getInstance(context).t
  let def: ListDefinition = LISTS['users-authentication-log']!
  let subject: { id: string; label: string } | null = null
  if (params.id) {
    // Read the user first: another account's id is a 404, never an empty list.
    const row = await (await getPlatform(request, context)).get<{ id: string; name: string; email: string }>(`/groups/${groupContext}/users/${params.id}`)
    subject = { id: row.id, label: row.name || row.email }
    def = { ...def, fixedFilters: [{ field: 'user_id', operator: 'equals', values: [row.id] }] }
  }
  const { page, headers } = await loadListPage(request, context, def, groupContext)
  const pageName = subject ? `${t('directory:users.authLog')} — ${subject.label}` : t('directory:users.authLog')
  return data({ page, subject, pageName, meta: pageMeta(request, context, pageName) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function AuthenticationLog({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const labels = useColumnLabels('authLog')
  const { subject } = loaderData
  const links = subject
    ? [
        { to: `/users/${subject.id}`, label: t('details') },
        { to: `/users/${subject.id}/log`, label: t('log') },
        { to: `/users/${subject.id}/authentication-log`, label: t('users.authLog'), current: true },
      ]
    : [
        { to: '/users', label: t('users.title') },
        { to: '/users/log', label: t('log') },
        { to: '/users/authentication-log', label: t('users.authLog'), current: true },
      ]
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('users.title'), to: '/users' }]} title={loaderData.pageName} />
      <SubNav links={links} />
      <DataTable
        def={LISTS['users-authentication-log']!}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'created_at') return <time dateTime={String(row.created_at)}>{formatDateTime(String(row.created_at), i18n.language)}</time>
          if (key === 'outcome') return <Badge color={row.outcome === 'success' ? 'green' : 'red'}>{t(`authLog.outcomes.${String(row.outcome)}`, { defaultValue: String(row.outcome) })}</Badge>
          if (key === 'kind') return t(`authLog.kinds.${String(row.kind)}`, { defaultValue: String(row.kind) })
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}
