import { useTranslation } from '#app/lib/use-translation.ts'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { activeContext } from '#app/lib/context-param.ts'
import { formatDateTime } from '#app/lib/dates.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { Route } from './+types/detail.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const groupContext = activeContext(requestUrl(request), user.group_id)
  const platform = await getPlatform(request, context)
  const item = await platform.get('/groups/{context}/material-change-requests/{id}', { path: { context: groupContext, id: params.id } })
  return { item, meta: pageMeta(request, context, item.domain_name) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function MaterialRequest({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation('material')
  const { t: tDomains } = useTranslation('domains')
  const { item } = loaderData
  const when = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '—')
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[
          { label: tDomains('list.title'), to: '/domains' },
          { label: t('list.title'), to: '/domains/material-change-requests' },
        ]}
        title={t('detail.title', { domain: item.domain_name })}
        status={<StatusBadge kind="approval" code={item.state} />}
      />
      <dl className="grid max-w-2xl grid-cols-[12rem_1fr] gap-2" data-testid="material-detail">
        <dt>{t('columns.state')}</dt>
        <dd data-testid="material-state">{t(`states.${item.state}`)}</dd>
        <dt>{t('columns.requested_by_label')}</dt>
        <dd>{item.requested_by_label}</dd>
        <dt>{t('detail.change')}</dt>
        <dd>
          {Object.entries(item.change.contacts ?? {}).map(([role, id]) => (
            <div key={role}>{t('change.contact', { role: t(`roles.${role}`), id })}</div>
          ))}
          {item.change.nameservers ? <div>{t('change.nameservers', { list: item.change.nameservers.join(', ') })}</div> : null}
        </dd>
        <dt>{t('detail.approvers')}</dt>
        <dd>{item.approvers.join(', ')}</dd>
        <dt>{t('columns.created_at')}</dt>
        <dd>{when(item.created_at)}</dd>
        <dt>{t('columns.expires_at')}</dt>
        <dd>{when(item.expires_at)}</dd>
        <dt>{t('columns.decided_by')}</dt>
        <dd>
          {item.decided_by ?? '—'} {item.decided_at ? `(${when(item.decided_at)})` : ''}
        </dd>
        <dt>{t('detail.comment')}</dt>
        <dd>{item.comment || '—'}</dd>
        <dt>{t('detail.applied')}</dt>
        <dd>{when(item.applied_at)}</dd>
        {item.error ? (
          <>
            <dt>{t('detail.error')}</dt>
            <dd className="text-red-700">{item.error}</dd>
          </>
        ) : null}
      </dl>
    </div>
  )
}
