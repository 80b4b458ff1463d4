import { Outlet, useRouteLoaderData } from 'react-router'
import { Badge } from '#app/components/ui/badge.tsx'
import { PageHeader } from '#app/components/page-header.tsx'
import { Tabs } from '#app/components/tabs.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/frame.ts'
import { itemScreen } from './item.server.ts'

export const FRAME_ID = 'intelligence-frame'

/** The tabs of an item, in spec §2's order; '' is its overview (its runs). */
export const ITEM_TABS = ['', 'results', 'patterns', 'ssl-focus', 'traffic-focus', 'registry-lock-focus', 'log'] as const

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await itemScreen(request, context, params)
  const [item, runs] = await Promise.all([
    screen.platform.get('/groups/{context}/intelligence/items/{id}', { path: screen.path }),
    screen.platform.get('/groups/{context}/intelligence/items/{id}/runs', { path: screen.path }),
  ])
  const t = getInstance(context).t
  return { item, runs: runs.data, canManage: screen.canManage, meta: pageMeta(request, context, item.name, t('intelligence:detail.description')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

/** The frame's data, for the tab screens below it. */
export const useItemFrame = () => useRouteLoaderData<typeof loader>(FRAME_ID)!

/** /intelligence/{id} and its tabs: the item's name, kind and brand above a tab bar. */
export default function ItemFrame({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation('intelligence')
  const { item } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[{ label: t('title'), to: '/intelligence' }]}
        title={<span data-testid="intelligence-item-name">{item.name}</span>}
        status={<Badge color={item.kind === 'prospect' ? 'amber' : 'blue'}>{t(`kind.${item.kind}`)}</Badge>}
        description={<span className="font-mono">{[item.brand, ...item.strings].join(' · ')}</span>}
      />
      <Tabs
        label={t('detail.tabs')}
        testId="intelligence-tabs"
        tabs={ITEM_TABS.map((tab) => ({ to: `/intelligence/${params.id}${tab ? `/${tab}` : ''}`, label: t(`tabs.${tab || 'overview'}`), testId: `intelligence-tab-${tab || 'overview'}` }))}
      />
      <Outlet />
    </div>
  )
}
