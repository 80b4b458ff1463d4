import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import { RouterContextProvider, createRequestHandler, type ServerBuild } from 'react-router'
import { appServicesContext } from '#app/lib/app-context.ts'
import { PORTAL_SECURITY_HEADERS } from '#app/lib/csp.server.ts'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/database.ts'
import { isMigrated } from '#server/db/migrate.ts'
import type { Logger } from '#server/lib/logger.ts'
import { toProblem } from '#server/platform/core/errors.ts'
import type { PlatformBindings } from '#server/platform/core/http.ts'

type Vars = { requestId: string }

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
  const app = new Hono<{ Variables: Vars }>()

  app.use(async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
    c.set('requestId', requestId)
    const started = performance.now()
    await next()
    c.header('X-Request-Id', requestId)
    const url = new URL(c.req.url)
    if (!url.pathname.startsWith('/assets/')) {
      logger.info('request', {
        request_id: requestId,
        method: c.req.method,
        path: url.pathname,
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
    return platformApi.fetch(request)
  })

  if (build && clientDir) {
    const root = path.relative(process.cwd(), clientDir) || '.'
    app.use(
      '/assets/*',
      serveStatic({
        root,
        onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
      }),
    )
    // The build keeps Vite's manifest in build/client/.vite/ (npm run budget:js reads it): a map of
    // every source file to its chunk, which is nobody's business outside the server.
    app.all('/.vite/*', (c) => c.text('Not Found', 404))
    app.use(
      '*',
      serveStatic({ root, onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=3600') }),
    )
    const handle = createRequestHandler(build, config.NODE_ENV === 'development' ? 'development' : 'production')
    app.all('*', async (c) => {
      const context = new RouterContextProvider()
      context.set(appServicesContext, {
        requestId: c.get('requestId'),
        platformFetch: platformFetcher(config, platformApi, c.get('requestId'), { changesNothing: c.req.method === 'GET' || c.req.method === 'HEAD' }),
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
  served: { changesNothing: boolean } = { changesNothing: false },
): (request: Request) => Promise<Response> {
  const base = config.PLATFORM_URL ? new URL(config.PLATFORM_URL) : null
  const bindings: PlatformBindings = served.changesNothing ? { verifiedBearers: new Map() } : undefined
  return async (request) => {
    const headers = withRequestId(request.headers, requestId)
    if (!base) return platformApi.fetch(new Request(request, { headers }), bindings)
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
