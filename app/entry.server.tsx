import { Writable } from 'node:stream'
import { createInstance, type i18n } from 'i18next'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router'
import { DEFAULT_LANGUAGE } from './lib/i18n.ts'
import { serverI18nOptions } from './lib/i18n-resources.server.ts'
import { getInstance } from './lib/i18n.server.ts'
import { addTextFormats } from '#common/translator.ts'
import { appServicesContext } from './lib/app-context.ts'
import { NonceContext } from './lib/csp.ts'
import { contentSecurityPolicy, newNonce } from './lib/csp.server.ts'

export const streamTimeout = 5_000

/**
 * The i18next instance the middleware made for this request; when the middleware never ran
 * (an error before the root matched) a fresh English one, so the error screen still renders.
 */
function requestI18n(context: RouterContextProvider): i18n {
  try {
    return getInstance(context)
  } catch {
    const instance = createInstance({ ...serverI18nOptions, lng: DEFAULT_LANGUAGE })
    instance.use(initReactI18next)
    void instance.init().then(() => addTextFormats(instance))
    return instance
  }
}

export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, routerContext: EntryContext, loadContext: RouterContextProvider) {
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  withRoutesOfThisDocument(routerContext)
  const instance = requestI18n(loadContext)
  // The one place the CSP is set: the nonce is made for this document and given to every inline
  // script it renders (React Router's, the theme and text scripts of the root).
  const nonce = newNonce()
  responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce, { oidcIssuer: oidcIssuer(loadContext) }))
  // No route defers data (no <Await>), so there is nothing to stream: the whole document is
  // rendered, then sent as one body with its length — one write to the socket instead of a web
  // stream of small chunks, which cost the portfolio page ~8 % of its CPU in writev (issue 6).
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = []
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk)
        callback()
      },
      final(callback) {
        clearTimeout(timeoutId)
        const html = Buffer.concat(chunks)
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
        responseHeaders.set('Content-Length', String(html.byteLength))
        // The theme and language of the page depend on these cookies.
        responseHeaders.append('Vary', 'Cookie')
        // The body as a stream of its one chunk, not the buffer itself: React Router reads
        // `response.body` (isResponse), which makes Node's fetch Response copy a buffer body at
        // ~8 µs per KB (1.8 ms for the 88 KB portfolio page, issue 13); a stream is taken as it is.
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(html)
            controller.close()
          },
        })
        resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }))
        callback()
      },
    })
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000)
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nextProvider i18n={instance}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        nonce,
        onAllReady() {
          pipe(sink)
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId)
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          console.warn(error)
        },
      },
    )
  })
}

function oidcIssuer(context: RouterContextProvider): string | null {
  try {
    return context.get(appServicesContext).env.oidc?.issuer ?? null
  } catch {
    return null
  }
}

/**
 * React Router's server render builds the route tree of every route of the manifest (~150 here)
 * twice per document (createServerRoutes, then the static router's data routes), though it renders
 * only the matched ones and hands the browser only those its partial manifest names: the matched
 * routes and those matching each ancestor path of the URL (fog of war). The render is given exactly
 * those routes (and their parents); the matches of the ancestor paths are computed once and reused
 * by the partial manifest. The document, and what the browser gets, are the same (issue 13).
 */
function withRoutesOfThisDocument(routerContext: EntryContext) {
  const { manifest } = routerContext
  const context = routerContext.staticHandlerContext
  const match = context._match
  if (typeof match !== 'function') return
  type Matches = ReturnType<typeof match>
  const known = new Map<string, Matches>()
  const matchOnce = (path: string): Matches => {
    if (!known.has(path)) known.set(path, match(path))
    return known.get(path)!
  }
  context._match = (location) => (typeof location === 'string' ? matchOnce(location) : match(location))
  const ids = new Set(context.matches.map((m) => m.route.id))
  // The paths of getPartialManifest (react-router lib/dom/ssr/fog-of-war.ts).
  const segments = context.location.pathname.split('/').filter(Boolean)
  const paths = ['/']
  segments.pop()
  while (segments.length > 0) {
    paths.push(`/${segments.join('/')}`)
    segments.pop()
  }
  for (const path of paths) for (const m of matchOnce(path) ?? []) ids.add(m.route.id)
  const routes: typeof manifest.routes = {}
  for (const id of ids) {
    for (let route = manifest.routes[id]; route && !routes[route.id]; route = route.parentId ? manifest.routes[route.parentId] : undefined) routes[route.id] = route
  }
  routerContext.manifest = { ...manifest, routes }
}
