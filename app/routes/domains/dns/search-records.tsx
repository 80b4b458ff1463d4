import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Link } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { dnsRecordsList } from './lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { Route } from './+types/search-records.ts'
import { dnsScreen } from './shared.server.ts'

/** /domains/search/records: records across every zone of the account; rows go into the tray. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const { page, headers } = await loadListPage(request, context, dnsRecordsList, screen.groupContext)
  return data({ page, meta: pageMeta(request, context, t('search.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function SearchRecords({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('dns')
  const href = useContextHref()
  const def = dnsRecordsList
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">{t('search.title')}</h1>
      <DataTable
        def={def}
        page={loaderData.page}
        labels={(key) => t(`fields.${key}`, { defaultValue: key })}
        rowLabel={def.rowLabel}
        renderCell={(row, key) => {
          if (key === 'zone.name') {
            // To the zone's screen: /domains/zones/{id} sends a domain's zone on to its DNS tab.
            const name = String((row.zone as { name?: string } | undefined)?.name ?? '')
            return row.zone_id ? (
              <Link to={href(`/domains/zones/${String(row.zone_id)}`)} className="underline">
                {name}
              </Link>
            ) : (
              name
            )
          }
          if (key === 'content') return <span className="break-all font-mono text-xs">{String(row.content ?? '')}</span>
          if (key === 'updated_at') return <time dateTime={String(row.updated_at)}>{formatDateTime(String(row.updated_at), i18n.language)}</time>
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}
