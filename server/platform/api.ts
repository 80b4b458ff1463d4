import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { expandRoles } from '#common/permissions.ts'
import { directoryRouter } from './accounts/routes.ts'
import { auditRouter } from './audit/http.ts'
import { dashboardRouter } from './dashboard/http.ts'
import { reportsRouter } from './reports/http.ts'
import { registerReportsJobs } from './reports/jobs.ts'
import { jobsRouter } from './jobs/http.ts'
import { authRouter } from './auth/http.ts'
import { verifyBearer } from './auth/tokens.ts'
import { admitApiToken } from './api-tokens/edge.ts'
import { apiTokensRouter } from './api-tokens/http.ts'
import { registerApiTokenJobs } from './api-tokens/jobs.ts'
import { registerWebhookDocs, webhooksRouter } from './webhooks/http.ts'
import { registerWebhookJobs } from './webhooks/jobs.ts'
import { AppError, toProblem } from './core/errors.ts'
import { validationHook, type PlatformEnv } from './core/http.ts'
import { allowedMethods, carriesBody, methodNotAllowed } from './core/methods.ts'
import { serveOpenApiDocument } from './core/openapi.ts'
import { refuseUnsafeText } from './core/unsafe-text.ts'
import { withCanonicalPath } from './core/request-path.ts'
import { ZONE_FILE_MAX_BYTES, ZONE_FILE_MEDIA_TYPE } from '#common/zone-file.ts'
import { dnsRouter } from './dns/http.ts'
import { ordersRouter } from './orders/http.ts'
import { registerOrderJobs } from './orders/jobs.ts'
import { domainsRouter } from './domains/http.ts'
import { registerDomainJobs } from './domains/jobs.ts'
import { registerDnsJobs } from './dns/jobs.ts'
import { registerContactJobs } from './contacts/jobs.ts'
import { trayRouter } from './tray/http.ts'
import { bulkRouter } from './bulk/http.ts'
import { registerBulkJobs } from './bulk/jobs.ts'
import { materialRouter } from './material-changes/http.ts'
import { registerMaterialJobs } from './material-changes/jobs.ts'
import { changeSetsRouter } from './change-sets/http.ts'
import { registerChangeSetJobs } from './change-sets/jobs.ts'
import { approvalsRouter } from './approvals/http.ts'
import { sslRouter } from './ssl/http.ts'
import { sslOrganisationsRouter } from './ssl/organisations-http.ts'
import { brandRouter } from './brand/http.ts'
import { registerBrandJobs } from './brand/jobs.ts'
import { intelligenceRouter } from './intelligence/http.ts'
import { registerIntelligenceJobs } from './intelligence/jobs.ts'
import { watchRouter } from './watch/http.ts'
import { registerWatchJobs } from './watch/jobs.ts'
import { blocksRouter } from './blocks/http.ts'
import { registerBlockJobs } from './blocks/jobs.ts'
import { billingRouter } from './billing/http.ts'
import { registerBillingJobs } from './billing/jobs.ts'
import { registerPricingJobs } from './pricing/jobs.ts'
import { registerSslJobs } from './ssl/jobs.ts'
import { productsRouter } from './products/http.ts'
import { pricingRouter } from './pricing/http.ts'
import type { PlatformDeps } from './deps.ts'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const isZoneFileImport = (path: string) => /^\/v1\/groups\/[^/]+\/zones\/[^/]+\/bind-import$/.test(path)

/**
 * Every area of the API: its routes (mounted in this order) and the registration of its jobs and
 * their schedules, the one its `jobs.ts` exports (decision 026). A new area is one line here
 * (ARCHITECTURE.md).
 */
const AREAS: { routes: OpenAPIHono<PlatformEnv>; jobs?: (deps: PlatformDeps) => void }[] = [
  { routes: authRouter },
  { routes: apiTokensRouter, jobs: registerApiTokenJobs },
  { routes: auditRouter },
  { routes: directoryRouter, jobs: registerContactJobs },
  { routes: dnsRouter, jobs: registerDnsJobs },
  { routes: ordersRouter, jobs: registerOrderJobs },
  { routes: domainsRouter, jobs: registerDomainJobs },
  { routes: dashboardRouter },
  { routes: reportsRouter, jobs: registerReportsJobs },
  { routes: jobsRouter },
  { routes: trayRouter },
  { routes: bulkRouter, jobs: registerBulkJobs },
  { routes: materialRouter, jobs: registerMaterialJobs },
  { routes: approvalsRouter },
  { routes: changeSetsRouter, jobs: registerChangeSetJobs },
  { routes: productsRouter },
  { routes: pricingRouter, jobs: registerPricingJobs },
  { routes: sslRouter, jobs: registerSslJobs },
  { routes: sslOrganisationsRouter },
  { routes: webhooksRouter, jobs: registerWebhookJobs },
  { routes: billingRouter, jobs: registerBillingJobs },
  { routes: blocksRouter, jobs: registerBlockJobs },
  { routes: brandRouter, jobs: registerBrandJobs },
  { routes: intelligenceRouter, jobs: registerIntelligenceJobs },
  { routes: watchRouter, jobs: registerWatchJobs },
]

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
      if (verified?.kind === 'api' && verified.api) {
        // An API token: its addresses, rate limit, last use and domain scope (issue 20).
        c.set('actor', verified.actor)
        await admitApiToken(c, verified.actor, verified.api)
      } else if (verified && (verified.kind === 'access' || new URL(c.req.url).pathname === '/v1/two_factor_codes')) {
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
    // No answer of the API is to be sniffed as another type, or kept by a shared cache: most are
    // behind a token; the public ones (the OpenAPI document) may be kept by the browser only.
    c.header('X-Content-Type-Options', 'nosniff')
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', c.get('actor') || c.req.header('authorization') ? 'private, no-store' : 'no-cache')
    const actor = c.get('actor')
    if (actor) {
      c.header('roles', JSON.stringify(expandRoles(actor.roles)))
      c.header('abilities', JSON.stringify(actor.abilities))
    }
  })

  // One limit for every body, but a zone file's: that one is ZONE_FILE_MAX_BYTES, the same the
  // portal states and checks (a zone file sent as text/dns is streamed into the parser).
  const limit = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: (c) => {
        const problem = toProblem(new AppError(413, 'body-too-large', `The request body exceeds ${maxSize} bytes`), c.get('requestId'))
        return c.json(problem.body, 413, problem.headers)
      },
    })
  const generalLimit = limit(deps.config.BODY_LIMIT_BYTES)
  const zoneFileLimit = limit(ZONE_FILE_MAX_BYTES)
  api.use((c, next) => (isZoneFileImport(c.req.path) ? zoneFileLimit(c, next) : generalLimit(c, next)))

  // Bodies are JSON only; anything else is refused before a handler sees it. Text that cannot be
  // stored (NUL, lone surrogates) is refused here for every operation, in the URL or the body,
  // naming the field (the parsed body is kept by Hono for the handler's own validation).
  api.use(async (c, next) => {
    let body: unknown
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(c.req.method) && c.req.header('content-length') !== '0' && c.req.raw.body) {
      const type = c.req.header('content-type') ?? ''
      if (type.startsWith(ZONE_FILE_MEDIA_TYPE) && isZoneFileImport(c.req.path)) {
        // A zone file streamed to the parser: its text is the parser's to judge, line by line.
      } else if (!type.startsWith('application/json')) {
        if (c.req.method !== 'DELETE' && (await carriesBody(c))) throw new AppError(415, 'unsupported-media-type', 'Send the request body as application/json')
      } else {
        // Malformed JSON is the handler's to refuse, with its own message.
        body = await c.req.json().catch(() => undefined)
      }
    }
    refuseUnsafeText(new URL(c.req.url), body)
    await next()
  })

  for (const area of AREAS) {
    api.route('/', area.routes)
    area.jobs?.(deps)
  }

  serveOpenApiDocument(api, '/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'Registrar Platform API',
      version: '1.0.0',
      description: 'Lists take limit, page, sort, fields, filter[field] and pql, and answer { data, meta: { total, page, limit } }. Errors are RFC 9457 problem details.',
      contact: { name: 'Registrar support', email: deps.config.SUPPORT_EMAIL },
    },
    servers: [{ url: '/' }],
  })
  api.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' })
  registerWebhookDocs(api.openAPIRegistry)

  // Routing and every check read one spelling of the path (core/request-path.ts, decision 021):
  // the HTTP mount and the portal's in-process calls both come in through this fetch.
  const route = api.fetch
  api.fetch = (request, ...rest) => {
    let canonical: Request
    try {
      canonical = withCanonicalPath(request)
    } catch (error) {
      const problem = toProblem(error, request.headers.get('x-request-id') ?? crypto.randomUUID())
      return new Response(JSON.stringify(problem.body), { status: problem.status, headers: { ...problem.headers, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' } })
    }
    return route(canonical, ...rest)
  }

  // A path that exists with other methods is a 405 naming them (Allow); one that does not, a 404.
  const methodsOf = allowedMethods(() => api.routes)
  api.notFound((c) => {
    const path = new URL(c.req.url).pathname
    const allowed = methodsOf(path)
    const problem = toProblem(allowed.length ? methodNotAllowed(c.req.method, allowed) : new AppError(404, 'not-found', `No route ${c.req.method} ${path}`), c.get('requestId'))
    return c.json(problem.body, problem.status as 404, problem.headers)
  })
  api.onError((error, c) => {
    const problem = toProblem(error, c.get('requestId'))
    if (problem.status >= 500) deps.logger.error('platform error', { request_id: c.get('requestId'), error })
    return c.json(problem.body, problem.status as 400, problem.headers)
  })
  return api
}

export type PlatformApi = ReturnType<typeof createPlatformApi>
