import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { contactRegistryHandlesList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { SubNav, useColumnLabels } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/registry-handles.ts'
import { PageHeader } from '#app/components/page-header.tsx'

/** /contacts/{id}/registry-handles: the contact's handle at each registry with its sync state. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const groupContext = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  const contact = await platform.get('/groups/{context}/contacts/{id}', { path: { context: groupContext, id: params.id } })
  const def = { ...contactRegistryHandlesList, apiPath: (ctx: string) => `/groups/${encodeURIComponent(ctx)}/contacts/${contact.id}/registry-handles` }
  const { page, headers } = await loadListPage(request, context, def, groupContext)
  const t = getInstance(context).t
  const pageName = `${t('directory:contacts.registryHandles')} — ${contact.name}`
  return data({ contact, page, pageName, meta: pageMeta(request, context, pageName) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

const STATE_COLORS = { synced: 'green', pending: 'amber', failed: 'red' } as const

export default function RegistryHandles({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('directory')
  const labels = useColumnLabels('handles')
  const base = `/contacts/${loaderData.contact.id}`
  return (
    <div className="space-y-4">
      <PageHeader breadcrumb={[{ label: t('contacts.title'), to: '/contacts' }]} title={loaderData.pageName} />
      <SubNav
        links={[
          { to: base, label: t('details') },
          { to: `${base}/log`, label: t('log') },
          { to: `${base}/registry-handles`, label: t('contacts.registryHandles'), current: true },
        ]}
      />
      <DataTable
        def={contactRegistryHandlesList}
        page={loaderData.page}
        labels={labels}
        renderCell={(row, key) => {
          if (key === 'sync_state') {
            const state = String(row.sync_state) as keyof typeof STATE_COLORS
            return <Badge color={STATE_COLORS[state] ?? 'grey'}>{t(`handles.states.${state}`, { defaultValue: state })}</Badge>
          }
          if (key === 'last_synced_at') return row.last_synced_at ? formatDateTime(String(row.last_synced_at), i18n.language) : '—'
          return undefined
        }}
      />
    </div>
  )
}
