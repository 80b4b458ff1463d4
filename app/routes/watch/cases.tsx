import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { CaseState, Risk } from '#common/watch.ts'
import { Link } from 'react-router'
import type { Route } from './+types/cases.ts'
import { watchCasesList } from './lists.ts'
import { watchScreen } from './shared.server.ts'
import { RiskBadge, StateBadge } from './shared.tsx'

const casesOf = (id: string) => ({ ...watchCasesList, fixedFilters: [{ field: 'watch_id', operator: 'equals' as const, values: [id] }] })

/** /watch/{id}/cases: the watch's cases on the list engine (filters, sort, CSV). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, casesOf(params.id), screen.groupContext)
  return data({ page }, { headers })
}

export default function WatchCases({ loaderData, params }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('watch')
  return (
    <DataTable
      def={casesOf(params.id)}
      page={loaderData.page}
      labels={(key) => t(`fields.${key.replace('.', '_')}`, { defaultValue: key })}
      valueLabel={(key, value) => (['risk', 'state', 'action', 'triage', 'resolution'].includes(key) ? t(`${key}.${value}`) : value)}
      empty={<p className="text-sm text-slate-500">{t('cases.none')}</p>}
      renderCell={(row, key) => {
        if (key === 'name')
          return (
            <Link to={`/watch/${params.id}/cases/${String(row.id)}`} className="font-mono text-blue-700 hover:underline dark:text-blue-300">
              {String(row.name)}
            </Link>
          )
        if (key === 'watch.name') return String((row.watch as { name?: string } | undefined)?.name ?? '')
        if (key === 'risk') return <RiskBadge risk={row.risk as Risk} />
        if (key === 'state') return <StateBadge state={row.state as CaseState} />
        if (key === 'action' || key === 'triage' || key === 'resolution') return row[key] ? t(`${key}.${String(row[key])}`) : '—'
        if (key === 'opened_at' || key === 'resolved_at' || key === 'notice_sent_at') return row[key] ? <DateText value={String(row[key])} lng={i18n.language} /> : '—'
        return undefined
      }}
    />
  )
}
