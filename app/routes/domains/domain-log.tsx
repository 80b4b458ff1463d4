import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS, type ListDefinition } from '#app/lib/lists.ts'
import type { Route } from './+types/domain-log.ts'
import { domainScreen } from './shared.server.ts'
import { changesText } from '#app/lib/audit-changes.ts'

/** The domains audit trail narrowed to one domain (a fixed filter the user cannot remove). */
function domainLog(id: string): ListDefinition {
  const base = LISTS['domain-log']!
  return { ...base, fixedFilters: [...base.fixedFilters, { field: 'entity_id', operator: 'equals', values: [id] }] }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, domainLog(params.id!), screen.groupContext)
  // The CSV export reads only the URL: carry the domain filter in its legacy form there too.
  const search = `${page.search}${page.search ? '&' : ''}${encodeURIComponent('filter[entity_id]')}=${params.id}`
  return data({ page: { ...page, search } }, { headers })
}

export default function DomainLog({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('common')
  const def = LISTS['domain-log']!
  return (
    <DataTable
      def={def}
      page={loaderData.page}
      labels={(key) => t(`audit.${key}`, { defaultValue: key })}
      renderCell={(row, key) => {
        if (key === 'created_at') return <time dateTime={String(row.created_at)}>{formatDateTime(String(row.created_at), i18n.language)}</time>
        if (key === 'changes') return <span className="line-clamp-2 max-w-md break-all font-mono text-xs">{changesText(row.changes, { max: 6 })}</span>
        return String(row[key] ?? '')
      }}
    />
  )
}
