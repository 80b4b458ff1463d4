import { AreaPlaceholder } from '#app/components/area-placeholder.tsx'
import { requireScreen, validateIds } from '#app/lib/guards.server.ts'
import { metaTags } from '#app/lib/meta.ts'
import { areaForPath } from '#app/lib/navigation.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import type { Route } from './+types/area-placeholder.ts'
import { requestUrl } from '#app/lib/request-url.ts'

/** Which empty state a path shows: its navigation area, or the non-area screens. */
function placeholderArea(pathname: string): { key: string; isPublic: boolean } {
  if (pathname === '/api' || pathname.startsWith('/api/')) return { key: 'docs', isPublic: true }
  if (pathname.startsWith('/approvals/')) return { key: 'approvals', isPublic: true }
  if (pathname.startsWith('/tray')) return { key: 'tray', isPublic: false }
  return { key: areaForPath(pathname)?.key ?? 'generic', isPublic: false }
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { pathname } = requestUrl(request)
  const area = placeholderArea(pathname)
  if (area.isPublic) validateIds(params, pathname)
  else await requireScreen(request, context, params)
  // No page name of its own: a screen reached by words is named by its last one (app/lib/titles.ts),
  // and one about a thing not built yet has no name to show ("Portal - Cases - Watch").
  return { area: area.key, meta: pageMeta(request, context, null) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Placeholder({ loaderData }: Route.ComponentProps) {
  return <AreaPlaceholder area={loaderData.area} />
}
