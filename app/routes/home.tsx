import { useTranslation } from '#app/lib/use-translation.ts'
import { Link, redirect, useRouteLoaderData } from 'react-router'
import { Card } from '#app/components/ui/card.tsx'
import { carryContext } from '#app/lib/context-param.ts'
import { metaTags } from '#app/lib/meta.ts'
import { isProspectOnly } from '#app/lib/navigation.ts'
import { pageMeta } from '#app/lib/page-meta.server.ts'
import { readPermissionView } from '#app/lib/permission-view.server.ts'
import { requireUser } from '#app/lib/session.server.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import type { ShellData } from './layouts/default.tsx'
import type { Route } from './+types/home.ts'
import { requestUrl } from '#app/lib/request-url.ts'

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context)
  const url = requestUrl(request)
  // Spec §2: prospect viewers without brand-viewer or staff live in intelligence.
  if (isProspectOnly(user, readPermissionView(request))) throw redirect(carryContext('/intelligence', url.searchParams))
  return { name: user.name, meta: pageMeta(request, context, null) }
}

export const meta: Route.MetaFunction = ({ loaderData }) => metaTags(loaderData?.meta)

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('common')
  const shell = useRouteLoaderData('routes/layouts/default') as ShellData | undefined
  const href = useContextHref()
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{t('home.welcome', { name: loaderData.name })}</h1>
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {(shell?.areas ?? []).map((area) => (
          <li key={area.key}>
            <Card className="h-full">
              <Link to={href(area.href)} className="font-medium hover:underline">
                {t(`nav.${area.key}`)}
              </Link>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  )
}
