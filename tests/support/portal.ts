import { RouterContextProvider } from 'react-router'
import { appServicesContext, type AppServices } from '#app/lib/app-context.ts'
import { i18nextMiddleware } from '#app/lib/i18n.server.ts'
import { createSession, toSessionUser } from '#app/lib/session.server.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import type { createTestPlatform } from './platform.ts'

type TestPlatform = Awaited<ReturnType<typeof createTestPlatform>>
export const TEST_SESSION_SECRET = 'integration-test-session-secret-0123456789'

/** The portal's services over the test's real Platform API and the same real database. */
export function portalContext(platform: TestPlatform): RouterContextProvider {
  const services: AppServices = {
    client: { ip: '127.0.0.1', userAgent: 'vitest' },
    requestId: 'test',
    platformFetch: async (request) => platform.api.fetch(request),
    env: { appEnv: 'test', supportEmail: 'support@registrar.example', sessionSecret: TEST_SESSION_SECRET, publicUrl: undefined, oidc: null },
    sql: platform.database.pool,
    log: () => {},
  }
  const context = new RouterContextProvider()
  context.set(appServicesContext, services)
  return context
}

type Route = (args: never) => unknown

/** A portal session cookie (`name=value`) for a demo user, signed in as the login page does. */
export async function portalSession(platform: TestPlatform, email: string): Promise<string> {
  const login = await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })
  const me = await platform.call('GET', '/me', { token: login.json.access_token })
  const { cookie } = await createSession(new Request('http://localhost/login', { method: 'POST' }), portalContext(platform), {
    stage: 'active',
    accessToken: login.json.access_token,
    refreshToken: login.json.refresh_token,
    user: toSessionUser(me.json),
  })
  return cookie.split(';')[0]!
}

/**
 * A demo user signed in to the portal: runs a route's loader for a path as a request from that user
 * would (behind the portal's i18n middleware, `pattern` the route's as app/routes.ts writes it), and
 * with `.post` a route's action for a form posted from `origin` (the portal's own unless told).
 */
export async function portalAs(platform: TestPlatform, email: string) {
  const session = await portalSession(platform, email)
  const run = async (route: Route, request: Request, params: Record<string, string>, pattern?: string) => {
    const context = portalContext(platform)
    let result: unknown
    await i18nextMiddleware({ request, context, params } as never, async () => {
      result = await route({ request, context, params, pattern } as never)
      return new Response()
    })
    return result
  }
  const as = (loader: Route, path: string, params: Record<string, string> = {}, pattern?: string) =>
    run(loader, new Request(`http://localhost${path}`, { headers: { cookie: session } }), params, pattern)
  as.post = (action: Route, path: string, form: Record<string, string>, origin = 'http://localhost') =>
    run(
      action,
      new Request(`http://localhost${path}`, { method: 'POST', headers: { cookie: session, origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }),
      {},
    )
  return as
}
