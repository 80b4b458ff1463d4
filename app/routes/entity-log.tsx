import type { TFunction } from 'i18next'
import type { ReactNode } from 'react'
import { data, Link } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { SubNav, useColumnLabels } from '#app/components/screen-parts.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { changesText } from '#app/lib/audit-changes.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { NoZone } from './domains/dns/no-zone.tsx'
import { EntityTabs as BillingEntityTabs, TransactionTabs } from './invoicing/billing.tsx'
import { EntityTabs as PricingEntityTabs } from './invoicing/pricing-entity.tsx'
import { SslHeader } from './ssl/shared.tsx'
import { readLog, type LogKind, type LogView } from './entity-log.server.ts'
import type { Route } from './+types/entity-log.ts'

/**
 * The one log screen: every audit trail (an area's, an entity's, an invoicing entity's, a domain's,
 * a zone's, a certificate's) and the sign-in log, each route of app/routes.ts pointing here. What
 * differs — the API list and columns, the entity read first, the permission, the title and the way
 * back — is data (entity-log.server.ts); the page draws it with the one list (`DataTable`).
 */
export async function loader({ request, context, params, pattern }: Route.LoaderArgs) {
  const { def, groupContext, view } = await readLog({ request, context, params, pattern })
  const page: LogView = { breadcrumb: [], description: null, back: null, links: [], tabs: null, certificate: null, noZone: null, ...view }
  const table = { id: def.id, columns: def.columns, trayType: def.trayType }
  const meta = view.title === null ? null : pageMeta(request, context, view.title)
  if (page.noZone) return data({ view: page, table, list: null, meta })
  const { page: list, headers } = await loadListPage(request, context, def, groupContext)
  return data({ view: page, table, list, meta }, { headers })
}

// Under a domain the frame's title stays (the domain's name); every other log has its own.
export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const frame = matches.find((m) => m?.id === 'domain-frame')
  return frame && !loaderData?.meta ? frame.meta : metaTags(loaderData?.meta)
}

type Row = Record<string, unknown>

/** The cells of a log: the time and the area for every kind, then each kind's own (`changes`, outcomes, actions). */
type Cells = (row: Row, key: string, t: { common: TFunction; area: TFunction; language: string }) => ReactNode | undefined

const INVOICING_SKIP = ['version', 'updated_at', 'created_at', 'id'] as const

/** Per kind: where the column labels are, and how its cells differ. */
type Kind = { ns: 'common' | 'dns' | 'ssl' | 'directory'; labels: string; cells: Cells; time?: 'plain' }

/** An audit-trail log: the audit columns, its changes as text clamped to `size` (Tailwind classes, written out). */
const auditKind = (size: string, options: Parameters<typeof changesText>[1], testId?: string): Kind => ({
  ns: 'common',
  labels: 'audit',
  cells: (row, key) =>
    key === 'changes' ? (
      <span className={`${size} break-all font-mono text-xs`} data-testid={testId}>
        {changesText(row.changes, options)}
      </span>
    ) : undefined,
})
const areaTrail = auditKind('line-clamp-2 max-w-md', { max: 6 })

const KINDS: Record<LogKind, Kind> = {
  audit: areaTrail,
  entity: auditKind('line-clamp-3 max-w-xl', { skip: ['version', 'updated_at'], changedOnly: true, max: 8 }, 'log-changes'),
  domain: areaTrail,
  billing: auditKind('line-clamp-4 max-w-2xl', { skip: INVOICING_SKIP, addedAsValue: true }, 'log-changes'),
  pricing: auditKind('line-clamp-4 max-w-2xl', { skip: INVOICING_SKIP }, 'log-changes'),
  auth: {
    ns: 'directory',
    labels: 'authLog',
    cells: (row, key, { area: t }) => {
      if (key === 'outcome') return <Badge color={row.outcome === 'success' ? 'green' : 'red'}>{t(`authLog.outcomes.${String(row.outcome)}`, { defaultValue: String(row.outcome) })}</Badge>
      if (key === 'kind') return t(`authLog.kinds.${String(row.kind)}`, { defaultValue: String(row.kind) })
      return undefined
    },
  },
  dns: { ns: 'dns', labels: 'log.fields', cells: (row, key) => (key === 'changes' ? <DnsChanges changes={row.changes} /> : undefined) },
  ssl: {
    ns: 'ssl',
    labels: 'log',
    time: 'plain',
    cells: (row, key, { area: t }) => {
      if (key === 'action') return t(`log.actions.${String(row.action)}`, { defaultValue: String(row.action ?? '') })
      if (key === 'changes') return <span className="text-xs">{sslSummary(row.changes, t)}</span>
      return undefined
    },
  },
}

/** An audit entry in the tray: what it is about and what was done. */
const auditRowLabel = (row: Row) => `${String(row.entity_type ?? '')} ${String(row.action ?? '')}`

export default function EntityLog({ loaderData }: Route.ComponentProps) {
  const { view, table, list } = loaderData
  const kind = KINDS[view.kind]
  const { t: common, i18n } = useTranslation('common')
  const { t: area } = useTranslation(kind.ns)
  const directoryLabels = useColumnLabels(kind.labels)
  const labels = kind.ns === 'directory' ? directoryLabels : (key: string) => area(`${kind.labels}.${key}`, { defaultValue: key })
  const body = list ? (
    <DataTable
      def={table}
      page={list}
      labels={labels}
      rowLabel={table.trayType === 'audit-entry' ? auditRowLabel : undefined}
      renderCell={(row, key) => {
        const own = kind.cells(row, key, { common, area, language: i18n.language })
        if (own !== undefined) return own
        if (key === 'created_at') {
          const text = formatDateTime(String(row.created_at ?? ''), i18n.language)
          return kind.time === 'plain' ? text : <time dateTime={String(row.created_at)}>{text}</time>
        }
        if (key === 'area') return common(`audit.areas.${String(row.area)}`, { defaultValue: String(row.area) })
        return undefined
      }}
    />
  ) : null
  if (view.kind === 'domain') return body
  return (
    <div className="space-y-4">
      <LogHeader view={view} />
      {view.noZone ? <NoZone domainId={view.noZone.domainId} /> : body}
    </div>
  )
}

/** What stands above a log's table: its header, way back and tabs, as its entity's other screens have them. */
function LogHeader({ view }: { view: LogView }) {
  const { t } = useTranslation('dns')
  const { t: pricing } = useTranslation('pricing')
  const href = useContextHref()
  if (view.kind === 'ssl' && view.certificate) return <SslHeader certificate={view.certificate} current="log" />
  if (view.kind === 'dns') {
    if (view.noZone) return null
    return view.title === null ? <h2 className="text-lg font-semibold">{t('log.title')}</h2> : <h1 className="text-2xl font-semibold">{view.title}</h1>
  }
  const tabs = view.tabs
  const tabNav =
    tabs?.kind === 'billing-entity' ? (
      <BillingEntityTabs id={tabs.id} current="log" />
    ) : tabs?.kind === 'transaction' ? (
      <TransactionTabs id={tabs.id} current="log" />
    ) : tabs?.kind === 'pricing-entity' ? (
      <PricingEntityTabs id={tabs.id} current="log" />
    ) : null
  if (view.back) {
    return (
      <>
        <p className="text-xs text-slate-500">
          <Link className="hover:underline" to={href(view.back)}>
            {pricing('back')}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold">{view.title}</h1>
        {tabNav}
      </>
    )
  }
  return (
    <>
      <PageHeader title={view.title ?? ''} breadcrumb={view.breadcrumb.length ? view.breadcrumb : undefined} description={view.description} />
      {view.links.length ? <SubNav links={view.links} /> : null}
      {tabNav}
    </>
  )
}

/** A DNS entry's change: before → after of each field (the zone goes without saying). */
function DnsChanges({ changes }: { changes: unknown }) {
  if (!changes || typeof changes !== 'object') return null
  const { before, after } = changes as { before?: Row; after?: Row }
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

/** A certificate's change in words: the status as the badge says it, the other fields as they were and are; empty fields are left out. */
function sslSummary(changes: unknown, t: TFunction): string {
  if (!changes || typeof changes !== 'object') return ''
  const { before, after } = changes as { before?: Row; after?: Row }
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
