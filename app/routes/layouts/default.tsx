import { data, Outlet } from 'react-router'
import { DefaultFooter } from '#app/components/shell/footers.tsx'
import { DefaultHeader } from '#app/components/shell/default-header.tsx'
import { SideNav } from '#app/components/shell/side-nav.tsx'
import { listAccountChoices } from '#app/lib/accounts.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { readCookie } from '#app/lib/cookies.server.ts'
import { getLocale } from '#app/lib/i18n.server.ts'
import { visibleAreas } from '#app/lib/navigation.ts'
import { readPermissionView } from '#app/lib/permission-view.server.ts'
import { hasPermission } from '#common/permissions.ts'
import { getUser, requireUser } from '#app/lib/session.server.ts'
import { isTheme } from '#app/lib/theme.ts'
import { trayCount } from '#app/lib/tray.server.ts'
import type { Route } from './+types/default.ts'
import { requestUrl } from '#app/lib/request-url.ts'

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const url = requestUrl(request)
  // An unmatched path (the splat of not-found.tsx) is Page Not Found for everyone; only a signed-in person sees it in the shell.
  if (params['*'] !== undefined && !(await getUser(request, context))) throw data(`Page Not Found ${url.pathname}`, { status: 404 })
  const user = await requireUser(request, context)
  const view = readPermissionView(request)
  const isStaff = hasPermission(user, 'staff', { view })
  const theme = readCookie(request, 'theme')
  return {
    user: { name: user.name, email: user.email, group_id: user.group_id },
    areas: visibleAreas(user, view).map((a) => ({ key: a.key, group: a.group, href: a.href, prefixes: a.prefixes })),
    isStaff,
    context: activeContext(url, user.group_id),
    accounts: isStaff ? await listAccountChoices(request, context, user) : [],
    trayCount: await trayCount(request, context, activeContext(url, user.group_id)),
    locale: getLocale(context),
    theme: isTheme(theme) ? theme : user.dark_theme ? 'dark' : 'light',
  }
}

export type ShellData = Awaited<ReturnType<typeof loader>>

export default function DefaultLayout({ loaderData }: Route.ComponentProps) {
  const staff = loaderData.isStaff ? { accounts: loaderData.accounts, context: loaderData.context, ownGroup: loaderData.user.group_id } : null
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only">
        Skip
      </a>
      <DefaultHeader shell={loaderData} />
      <div className="flex w-full flex-1">
        <SideNav areas={loaderData.areas} staff={staff} />
        <div className="flex min-w-0 flex-1 flex-col">
          <main id="main" className="mx-auto w-full max-w-screen-2xl min-w-0 flex-1 p-4 lg:p-6">
            <Outlet />
          </main>
          <DefaultFooter />
        </div>
      </div>
    </div>
  )
}
