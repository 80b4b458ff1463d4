import { data } from 'react-router'
import type { TFunction } from 'i18next'
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
  // One certificate's trail: which entity it is about goes without saying.
  const columns = base.columns.map((c) => (c.key === 'entity_type' ? { ...c, defaultVisible: false } : c))
  return {
    ...base,
    id: 'ssl-log',
    columns,
    trayType: null,
    fixedFilters: [
      { field: 'area', operator: 'equals', values: ['ssl'] },
      { field: 'entity_id', operator: 'equals', values: [id] },
    ],
  }
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
          if (key === 'changes') return <span className="text-xs">{summarize(row.changes, t)}</span>
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}

/** What changed, in words: the status as the badge says it, the other fields as they were and are; empty fields are left out. */
function summarize(changes: unknown, t: TFunction): string {
  if (!changes || typeof changes !== 'object') return ''
  const { before, after } = changes as { before?: Record<string, unknown>; after?: Record<string, unknown> }
  const say = (k: string, v: unknown) =>
    k === 'status' ? t(`status.${String(v)}`, { defaultValue: String(v) }) : k === 'revocation_reason' ? t(`reasons.${String(v)}`, { defaultValue: String(v) }) : String(v)
  return Object.keys(after ?? {})
    .filter((k) => ['status', 'failure_reason', 'revocation_reason', 'serial', 'format'].includes(k) && after?.[k] !== null && after?.[k] !== undefined)
    .map((k) => {
      const was = before?.[k]
      const label = t(`fields.${k}`, { defaultValue: k })
      return `${label}: ${was === undefined || was === null ? '' : `${say(k, was)} → `}${say(k, after?.[k])}`
    })
    .join(' · ')
}
