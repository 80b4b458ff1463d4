import { OpenAPIHono, type Hook, type RouteConfig } from '@hono/zod-openapi'
import type { Context, Handler } from 'hono'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { AppError, badRequest, fieldErrorsFromZod, notFound, toProblem, unauthorized } from './errors.ts'
import { carriesBody } from './methods.ts'
import type { RouteAccess } from './openapi.ts'
import { isStaff, requirePermission, type Actor, type Scope } from './scope.ts'
import type { VerifiedToken } from '#server/platform/auth/tokens.ts'

/** Who is at the other end of a request: its address (as the server established it) and user agent. */
export type Client = { ip: string; userAgent: string }

/**
 * What an in-process caller may hand the API beside a request (Hono's env); a request that comes
 * over HTTP has none of it. `verifiedBearers`: the tokens already verified while the caller serves
 * ONE request that changes nothing (the portal's GET renders call the API three or four times with
 * the same token, and each call read the same token row again). Whoever passes it makes it new for
 * every request and never for one that may change data (see `platformFetcher`).
 */
export type PlatformBindings =
  | {
      verifiedBearers?: Map<string, Promise<VerifiedToken | null>>
      /**
       * Who is at the other end, as the server in front of the API established it (the socket
       * and TRUST_PROXY; for the portal's calls, the browser behind the portal). Never read from
       * a header of the request itself.
       */
      client?: Client
    }
  | undefined

export type PlatformEnv = {
  Bindings: PlatformBindings
  Variables: {
    deps: PlatformDeps
    requestId: string
    actor: Actor | null
    /** Id of the access token used, for logout and session bookkeeping. */
    tokenId: string | null
  }
}

/** Validation failures of request schemas answer 400 problem+json naming each field. */
export const validationHook: Hook<any, PlatformEnv, any, any> = (result, c) => {
  if (!result.success) {
    const problem = toProblem(badRequest('The request is not valid', fieldErrorsFromZod(result.error)), c.get('requestId'))
    return c.json(problem.body, 400, problem.headers)
  }
}

/**
 * A router of one area; its routes land in the OpenAPI document. Every route declares who may call
 * it (`...access(permission)`, core/openapi.ts) and the router enforces that declaration before the
 * handler runs (after the request's schemas are checked): `public` as it is, `signed-in` a 401
 * without a bearer, a permission name also a 403 naming it, `{ session: true }` a 403
 * `token.not_allowed` for an API token. A route that declares nothing is refused
 * when it is registered, so the document and the check can never disagree.
 */
export function createRouter() {
  const router = new OpenAPIHono<PlatformEnv>({ defaultHook: validationHook, strict: false })
  const register = router.openapi.bind(router) as (route: RouteConfig, handler: Handler<PlatformEnv>, hook?: unknown) => unknown
  router.openapi = ((route: DeclaredRoute, handler: Handler<PlatformEnv>, hook?: unknown) => register(route, guarded(route, bodiless(route, handler)), hook)) as unknown as typeof router.openapi
  return router
}

type DeclaredRoute = RouteConfig & { 'x-permission'?: RouteAccess; 'x-session-only'?: true }

function guarded(route: DeclaredRoute, handler: Handler<PlatformEnv>): Handler<PlatformEnv> {
  const permission = route['x-permission']
  if (!permission) throw new Error(`${route.method.toUpperCase()} ${route.path} declares no access: spread access('<permission>' | 'signed-in' | 'public') into its createRoute`)
  if (permission === 'public') return handler
  const sessionOnly = route['x-session-only'] === true
  return (c, next) => {
    const actor = requireActor(c)
    if (sessionOnly && actor.token) throw new AppError(403, 'token.not_allowed', 'An API token cannot do this: sign in')
    if (permission !== 'signed-in') requirePermission(actor, permission)
    return handler(c, next)
  }
}

const CHANGES = new Set(['post', 'put', 'patch', 'delete'])

/**
 * An operation that declares no request body takes none: a body sent to it (which the handler
 * would never read) is a 400 `body-not-allowed`, so a client learns its fields went nowhere. No
 * body at all — including `curl -X POST` with neither a length nor a type — is what it takes.
 */
function bodiless(route: DeclaredRoute, handler: Handler<PlatformEnv>): Handler<PlatformEnv> {
  if (route.request?.body || !CHANGES.has(route.method)) return handler
  return async (c, next) => {
    if (await carriesBody(c))
      throw new AppError(400, 'body-not-allowed', `${route.method.toUpperCase()} ${route.path} takes no request body`, {
        errors: [{ field: '(body)', message: 'This operation takes no request body' }],
      })
    return handler(c, next)
  }
}

/** The signed-in actor, or a 401. */
export function requireActor(c: Context<PlatformEnv>): Actor {
  const actor = c.get('actor')
  if (!actor) throw unauthorized()
  return actor
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The scope of a `/groups/{context}/…` request. Non-staff may only act in their own account;
 * any other context answers 404 so that the existence of other accounts is never confirmed.
 */
export function requireScope(c: Context<PlatformEnv>, context: string | undefined): Scope {
  const actor = requireActor(c)
  if (!context || !UUID.test(context)) throw notFound('Account not found')
  if (context !== actor.homeAccountId && !isStaff(actor)) throw notFound('Account not found')
  // An API token bound to one account acts in that account only.
  if (actor.token?.accountId && context.toLowerCase() !== actor.token.accountId) throw notFound('Account not found')
  return { actor, accountId: context.toLowerCase(), requestId: c.get('requestId') }
}

/** The scope of a request outside any group: the actor's own account. */
export function requireOwnScope(c: Context<PlatformEnv>): Scope {
  const actor = requireActor(c)
  return { actor, accountId: actor.homeAccountId, requestId: c.get('requestId') }
}

export { UUID as UUID_PATTERN }
