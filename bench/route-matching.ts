/**
 * Checks that the server's route-pattern matcher (decision 014) answers like React Router's
 * default matcher for every route of the build: each route's full path with its parameters filled
 * in, with a trailing slash, with an extra segment, and a few odd paths. Prints every difference.
 *
 *   npm run build && node bench/route-matching.ts
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createStaticHandler, type RouteObject, type ServerBuild } from 'react-router'
import { unstable_preloadRoutePattern } from 'react-router/route-pattern'

unstable_preloadRoutePattern()
const build = (await import(pathToFileURL(path.resolve(import.meta.dirname, '../build/server/index.js')).href)) as ServerBuild
const manifest = Object.values(build.routes).filter((r) => r !== undefined)
const tree = (parentId: string | undefined): RouteObject[] =>
  manifest.filter((r) => r.parentId === parentId).map((r) => (r.index ? { id: r.id, path: r.path, index: true } : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: tree(r.id) }))
const routes = tree(undefined)
const regExps = createStaticHandler(routes)
const patterns = createStaticHandler(routes, { future: { unstable_routePatternMatching: true } as never })

const paths = new Set(['/', '//', '///', '/login', '/login/', '/Login', '/DOMAINS', '/domains//', '//login', '/domains//x', '/nope', '/a%20b', '/%2F', '/domains%2Fx', '/domains/%E2%9C%93'])
for (const route of manifest) {
  const segments: string[] = []
  for (let r: typeof route | undefined = route; r; r = r.parentId ? build.routes[r.parentId] : undefined) if (r.path) segments.unshift(r.path)
  const full = `/${segments.join('/')}`.replace(/:[\w-]+\??/g, 'abc-123').replace(/\*$/, 'rest/of/it')
  for (const p of [full, `${full}/`, `${full}/extra`]) paths.add(p)
}

const answer = async (handler: typeof regExps, p: string) => {
  const result = await handler.query(new Request(`http://portal.invalid${p}`)).catch((error: unknown) => error)
  if (result instanceof Response) return `response ${result.status}`
  if (result instanceof Error) return `error ${result.message}`
  const context = result as { statusCode: number; matches: { route: { id: string }; params: unknown }[] }
  return `${context.statusCode} ${context.matches.map((m) => m.route.id).join(' > ')} ${JSON.stringify(context.matches.at(-1)?.params)}`
}
let differences = 0
for (const p of paths) {
  const [a, b] = [await answer(regExps, p), await answer(patterns, p)]
  if (a === b) continue
  differences++
  console.log(`${p}\n  default:       ${a}\n  route-pattern: ${b}`)
}
console.log(`${paths.size} paths compared, ${differences} answered differently (server/http/app.ts sends paths with an empty segment to the default matcher)`)
