import { data } from 'react-router'
import { DataTable, RowLink } from '#app/components/data-table.tsx'
import { DateText } from '#app/components/date-text.tsx'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { canChange, requireScreen } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { loadListPage } from '#app/lib/list-page.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { changeSetsList } from './lists.ts'
import type { Route } from './+types/index.ts'

/** /change-sets: the account's change sets (the list engine), and a new one for whoever manages zones or domains. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const { page, headers } = await loadListPage(request, context, changeSetsList, activeContext(requestUrl(request), user.group_id))
  const canCreate = canChange(request, user, 'dns-manager') || canChange(request, user, 'domain-manager')
  return data({ page, canCreate, meta: pageMeta(request, context, getInstance(context).getFixedT(null, 'change-sets')('title')) }, { headers })
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function ChangeSets({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('change-sets')
  const href = useContextHref()
  return (
    <div className="space-y-4">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            <HeaderAction to="/change-sets/policies" data-testid="change-set-policies">
              {t('policiesLink')}
            </HeaderAction>
            {loaderData.canCreate ? (
              <HeaderAction to="/change-sets/new" primary data-testid="change-set-new">
                {t('new')}
              </HeaderAction>
            ) : null}
          </>
        }
      />
      <DataTable
        def={changeSetsList}
        page={loaderData.page}
        labels={(key) => t(`fields.${key}`, { defaultValue: key })}
        renderCell={(row, key) => {
          if (key === 'name') return <RowLink to={href(`/change-sets/${String(row.id)}`)}>{String(row.name)}</RowLink>
          if (key === 'state') return <StatusBadge kind="changeSet" code={String(row.state)} />
          if (key === 'kind') return t(`kinds.${String(row.kind)}`, { defaultValue: String(row.kind) })
          if (key === 'target') return t(`targets.${String(row.target)}`)
          if (key === 'filter') return row.filter ? <code className="font-mono text-xs">{String(row.filter)}</code> : <span className="text-slate-500">{t('everything')}</span>
          if (key === 'objects') return row.objects === null || row.objects === undefined ? '—' : Number(row.objects).toLocaleString(i18n.language)
          if (key === 'created_at' || key === 'finished_at') return row[key] ? <DateText value={String(row[key])} lng={i18n.language} time /> : '—'
          return undefined
        }}
      />
    </div>
  )
}
