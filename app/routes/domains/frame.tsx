import { useTranslation } from '#app/lib/use-translation.ts'
import { Outlet, useRouteLoaderData } from 'react-router'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import type { Route } from './+types/frame.ts'
import { domainScreen } from './shared.server.ts'
import { StatusBadge } from './shared.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Tabs } from '#app/components/tabs.tsx'

export const FRAME_ID = 'domain-frame'

/** The tabs of a domain, in spec §2 order; '' is the overview. */
export const DOMAIN_TABS = ['', 'dns', 'dnssec', 'log', 'orders', 'dns-log', 'dns-statistics', 'transactions'] as const

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await domainScreen(request, context, params)
  // An id of another account (or none at all) answers 404 from the platform: the error screen.
  const domain = await screen.platform.get('/groups/{context}/domains/{id}', { path: { context: screen.groupContext, id: params.id } })
  const t = getInstance(context).getFixedT(null, 'domains')
  return { domain, canManage: screen.canManage, meta: pageMeta(request, context, domain.unicode_name || domain.name, t('detail.description')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** The frame's data, for the tab screens below it. */
export const useDomainFrame = () => useRouteLoaderData<typeof loader>(FRAME_ID)!

/** /domains/{id} and its tabs: the domain's name and status above a tab bar of links. */
export default function DomainFrame({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation('domains')
  const { domain } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[{ label: t('list.title'), to: '/domains' }]}
        title={<span data-testid="domain-name">{domain.unicode_name || domain.name}</span>}
        status={<StatusBadge status={domain.status} />}
        description={domain.unicode_name && domain.unicode_name !== domain.name ? <span className="font-mono">{domain.name}</span> : null}
      />
      <Tabs label={t('detail.tabs')} testId="domain-tabs" tabs={DOMAIN_TABS.map((tab) => ({ to: `/domains/${params.id}${tab ? `/${tab}` : ''}`, label: t(`tabs.${tab || 'overview'}`) }))} />
      <Outlet />
    </div>
  )
}
