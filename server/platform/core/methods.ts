import type { Context } from 'hono'
import { AppError } from './errors.ts'

type Route = { method: string; path: string }

/**
 * The methods a path answers, from the routes an API registered (Hono's `routes`): a request whose
 * method is not among them is a 405 naming them in `Allow` (RFC 9110 §15.5.6), not a 404 — the path
 * exists. GET brings HEAD (Hono answers HEAD with the GET route). Middleware (method ALL) is not a
 * route. The patterns are made once, on the first request that finds no route.
 */
export function allowedMethods(routes: () => readonly Route[]): (path: string) => string[] {
  let patterns: { method: string; pattern: RegExp }[] | null = null
  return (path) => {
    patterns ??= routes()
      .filter((route) => route.method !== 'ALL')
      .map((route) => ({ method: route.method.toUpperCase(), pattern: patternOf(route.path) }))
    const methods = new Set(patterns.filter((route) => route.pattern.test(path)).map((route) => route.method))
    if (methods.has('GET')) methods.add('HEAD')
    return [...methods].sort()
  }
}

/** A Hono path (`/v1/groups/:context/domains/:id`, `*`) as an anchored pattern over a request's path. */
function patternOf(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/')
  return new RegExp(`^${source}/?$`)
}

/** 405 problem+json with the path's methods in `Allow`. */
export const methodNotAllowed = (method: string, allowed: string[]) =>
  new AppError(405, 'method-not-allowed', `${method} is not an operation of this path; it answers ${allowed.join(', ')}`, { headers: { Allow: allowed.join(', ') }, extra: { allowed } })

/**
 * Whether a request carries a body: a length above zero, or a body stream that holds at least one
 * byte. `curl -X POST` without data sends neither a length nor a type, and over HTTP/1.1 that is no
 * body (RFC 9112 §6.3), yet the server hands on an empty stream: it is read (Hono keeps what it read
 * for the handler) and found empty.
 */
export async function carriesBody(c: Context): Promise<boolean> {
  if (!c.req.raw.body) return false
  const length = c.req.header('content-length')
  if (length !== undefined) return length !== '0'
  return (await c.req.arrayBuffer()).byteLength > 0
}
