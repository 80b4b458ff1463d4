import { data, Link } from 'react-router'
import { DataTable } from '#app/components/data-table.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { requireScreen, requireChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { LISTS, type ListDefinition } from '#app/lib/lists.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { EntityTabs, type PricingEntity } from './pricing-entity.tsx'
import { setOfPath } from './shared.tsx'
import type { Route } from './+types/pricing-log.ts'

/**
 * The /log screens of a price list (/invoicing/pricing-entities/{id}/log) and of a rule
 * (…-pricing-rules/{id|custom}/{ruleName}/log): the invoicing trail fixed to the entity, with
 * before and after of each change. The entity is read first, so an unknown one is a 404.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  requireChange(request, user, 'staff')
  const url = requestUrl(request)
  const platform = await getPlatform(request, context)
  const t = getInstance(context).t
  let entityId: string
  let title: string
  let entity: PricingEntity | null = null
  let back: string
  if (url.pathname.startsWith('/invoicing/pricing-entities/')) {
    entity = await platform.get<PricingEntity>(`/pricing-entities/${params.id}`)
    entityId = entity.id
    title = t('pricing:logOf', { name: entity.name })
    back = `/invoicing/pricing-entities/${entity.id}`
  } else {
    const set = setOfPath(url.pathname)
    const product = params.id ?? 'custom'
    const ruleName = params.ruleName!
    await platform.get(`/pricing-rules/${set}/${product}/${encodeURIComponent(ruleName)}`)
    entityId = `${set}/${product}/${ruleName}`
    title = t('pricing:logOf', { name: ruleName })
    back = url.pathname.replace(/\/log$/, '')
  }
  const base = LISTS['pricing-log']!
  const def: ListDefinition = { ...base, fixedFilters: [...base.fixedFilters, { field: 'entity_id', operator: 'equals', values: [entityId] }] }
  const { page, headers } = await loadListPage(request, context, def, activeContext(url, user.group_id))
  return data({ page, title, entity, back, fixedFilters: def.fixedFilters, meta: pageMeta(request, context, title) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** Before → after of each field a change touched. */
function changesText(changes: unknown): string {
  if (!changes || typeof changes !== 'object') return ''
  const { before, after } = changes as { before?: Record<string, unknown>; after?: Record<string, unknown> }
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((k) => !['version', 'updated_at', 'created_at', 'id'].includes(k))
  return keys.map((k) => `${k}: ${JSON.stringify(before?.[k] ?? null)} → ${JSON.stringify(after?.[k] ?? null)}`).join('; ')
}

export default function PricingLog({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('common')
  const { t: p } = useTranslation('pricing')
  const href = useContextHref()
  const def = { ...LISTS['pricing-log']!, fixedFilters: loaderData.fixedFilters }
  return (
    <div className="space-y-4">
      <p className="text-xs text-slate-500">
        <Link className="hover:underline" to={href(loaderData.back)}>
          {p('back')}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold">{loaderData.title}</h1>
      {loaderData.entity ? <EntityTabs id={loaderData.entity.id} current="log" /> : null}
      <DataTable
        def={def}
        page={loaderData.page}
        labels={(key) => t(`audit.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'created_at') return <time dateTime={String(row.created_at)}>{formatDateTime(String(row.created_at), i18n.language)}</time>
          if (key === 'changes')
            return (
              <span className="line-clamp-4 max-w-2xl break-all font-mono text-xs" data-testid="log-changes">
                {changesText(row.changes)}
              </span>
            )
          return String(row[key] ?? '')
        }}
      />
    </div>
  )
}
