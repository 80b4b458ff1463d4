import { createRequestHandler, UNSAFE_withComponentProps, UNSAFE_withErrorBoundaryProps, type ServerBuild } from 'react-router'
import * as entry from '#app/entry.server.tsx'
import * as root from '#app/root.tsx'
import * as docs from '#app/routes/layouts/docs.tsx'
import * as reference from '#app/routes/api/reference.tsx'
import { portalContext } from './portal.ts'
import type { createTestPlatform } from './platform.ts'

type TestPlatform = Awaited<ReturnType<typeof createTestPlatform>>
type RouteModule = NonNullable<ServerBuild['routes'][string]>['module']

/**
 * The portal's whole HTML document for the API reference's pages, rendered in process by React
 * Router's own request handler over the real route modules (root, docs layout, reference) and the
 * real entry.server — what the built server sends, without a build: the same shell, markup and
 * hydration data; only the asset URLs of the manifest are placeholders (a few hundred bytes).
 */
export function referenceDocuments(platform: TestPlatform) {
  // What the Vite plugin does to a route module: the component and error boundary get their props.
  const wrap = (module: Record<string, unknown>): RouteModule =>
    ({
      ...module,
      default: UNSAFE_withComponentProps(module.default as never),
      ...(module.ErrorBoundary ? { ErrorBoundary: UNSAFE_withErrorBoundaryProps(module.ErrorBoundary as never) } : {}),
    }) as RouteModule
  const routes: [id: string, parentId: string | undefined, path: string | undefined, module: Record<string, unknown>][] = [
    ['root', undefined, '', root],
    ['routes/layouts/docs', 'root', undefined, docs],
    ['routes/api/reference', 'routes/layouts/docs', 'api/reference', reference],
    ['api-reference:section', 'routes/layouts/docs', 'api/reference/:section', reference],
  ]
  const asset = (id: string) => ({
    id,
    module: `/assets/${id.replace(/\W/g, '-')}.js`,
    imports: [],
    css: [],
    hasAction: false,
    hasLoader: 'loader' in routes.find((r) => r[0] === id)![3],
    hasClientAction: false,
    hasClientLoader: false,
    hasClientMiddleware: id === 'root',
    hasErrorBoundary: id === 'root',
  })
  const build = {
    entry: { module: entry },
    routes: Object.fromEntries(routes.map(([id, parentId, path, module]) => [id, { id, parentId, path, module: wrap(module) }])),
    assets: {
      entry: { module: '/assets/entry.client.js', imports: [], css: [] },
      routes: Object.fromEntries(routes.map(([id, parentId, path]) => [id, { ...asset(id), parentId, path }])),
      url: '/assets/manifest.js',
      version: 'test',
    },
    assetsBuildDirectory: 'build/client',
    basename: '/',
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
    publicPath: '/',
  } as unknown as ServerBuild
  const handle = createRequestHandler(build, 'production')
  return async (path: string) => {
    const response = await handle(new Request(`http://localhost${path}`), portalContext(platform))
    return { status: response.status, html: await response.text() }
  }
}
