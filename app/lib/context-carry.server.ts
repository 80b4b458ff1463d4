import { redirect, type MiddlewareFunction } from 'react-router'
import { carryContext, CONTEXT_PARAM, isContextId } from './context-param.ts'
import { requestUrl } from './request-url.ts'

const SKIP = /^\/(logout|login|reset|assets|v1)(\/|$)|\.(js|css|png|svg|ico|map|woff2?)$/

/**
 * Spec §2: a navigation to an address without `context` keeps the previous route's context.
 * Links the portal renders already carry it; this catches the rest (typed paths excepted — the
 * previous page is known from the same-origin Referer only).
 */
export const contextCarryMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  if (request.method !== 'GET') return next()
  const url = requestUrl(request)
  if (url.searchParams.has(CONTEXT_PARAM) || SKIP.test(url.pathname)) return next()
  const referer = request.headers.get('referer')
  if (!referer) return next()
  let previous: URL
  try {
    previous = new URL(referer)
  } catch {
    return next()
  }
  if (previous.origin !== url.origin) return next()
  const context = previous.searchParams.get(CONTEXT_PARAM)
  if (!isContextId(context)) return next()
  // A data request (client navigation) keeps its .data suffix out of the redirect target.
  const pathname = url.pathname.replace(/\.data$/, '').replace(/^\/_root$/, '/') || '/'
  url.searchParams.delete('_routes')
  throw redirect(carryContext(pathname + url.search, context))
}
