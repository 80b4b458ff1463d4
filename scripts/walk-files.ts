/**
 * Counts the files a maintainer opens to follow one feature through the code (issue 27's "order and
 * price walks"): the import closure of the given entry files inside app/, common/ and server/,
 * where the shared layers every screen uses are counted but not followed, since a reader learns them
 * once for every area: ARCHITECTURE.md's table (app/lib, app/components, the API edge and its
 * actors, the core, the list engine and its catalogue, the database), the dependency container, the
 * jobs engine, the configuration and the integrations (the registry, PowerDNS, mail: each a layer of
 * its own behind a client).
 *
 *   node scripts/walk-files.ts app/routes/domains/order.tsx server/platform/orders/http.ts server/platform/orders/jobs.ts
 *
 * Prints the feature's own files, then the shared files it reaches, and the two counts.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, relative, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const SHARED = [
  'app/lib/',
  'app/components/',
  'server/platform/core/',
  'server/platform/list/',
  'server/platform/deps.ts',
  'server/platform/auth/',
  'server/platform/api-tokens/',
  'server/db/',
  'server/lib/',
  'server/http/',
  'server/jobs/',
  'server/config.ts',
  'server/integrations/',
  'common/list-catalogue.ts',
  'common/lists/',
  'common/pql.ts',
  'common/json-',
]
const ALIASES: Record<string, string> = { '#common/': 'common/', '#app/': 'app/', '#server/': 'server/' }
const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function resolveImport(from: string, specifier: string): string | undefined {
  let path: string | undefined
  for (const [alias, folder] of Object.entries(ALIASES)) if (specifier.startsWith(alias)) path = folder + specifier.slice(alias.length)
  if (!path && specifier.startsWith('.')) path = relative(root, resolve(root, dirname(from), specifier))
  if (!path) return undefined
  for (const candidate of [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`]) if (existsSync(resolve(root, candidate)) && /\.tsx?$/.test(candidate)) return candidate
  return undefined
}

const print = (line: string) => process.stdout.write(`${line}\n`)
const own = new Set<string>()
const shared = new Set<string>()
const queue = process.argv.slice(2).map((entry) => relative(root, resolve(entry)))
if (!queue.length) {
  process.stderr.write('usage: node scripts/walk-files.ts <entry file>…\n')
  process.exit(2)
}
while (queue.length) {
  const file = queue.pop()!
  if (own.has(file) || shared.has(file)) continue
  if (file.endsWith('.test.ts') || file.endsWith('.test.tsx')) continue
  if (SHARED.some((prefix) => file.startsWith(prefix))) {
    shared.add(file)
    continue
  }
  own.add(file)
  for (const match of readFileSync(resolve(root, file), 'utf8').matchAll(IMPORT)) {
    const target = resolveImport(file, match[1] ?? match[2]!)
    if (target) queue.push(target)
  }
}
print([...own].sort().join('\n'))
print(`\nshared layers reached (not followed):\n${[...shared].sort().join('\n')}`)
print(`\n${own.size} files of the walk, ${shared.size} shared files`)
