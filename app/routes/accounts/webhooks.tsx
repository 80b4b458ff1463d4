import { Link, Outlet } from 'react-router'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { formatDateTime } from '#app/lib/dates.ts'
import { requireScreen, canChange } from '#app/lib/guards.server.ts'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { CardTable, CardTableRow, SubNav } from '#app/components/screen-parts.tsx'
import { EndpointState } from './webhooks-shared.tsx'
import type { Route } from './+types/webhooks.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireScreen(request, context, params)
  const platform = await getPlatform(request, context)
  const [account, endpoints] = await Promise.all([platform.get('/accounts/{id}', { path: { id: params.id } }), platform.get('/groups/{context}/webhook_endpoints', { path: { context: params.id } })])
  const t = getInstance(context).t
  return { account, endpoints: endpoints.data, canEdit: canChange(request, user, 'account-admin'), meta: pageMeta(request, context, t('webhooks:title')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Webhooks({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(['webhooks', 'directory'])
  const href = useContextHref()
  const { account, endpoints, canEdit } = loaderData
  const base = `/accounts/${account.id}`
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[
          { label: t('directory:accounts.title'), to: '/accounts' },
          { label: account.name, to: base },
        ]}
        title={t('title')}
        actions={
          canEdit ? (
            // A new endpoint's form is a sheet over this list (webhook-new.tsx).
            <HeaderAction to={`${base}/webhooks/new`} primary preventScrollReset data-testid="webhook-new-open">
              {t('new')}
            </HeaderAction>
          ) : null
        }
      />
      <SubNav
        links={[
          { to: base, label: t('directory:details') },
          { to: `${base}/log`, label: t('directory:log') },
          { to: `${base}/webhooks`, label: t('title'), current: true },
        ]}
      />
      <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-400">{t('intro')}</p>
      <Card>
        <CardTable
          items={endpoints}
          testId="webhook-endpoints"
          minWidth="min-w-[36rem]"
          empty={{ text: t('empty'), testId: 'webhook-empty' }}
          headings={[{ label: t('fields.url') }, { label: t('fields.events') }, { label: t('fields.state') }, { label: t('fields.created_at') }]}
          render={(endpoint) => (
            <CardTableRow key={endpoint.id}>
              <td className="py-2 pr-3">
                <Link to={href(`${base}/webhooks/${endpoint.id}`)} className="break-all font-medium text-blue-700 hover:underline dark:text-blue-400">
                  {endpoint.url}
                </Link>
                {endpoint.description ? <div className="text-xs text-slate-500">{endpoint.description}</div> : null}
              </td>
              <td className="py-2 pr-3 font-mono text-xs">{endpoint.events.join(', ')}</td>
              <td className="py-2 pr-3">
                <EndpointState endpoint={endpoint} />
              </td>
              <td className="whitespace-nowrap py-2 text-xs">{formatDateTime(endpoint.created_at, i18n.language)}</td>
            </CardTableRow>
          )}
        />
      </Card>
      {canEdit ? null : <p className="text-sm text-slate-500">{t('adminOnly')}</p>}
      <Outlet />
    </div>
  )
}
