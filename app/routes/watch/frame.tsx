import { Outlet, useRouteLoaderData } from 'react-router'
import { HeaderAction, PageHeader } from '#app/components/page-header.tsx'
import { Tabs } from '#app/components/tabs.tsx'
import { getInstance } from '#app/lib/i18n.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import type { Route } from './+types/frame.ts'
import { watchScreen } from './shared.server.ts'

export const FRAME_ID = 'watch-frame'
/** A watch's tabs (spec §2); '' is its overview. */
export const WATCH_TABS = ['', 'cases', 'domains', 'contacts', 'monitored', 'log'] as const

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const screen = await watchScreen(request, context, params)
  // Another account's id answers 404 from the platform: the error screen.
  const watch = await screen.platform.get('/groups/{context}/watches/{id}', { path: { context: screen.groupContext, id: params.id } })
  const t = getInstance(context).t
  return { watch, canManage: screen.canManage, canAdmin: screen.canAdmin, meta: pageMeta(request, context, watch.name, t('watch:detail.description')) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export const useWatchFrame = () => useRouteLoaderData<typeof loader>(FRAME_ID)!

/** /watch/{id} and its tabs: the watch's name and brand above a tab bar; the three printable reports in its header. */
export default function WatchFrame({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation('watch')
  const { watch } = loaderData
  return (
    <div className="space-y-4">
      <PageHeader
        breadcrumb={[{ label: t('title'), to: '/watch' }]}
        title={<span data-testid="watch-name">{watch.name}</span>}
        description={t('detail.brand', { brand: watch.brand_label })}
        actions={
          <>
            {(['overview', 'detail', 'action'] as const).map((r) => (
              <HeaderAction key={r} to={`/watch/${watch.id}/${r}-report`} data-testid={`report-${r}`}>
                {t(`reports.${r}.short`)}
              </HeaderAction>
            ))}
          </>
        }
      />
      <Tabs label={t('detail.tabs')} testId="watch-tabs" tabs={WATCH_TABS.map((tab) => ({ to: `/watch/${params.id}${tab ? `/${tab}` : ''}`, label: t(`tabs.${tab || 'overview'}`) }))} />
      <Outlet />
    </div>
  )
}
