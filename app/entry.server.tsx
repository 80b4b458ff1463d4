import { Writable } from 'node:stream'
import { createInstance, type i18n } from 'i18next'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider, initReactI18next } from 'react-i18next'
import { ServerRouter, type EntryContext, type RouterContextProvider } from 'react-router'
import { DEFAULT_LANGUAGE } from './lib/i18n.ts'
import { serverI18nOptions } from './lib/i18n-resources.server.ts'
import { getInstance } from './lib/i18n.server.ts'
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
    void instance.init()
    return instance
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status: responseStatusCode, headers: responseHeaders })
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
    const body = new Writable({
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
        resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }))
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
          pipe(body)
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
