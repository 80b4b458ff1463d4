import type { PageMeta } from './page-meta.server.ts'

/** Route `meta` from the page meta a loader computed (so titles are translated on the server). */
export function metaTags(meta: PageMeta | undefined | null) {
  if (!meta) return [{ title: 'Portal' }]
  return [{ title: meta.title }, { name: 'description', content: meta.description }]
}
