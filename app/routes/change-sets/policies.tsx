import { data } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { canChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { changeSetPoliciesList } from './lists.ts'
import type { Route } from './+types/policies.ts'

/** /change-sets/policies: the account's policies, how many objects each selects and how many drift. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, changeSetPoliciesList, activeContext(requestUrl(request), user.group_id))
  const canCreate = canChange(request, user, 'dns-admin') || canChange(request, user, 'domain-admin')
  return data({ page, canCreate, meta: pageMeta(request, context, getInstance(context).getFixedT(null, 'change-sets')('policies.title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Policies({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('change-sets')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[{ label: t('title'), to: '/change-sets' }]}
        title={t('policies.title')}
        description={t('policies.description')}
        actions={
          loaderData.canCreate ? (
            <HeaderAction to="/change-sets/policies/new" primary data-testid="policy-new">
              {t('policies.new')}
            </HeaderAction>
          ) : null
        }
      />
      <DataTable
        def={changeSetPoliciesList}
        page={loaderData.page}
        labels={(key) => t(`fields.${key}`, { defaultValue: t(`policies.fields.${key}`, { defaultValue: key }) })}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/change-sets/policies/${String(row.id)}`)}>{String(row.name)}</RowLink>
          if (key === 'kind') return t(`kinds.${String(row.kind)}`, { defaultValue: String(row.kind) })
          if (key === 'target') return t(`targets.${String(row.target)}`)
          if (key === 'filter') return row.filter ? <code className="font-mono text-xs">{String(row.filter)}</code> : <span className="text-slate-500">{t('everything')}</span>
          if (key === 'objects' || key === 'drifting') return row[key] === null || row[key] === undefined ? '—' : Number(row[key]).toLocaleString(i18n.language)
          if (key === 'evaluated_at' || key === 'created_at') return row[key] ? <DateText value={String(row[key])} lng={i18n.language} time /> : '—'
          return undefined
        }}
      />
    </div>
  )
}
