import { data } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS, type ListDefinition } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { loadCertificate } from './detail.server.ts'
import { SslHeader } from './shared.tsx'
import type { Route } from './+types/log.ts'

/** /ssls/{id}/log: the audit trail (area ssl) of one certificate. */
function logList(id: string): ListDefinition {
  const base = LISTS['contacts-log']!
  return { ...base, id: 'ssl-log', trayType: null, fixedFilters: [{ field: 'area', operator: 'equals', values: ['ssl'] }, { field: 'entity_id', operator: 'equals', values: [id] }] }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { groupContext, certificate } = await loadCertificate(request, context, params)
  const { page, headers } = await loadListPage(request, context, logList(certificate.id), groupContext)
  const t = getInstance(context).t
  return data({ certificate, page, meta: pageMeta(request, context, t('ssl:tabs.log')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function SslLog({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('ssl')
  const c = loaderData.certificate
  return (
    <div className="space-y-4">
      <SslHeader certificate={c} current="log" />
      <DataTable
        def={logList(c.id)}
        page={loaderData.page}
        labels={(key) => t(`log.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'created_at') return formatDateTime(String(row.created_at ?? ''), i18n.language)
          if (key === 'action') return t(`log.actions.${String(row.action)}`, { defaultValue: String(row.action ?? '') })
          if (key === 'changes') return <span className="font-mono text-xs">{summarize(row.changes)}</span>
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}

function summarize(changes: unknown): string {
  if (!changes || typeof changes !== 'object') return ''
  const { before, after } = changes as { before?: Record<string, unknown>; after?: Record<string, unknown> }
  return Object.keys(after ?? {})
    .filter((k) => ['status', 'failure_reason', 'revocation_reason', 'serial', 'format'].includes(k))
    .map((k) => `${k}: ${before?.[k] === undefined ? '' : `${JSON.stringify(before[k])} → `}${JSON.stringify(after?.[k])}`)
    .join('; ')
}
