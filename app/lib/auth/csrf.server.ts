import { data } from 'react-router'

/**
 * Refuses a state-changing request that did not come from a page of this site: the browser's
 * Sec-Fetch-Site must say same-origin, or (older browsers) the Origin must be ours. A request
 * with neither header is refused too: every browser sends one of them on a POST.
 */
export function assertSameOrigin(request: Request, options: { publicUrl?: string | undefined } = {}): void {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return
  if (isSameOrigin(request, options.publicUrl)) return
  throw data({ message: 'Cross-site request refused' }, { status: 403 })
}

/** The check behind assertSameOrigin, for callers that want a boolean. */
export function isSameOrigin(request: Request, publicUrl?: string): boolean {
  const site = request.headers.get('sec-fetch-site')
  if (site) return site === 'same-origin'
  const origin = request.headers.get('origin')
  if (!origin || origin === 'null') return false
  const allowed = new Set([new URL(request.url).origin])
  if (publicUrl) allowed.add(new URL(publicUrl).origin)
  return allowed.has(origin)
}
