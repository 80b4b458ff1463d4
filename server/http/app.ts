import { randomUUID } from 'node:crypto'
import { readdirSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import { compress } from 'hono/compress'
import { RouterContextProvider, createRequestHandler, type ServerBuild } from 'react-router'
import { unstable_preloadRoutePattern } from 'react-router/route-pattern'
import { appServicesContext } from '#app/lib/app-context.ts'
import { PORTAL_SECURITY_HEADERS } from '#app/lib/csp.server.ts'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/database.ts'
import { isMigrated } from '#server/db/migrate.ts'
import type { Logger } from '#server/lib/logger.ts'
import { toProblem } from '#server/platform/core/errors.ts'
import type { PlatformBindings } from '#server/platform/core/http.ts'
import type { Client } from '#server/platform/core/http.ts'
import { clientAddress, parseTrustProxy } from './client-address.ts'

type Vars = { requestId: string; client: Client }
/** What @hono/node-server hands each request: Node's own request (its socket tells the peer). */
type NodeBindings = { incoming?: IncomingMessage } | undefined

export type ServerAppOptions = {
  config: Config
  database: Database
  logger: Logger
  platformApi: { fetch: (request: Request, bindings?: PlatformBindings) => Response | Promise<Response> }
  /** The React Router server build; absent when only the API is served. */
  build?: ServerBuild
  clientDir?: string
}

const SAFE_REQUEST_ID = /^[\w.:-]{8,128}$/

/** The one process: health probes, the Platform API under /v1, static assets and the portal. */
export function createServerApp({ config, database, logger, platformApi, build, clientDir }: ServerAppOptions) {
  const app = new Hono<{ Variables: Vars; Bindings: NodeBindings }>()
  const trust = parseTrustProxy(config.TRUST_PROXY)

  app.use(async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
    c.set('requestId', requestId)
    // Who is at the other end: the socket's peer, or what a TRUST_PROXY hop says (never the client's own say).
    c.set('client', {
      ip: clientAddress(c.env?.incoming?.socket.remoteAddress, c.req.header('x-forwarded-for'), trust),
      userAgent: (c.req.header('user-agent') ?? '').slice(0, 500),
    })
    const started = performance.now()
    await next()
    c.header('X-Request-Id', requestId)
    const path = c.req.path
    if (!path.startsWith('/assets/')) {
      logger.info('request', {
        request_id: requestId,
        method: c.req.method,
        path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      })
    }
  })

  // Every portal response carries the baseline security headers (HSTS, no sniffing, no framing);
  // the document's Content-Security-Policy is set by the server entry, which makes its nonce.
  app.use(async (c, next) => {
    await next()
    if (c.req.path === '/v1' || c.req.path.startsWith('/v1/')) return
    for (const [name, value] of Object.entries(PORTAL_SECURITY_HEADERS)) c.header(name, value)
  })

  app.onError((error, c) => {
    logger.error('unhandled error', { request_id: c.get('requestId'), error })
    const problem = toProblem(error, c.get('requestId'))
    return c.json(problem.body, problem.status as 500, problem.headers)
  })

  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  app.get('/readyz', async (c) => {
    try {
      await database.pool.query('SELECT 1')
      if (!(await isMigrated(database))) return c.json({ status: 'migrating' }, 503)
      return c.json({ status: 'ready' })
    } catch {
      return c.json({ status: 'database unreachable' }, 503)
    }
  })

  app.all('/v1', (c) => c.redirect('/v1/openapi.json'))
  // The Platform API sees the request id through the header, like any other client.
  app.all('/v1/*', async (c) => {
    const request = new Request(c.req.raw, { headers: withRequestId(c.req.raw.headers, c.get('requestId')) })
    return platformApi.fetch(request, { client: c.get('client') })
  })

  if (build && clientDir) {
    const root = path.relative(process.cwd(), clientDir) || '.'
    app.use(
      '/assets/*',
      serveStatic({
        root,
        // The build writes each script and style sheet also as .br and .gz (vite.config.ts): a phone
        // on a slow line fetched the 345 KB framework bundle uncompressed (issue 28, Lighthouse).
        precompressed: true,
        onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
      }),
    )
    // The build keeps Vite's manifest in build/client/.vite/ (npm run budget:js reads it): a map of
    // every source file to its chunk, which is nobody's business outside the server.
    app.all('/.vite/*', (c) => c.text('Not Found', 404))
    // The other files of build/client (favicons …), known at start: a page request is not first
    // looked up on disk (a stat per request, ~2 % of the sign-in page's CPU, issue 13).
    const publicFiles = new Set(
      readdirSync(clientDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `/${path.relative(clientDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`)
        .filter((file) => !file.startsWith('/assets/') && !file.startsWith('/.vite/')),
    )
    const servePublic = serveStatic({ root, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=3600') })
    app.use('*', (c, next) => (publicFiles.has(c.req.path) ? servePublic(c, next) : next()))
    const mode = config.NODE_ENV === 'development' ? 'development' : 'production'
    const handlePatterns = createRequestHandler(withRoutePatternMatching(build), mode)
    // A path with an empty segment ('/domains//') is matched as the browser's router matches it.
    const handleRegExps = createRequestHandler(build, mode)
    const handle = (request: Request, context: RouterContextProvider) => (request.url.indexOf('//', 8) < 0 ? handlePatterns : handleRegExps)(request, context)
    // Documents gzipped as they stream (a /domains page: 82 KB → about 12 KB on the wire).
    app.use('*', compress({ encoding: 'gzip' }))
    app.all('*', async (c) => {
      const context = new RouterContextProvider()
      context.set(appServicesContext, {
        requestId: c.get('requestId'),
        platformFetch: platformFetcher(config, platformApi, c.get('requestId'), { changesNothing: c.req.method === 'GET' || c.req.method === 'HEAD', client: c.get('client') }),
        client: c.get('client'),
        env: {
          appEnv: config.APP_ENV,
          supportEmail: config.SUPPORT_EMAIL,
          sessionSecret: config.sessionSecret,
          publicUrl: config.PUBLIC_URL,
          oidc: config.OIDC_ISSUER && config.OIDC_CLIENT_ID ? { issuer: config.OIDC_ISSUER, clientId: config.OIDC_CLIENT_ID } : null,
        },
        sql: database.pool,
        log: (level, msg, fields) => logger[level](msg, { request_id: c.get('requestId'), ...fields }),
      })
      return handle(c.req.raw, context)
    })
  }
  return app
}

/**
 * How the portal calls the Platform API for one request: in process by default, or over HTTP at
 * PLATFORM_URL when the API runs elsewhere. Same contract either way: a /v1/… Request in, the
 * API's Response out, the request id passed along.
 *
 * In process, the calls of a portal request that changes nothing (GET, HEAD: no GET changes
 * anything) share their token verification: the first call reads the token, the others of the same
 * request reuse the answer. A request that may change data (an action: a password change revokes
 * every token mid-request) verifies on every call.
 */
export function platformFetcher(
  config: Pick<Config, 'PLATFORM_URL'>,
  platformApi: ServerAppOptions['platformApi'],
  requestId: string,
  served: { changesNothing: boolean; client?: Client } = { changesNothing: false },
): (request: Request) => Promise<Response> {
  const base = config.PLATFORM_URL ? new URL(config.PLATFORM_URL) : null
  const bindings: PlatformBindings = { ...(served.changesNothing ? { verifiedBearers: new Map() } : {}), ...(served.client ? { client: served.client } : {}) }
  return async (request) => {
    const headers = withRequestId(request.headers, requestId)
    if (!base) return withTextAtHand(await platformApi.fetch(new Request(request, { headers }), bindings))
    // Split: the portal is the browser's proxy. The API believes this only where TRUST_PROXY
    // names the portal's address; from anyone else the header is ignored.
    if (served.client) {
      headers.set('x-forwarded-for', served.client.ip)
      headers.set('user-agent', served.client.userAgent)
    }
    const incoming = new URL(request.url)
    // PLATFORM_URL may carry a path prefix (https://api.example/registrar): keep it.
    const target = new URL(base)
    target.pathname = `${base.pathname.replace(/\/$/, '')}${incoming.pathname}`
    target.search = incoming.search
    headers.delete('host')
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
    return fetch(target, { method: request.method, headers, body, redirect: 'manual' })
  }
}

function withRequestId(headers: Headers, requestId: string): Headers {
  const copy = new Headers(headers)
  copy.set('x-request-id', requestId)
  return copy
}

/**
 * The server matches URLs to routes with React Router's route-pattern matcher (a trie) instead of
 * trying the ~150 routes' regular expressions one by one in rank order — four times per document:
 * the handler, the static handler, the render, the partial manifest (decision 014). The browser's
 * router keeps its own matcher: the flag is left out of the future flags the document hands it
 * (`toJSON`), so the client bundle does not carry the route-pattern code.
 */
function withRoutePatternMatching(build: ServerBuild): ServerBuild {
  unstable_preloadRoutePattern()
  const shared = { ...build.future }
  const future = { ...shared, unstable_routePatternMatching: true, toJSON: () => shared }
  return { ...build, future: future as unknown as ServerBuild['future'] }
}

/**
 * An in-process API answer's text, read as it is. The API's JSON answers are Hono's node-server
 * Responses holding their body as a string; reading `text()` made Node's fetch Response of it first
 * (the string encoded to bytes, then decoded again: ~60 µs for a 4 KB answer, a few per page). When
 * the string is at hand, `text` and `json` answer from it; anything else reads the Response as usual.
 */
function withTextAtHand(response: Response): Response {
  const cache = Object.getOwnPropertySymbols(response).find((symbol) => symbol.description === 'cache')
  const body = cache ? (response as unknown as Record<symbol, unknown[] | undefined>)[cache]?.[1] : undefined
  if (typeof body !== 'string') return response
  Object.defineProperties(response, {
    text: { value: async () => body },
    json: { value: async () => JSON.parse(body) as unknown },
  })
  return response
}
