import { NoZone } from './no-zone.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import type { Route } from './+types/dns-log.ts'
import { dnsScreen, zoneOfDomain } from './shared.server.ts'

/** /domains/dns-log (every zone, audit area dns) and /domains/{id}/dns-log (the domain's zone). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await dnsScreen(request, context, params)
  const t = getInstance(context).getFixedT(null, 'dns')
  const meta = pageMeta(request, context, t('log.title'))
  if (!params.id) {
    const { page, headers } = await loadListPage(request, context, LISTS['dns-log']!, screen.groupContext)
    return data({ listId: 'dns-log', page, perZone: false, noZone: false, meta }, { headers })
  }
  const zone = await zoneOfDomain(screen, params.id)
  if (!zone) return data({ listId: 'dns-zone-log', page: null, perZone: true, noZone: true, meta })
  const def = { ...LISTS['dns-zone-log']!, apiPath: (ctx: string) => `/groups/${encodeURIComponent(ctx)}/zones/${zone.id}/log` }
  const { page, headers } = await loadListPage(request, context, def, screen.groupContext)
  return data({ listId: 'dns-zone-log', page, perZone: true, noZone: false, meta }, { headers })
}

// Under a domain the frame's title stays (the domain's name); the log across zones has its own.
export const meta: Route.MetaFunction = ({ loaderData, matches }) => (loaderData?.perZone ? (matches.find((m) => m?.id === 'domain-frame')?.meta ?? []) : metaTags(loaderData?.meta))

/** Before → after of the fields an entry changed. */
function Changes({ changes }: { changes: unknown }) {
  if (!changes || typeof changes !== 'object') return null
  const { before, after } = changes as { before?: Record<string, unknown>; after?: Record<string, unknown> }
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((k) => k !== 'zone_id')
  return (
    <ul className="font-mono text-xs">
      {keys.map((k) => (
        <li key={k} className="break-all">
          {k}: {before && k in before ? JSON.stringify(before[k]) : '—'} → {after && k in after ? JSON.stringify(after[k]) : '—'}
        </li>
      ))}
    </ul>
  )
}

export default function DnsLog({ loaderData, params }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('dns')
  const def = LISTS[loaderData.listId]!
  if (loaderData.noZone || !loaderData.page) {
    return <NoZone domainId={params.id} />
  }
  return (
    <div className="space-y-4">
      {loaderData.perZone ? <h2 className="text-lg font-semibold">{t('log.title')}</h2> : <h1 className="text-2xl font-semibold">{t('log.title')}</h1>}
      <DataTable
        def={{ ...def, trayType: null }}
        page={loaderData.page}
        labels={(key) => t(`log.fields.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'created_at') return <time dateTime={String(row.created_at)}>{formatDateTime(String(row.created_at), i18n.language)}</time>
          if (key === 'changes') return <Changes changes={row.changes} />
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}
