import { Form, redirect } from 'react-router'
import { assertSameOrigin } from '#app/lib/auth/csrf.server.ts'
import { buttonClass } from '#app/lib/auth/fields.tsx'
import { logoutDestination } from '#app/lib/auth/sso.server.ts'
import { platformForSession } from '#app/lib/platform.server.ts'
import { TAB_MARKER_COOKIE, destroySession, getSession, isSecureRequest, services } from '#app/lib/session.server.ts'
import type { Route } from './+types/logout.ts'

/** GET changes nothing (spec §4): a signed-in user goes to /, anyone else to /login. Sign-out is a POST. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await getSession(request, context)
  throw redirect(session?.stage === 'active' ? '/' : '/login')
}

/** POST /v1/logout, the session row and cookie gone, then the provider's logout or /login (spec §4). */
export async function action({ request, context }: Route.ActionArgs) {
  const { env, log } = services(context)
  assertSameOrigin(request, { publicUrl: env.publicUrl })
  const session = await getSession(request, context)
  if (session?.stage === 'active') {
    try {
      const response = await platformForSession(request, context, session).raw('/logout', { method: 'POST', priority: true })
      await response.body?.cancel()
    } catch (error) {
      // The portal session ends whatever the platform says.
      if (!(error instanceof Response)) log('warn', 'platform logout failed', { error: String(error) })
    }
  }
  const headers = new Headers()
  headers.append('Set-Cookie', await destroySession(request, context))
  headers.append('Set-Cookie', `${TAB_MARKER_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${isSecureRequest(request) ? '; Secure' : ''}`)
  log('info', 'signed out', { user_id: session?.userId ?? null })
  return redirect(logoutDestination(request, context, Boolean(session?.tokens.ssoToken)), { headers })
}

/** Never rendered (the loader always redirects); kept so that a POST from any page lands here. */
export default function Logout() {
  return (
    <main className="p-8">
      <Form method="post" action="/logout">
        <button type="submit" className={buttonClass}>
          Sign out
        </button>
      </Form>
    </main>
  )
}
