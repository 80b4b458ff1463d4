import { useTranslation } from '#app/lib/use-translation.ts'
import { PageHeader } from '#app/components/page-header.tsx'
import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import type { Route } from './+types/audit-log.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { changesText } from '#app/lib/audit-changes.ts'

/** /accounts/log (every area) and /domains|users|contacts/log (their area fixed): one module. */
function listFor(pathname: string) {
  const area = pathname.split('/')[1] ?? ''
  return LISTS[`${area}-log`] ?? LISTS['accounts-log']!
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const url = requestUrl(request)
  const def = listFor(url.pathname)
  const { page, headers } = await loadListPage(request, context, def, activeContext(url, user.group_id))
  const t = getInstance(context).t
  const area = url.pathname.split('/')[1] ?? ''
  const pageName = area === 'accounts' ? t('audit.title') : t('audit.titleArea', { area: t(`audit.areas.${area}`) })
  return data({ listId: def.id, page, pageName, meta: pageMeta(request, context, pageName) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('common')
  const def = LISTS[loaderData.listId]!
  return (
    <div className="space-y-4">
      <PageHeader title={loaderData.pageName} />
      <DataTable
        def={def}
        page={loaderData.page}
        labels={(key) => t(`audit.${key}`, { defaultValue: key })}
        rowLabel={def.rowLabel}
        renderCell={(row, key) => {
          if (key === 'created_at') return <time dateTime={String(row.created_at)}>{formatDateTime(String(row.created_at), i18n.language)}</time>
          if (key === 'area') return t(`audit.areas.${String(row.area)}`, { defaultValue: String(row.area) })
          if (key === 'changes') return <span className="line-clamp-2 max-w-md break-all font-mono text-xs">{changesText(row.changes, { max: 6 })}</span>
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}
