// Sizes the JavaScript the first load of a page ships: the client entry, then for every route the
// URL matches its route module, each with its static imports (what the document modulepreloads).
// The route manifest is inlined in the document (lazy route discovery), so it is not a file here. Reads build/client/.vite/manifest.json, so build first.
// Usage: npm run budget:js -- [/path] [--max <KB>]   (defaults: /domains, 150)
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { matchRoutes, type RouteObject } from 'react-router'
import routeConfig from '#app/routes.ts'

interface ViteChunk {
  file: string
  src?: string
  imports?: string[]
  isEntry?: boolean
}
interface ConfigRoute {
  id?: string
  file: string
  path?: string
  index?: boolean
  children?: ConfigRoute[]
}

const args = process.argv.slice(2)
const maxAt = args.indexOf('--max')
const maxKb = maxAt >= 0 ? Number(args[maxAt + 1]) : 150
const pathname = args.find((a, i) => a.startsWith('/') && i !== maxAt + 1) ?? '/domains'

const clientDir = path.resolve('build/client')
const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<string, ViteChunk>
const bySource = new Map<string, string>()
for (const [key, chunk] of Object.entries(manifest)) if (chunk.src) bySource.set(chunk.src.replace(/\?.*$/, ''), key)

// The route tree as React Router matches it, each route carrying its module file.
const toRouteObject = (route: ConfigRoute): RouteObject & { file: string } =>
  route.index ? { index: true, path: route.path, file: route.file } : { path: route.path, file: route.file, children: route.children?.map(toRouteObject) }
const tree = [{ path: '', file: 'root.tsx', children: (routeConfig as ConfigRoute[]).map(toRouteObject) }]
const matches = matchRoutes(tree, pathname) ?? []
if (matches.length <= 1) throw new Error(`no route matches ${pathname}`)
const routeFiles = matches.map((m) => (m.route as { file: string }).file)

const chunks = new Set<string>()
const visit = (key: string) => {
  const chunk = manifest[key]
  if (!chunk) throw new Error(`${key} is not in the Vite manifest`)
  if (chunks.has(chunk.file)) return
  chunks.add(chunk.file)
  for (const imported of chunk.imports ?? []) visit(imported)
}
for (const source of ['app/entry.client.tsx', ...routeFiles.map((f) => `app/${f}`)]) {
  const key = bySource.get(source)
  if (!key) throw new Error(`${source} is not in the Vite manifest`)
  visit(key)
}
const rows = [...chunks].map((file) => {
  const body = readFileSync(path.join(clientDir, file))
  return { file, raw: body.length, gzip: gzipSync(body).length }
})
rows.sort((a, b) => b.gzip - a.gzip)
const print = (line: string) => process.stdout.write(`${line}\n`)
const kb = (bytes: number) => (bytes / 1024).toFixed(1)
print(`${pathname}: routes ${routeFiles.join(' > ')}`)
for (const row of rows) print(`${kb(row.gzip).padStart(7)} KB  ${row.file}`)
const total = rows.reduce((sum, row) => sum + row.gzip, 0)
print(`${kb(total).padStart(7)} KB gzipped in ${rows.length} files (budget ${maxKb} KB)`)
if (total > maxKb * 1024) process.exitCode = 1
