import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
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
import { SubNav } from '#app/components/screen-parts.tsx'
import type { Route } from './+types/entity-log.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { changesText } from '#app/lib/audit-changes.ts'

type Area = 'accounts' | 'users' | 'contacts'

/**
 * /accounts/{id}/log, /users/{id}/log and /contacts/{id}/log: the audit list fixed to one entity
 * (an account's log is every entry of that account). The entity is read first, so another
 * account's id is a 404 like everywhere else.
 */
async function entityName(request: Request, context: Route.LoaderArgs['context'], area: Area, id: string, groupContext: string): Promise<string> {
  const platform = await getPlatform(request, context)
  if (area === 'accounts') return (await platform.get<{ name: string }>(`/accounts/${id}`)).name
  const row = await platform.get<{ name: string; email?: string }>(`/groups/${groupContext}/${area}/${id}`)
  return row.name || row.email || id
}

function listFor(area: Area, id: string): ListDefinition {
  if (area === 'accounts') return { ...LISTS['accounts-log']!, apiPath: () => `/groups/${encodeURIComponent(id)}/audit-entries` }
  return entityLogList(area === 'users' ? 'users-log' : 'contacts-log', id)
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const area = url.pathname.split('/')[1] as Area
  const id = params.id!
  const groupContext = activeContext(url, user.group_id)
  const name = await entityName(request, context, area, id, groupContext)
  const def = listFor(area, id)
  const { page, headers } = await loadListPage(request, context, def, groupContext)
  const t = getInstance(context).t
  const pageName = t('directory:entityLog', { name })
  return data({ area, id, listId: def.id, page, name, pageName, meta: pageMeta(request, context, pageName) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function EntityLog({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('common')
  const { t: d } = useTranslation('directory')
  const { t: w } = useTranslation('webhooks')
  const { area, id } = loaderData
  const base = `/${area}/${id}`
  const links = [
    { to: base, label: d('details') },
    { to: `${base}/log`, label: d('log'), current: true },
  ]
  if (area === 'users') links.push({ to: `${base}/authentication-log`, label: d('users.authLog') })
  if (area === 'contacts') links.push({ to: `${base}/registry-handles`, label: d('contacts.registryHandles') })
  if (area === 'accounts') links.push({ to: `${base}/webhooks`, label: w('title') })
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[
          { label: d(`${area}.title`), to: `/${area}` },
          { label: String(loaderData.name), to: base },
        ]}
        title={loaderData.pageName}
      />
      <SubNav links={links} />
      <DataTable
        def={LISTS[loaderData.listId]!}
        page={loaderData.page}
        labels={(key) => t(`audit.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'created_at') return <time dateTime={String(row.created_at)}>{formatDateTime(String(row.created_at), i18n.language)}</time>
          if (key === 'area') return t(`audit.areas.${String(row.area)}`, { defaultValue: String(row.area) })
          if (key === 'changes')
            return (
              <span className="line-clamp-3 max-w-xl break-all font-mono text-xs" data-testid="log-changes">
                {changesText(row.changes, { skip: ['version', 'updated_at'], changedOnly: true, max: 8 })}
              </span>
            )
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}

/** An audit list fixed to one entity (the /…/{id}/log screens). */
export function entityLogList(listId: 'users-log' | 'contacts-log' | 'accounts-log', entityId: string): ListDefinition {
  const base = LISTS[listId]!
  return { ...base, fixedFilters: [...base.fixedFilters, { field: 'entity_id', operator: 'equals', values: [entityId] }] }
}
