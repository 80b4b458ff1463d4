import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { expandRoles } from '#app/lib/permissions.ts'
import { directoryRouter } from './accounts/routes.ts'
import { auditRouter } from './audit/http.ts'
import { authRouter } from './auth/http.ts'
import { verifyBearer } from './auth/tokens.ts'
import { AppError, toProblem } from './core/errors.ts'
import { validationHook, type PlatformEnv } from './core/http.ts'
import { dnsRouter } from './dns/http.ts'
import { ordersApi } from './orders/http.ts'
import { domainsRouter } from './domains/http.ts'
import { registerDomainJobs } from './domains/jobs.ts'
import { registerDnsJobs } from './dns/publish.ts'
import { registerContactJobs } from './contacts/registry-sync.ts'
import { trayArea } from './bulk/area.ts'
import type { PlatformDeps } from './deps.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The Platform API: a web-standard handler, mounted at /v1 by the server or run alone. */
export function createPlatformApi(deps: PlatformDeps) {
  const api = new OpenAPIHono<PlatformEnv>({ defaultHook: validationHook, strict: false }).basePath('/v1')

  api.use(async (c, next) => {
    c.set('deps', deps)
    c.set('requestId', c.req.header('x-request-id') ?? crypto.randomUUID())
    c.set('actor', null)
    c.set('tokenId', null)
    const auth = c.req.header('authorization')
    if (auth?.startsWith('Bearer ')) {
      const token = auth.slice('Bearer '.length).trim()
      const shared = c.env?.verifiedBearers
      let verifying = shared?.get(token)
      if (!verifying) {
        verifying = verifyBearer(deps.db, token, deps.now(), deps.tokenCache)
        if (shared) {
          shared.set(token, verifying)
          verifying.catch(() => shared.delete(token))
        }
      }
      const verified = await verifying
      // A two-factor token is good for the code step only; elsewhere it is no credential.
      if (verified && (verified.kind === 'access' || new URL(c.req.url).pathname === '/v1/two_factor_codes')) {
        c.set('actor', verified.actor)
        c.set('tokenId', verified.tokenId)
      }
    }
    // A request that may change things may revoke tokens or change users: this process's cache
    // starts over before and after it (other processes hear of it from the database).
    const changed = SAFE_METHODS.has(c.req.method) ? undefined : deps.tokenCache
    changed?.changing()
    try {
      await next()
    } finally {
      changed?.changing()
    }
    c.header('env', deps.config.APP_ENV)
    const actor = c.get('actor')
    if (actor) {
      c.header('roles', JSON.stringify(expandRoles(actor.roles)))
      c.header('abilities', JSON.stringify(actor.abilities))
    }
  })

  api.use(
    bodyLimit({
      maxSize: deps.config.BODY_LIMIT_BYTES,
      onError: (c) => {
        const problem = toProblem(new AppError(413, 'body-too-large', `The request body exceeds ${deps.config.BODY_LIMIT_BYTES} bytes`), c.get('requestId'))
        return c.json(problem.body, 413, problem.headers)
      },
    }),
  )

  // Bodies are JSON only; anything else is refused before a handler sees it.
  api.use(async (c, next) => {
    if (['POST', 'PUT', 'PATCH'].includes(c.req.method) && c.req.header('content-length') !== '0') {
      const type = c.req.header('content-type') ?? ''
      if (c.req.raw.body && !type.startsWith('application/json')) {
        throw new AppError(415, 'unsupported-media-type', 'Send the request body as application/json')
      }
    }
    await next()
  })

  api.route('/', authRouter)
  api.route('/', auditRouter)
  api.route('/', directoryRouter)
  api.route('/', dnsRouter)
  api.route('/', ordersApi(deps))
  api.route('/', domainsRouter)
  registerDnsJobs(deps)
  registerDomainJobs(deps)
  registerContactJobs(deps)
  api.route('/', trayArea(deps))

  api.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Registrar Platform API',
      version: '1.0.0',
      description: 'Lists take limit, page, sort, fields, filter[field] and pql, and answer { data, meta: { total, page, limit } }. Errors are RFC 9457 problem details.',
    },
    servers: [{ url: '/' }],
  })
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' })

  api.notFound((c) => {
    const problem = toProblem(new AppError(404, 'not-found', `No route ${c.req.method} ${new URL(c.req.url).pathname}`), c.get('requestId'))
    return c.json(problem.body, 404, problem.headers)
  })
  api.onError((error, c) => {
    const problem = toProblem(error, c.get('requestId'))
    if (problem.status >= 500) deps.logger.error('platform error', { request_id: c.get('requestId'), error })
    return c.json(problem.body, problem.status as 400, problem.headers)
  })
  return api
}

export type PlatformApi = ReturnType<typeof createPlatformApi>
