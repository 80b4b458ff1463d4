import { activeContext } from '#app/lib/context-param.ts'
import { requireScreen } from '#app/lib/guards.server.ts'
import { apiQuery, openListScope, requireList } from '#app/lib/list-page.server.ts'
import { appServicesContext } from '#app/lib/app-context.ts'
import { readListQuery } from '#common/list-query.ts'
import { LISTS } from '#app/routes/lists.ts'
import { csvCell } from '#app/lib/csv.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import type { Route } from './+types/list-export.ts'
import { requestUrl } from '#app/lib/request-url.ts'

const PAGE_SIZE = 1000

/**
 * GET /export/<list>?<list params>&scope=<the screen's scope>: the whole current filter as CSV, of the
 * rows the screen lists (`sealListScope`: an entity's log exports that entity's entries), paging
 * through the platform 1000 rows at a time (spec §7 paged loop) and streaming as it goes.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const listed = requireList(LISTS, params.list)
  const user = await requireScreen(request, context)
  const url = requestUrl(request)
  // The screen's own rows (an entity's trail, a domain's orders): its API path and fixed filters, sealed by the screen.
  const sealed = url.searchParams.get('scope')
  const scope = sealed === null ? null : openListScope(sealed, listed.id, context.get(appServicesContext).env.sessionSecret)
  if (sealed !== null && !scope) return new Response('The export link is not valid: export again from the list.', { status: 400 })
  const def = scope ? { ...listed, apiPath: () => scope.path, fixedFilters: scope.fixedFilters } : listed
  const { query, issues } = readListQuery(url.searchParams, { sort: def.defaultSort })
  if (issues.length) return new Response(issues.map((i) => (i.kind === 'pql' ? i.error.message : i.message)).join('\n'), { status: 400 })
  const groupContext = activeContext(url, user.group_id)
  const columns = query.fields?.filter((f) => def.columns.some((c) => c.key === f)) ?? def.columns.map((c) => c.key)
  const platform = await getPlatform(request, context)
  // The first page is read before answering, so a refusal becomes a proper status, not a cut file.
  const first = await platform.list(def.apiPath(groupContext), { query: apiQuery(def, query, { page: 1, limit: PAGE_SIZE }) })
  const encoder = new TextEncoder()
  const line = (cells: unknown[]) => encoder.encode(`${cells.map(csvCell).join(',')}\r\n`)
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(line(columns))
      let rows = first.data
      for (let page = 1; ;) {
        for (const row of rows) controller.enqueue(line(columns.map((c) => row[c])))
        if (rows.length < PAGE_SIZE) break
        page++
        rows = (await platform.list(def.apiPath(groupContext), { query: apiQuery(def, query, { page, limit: PAGE_SIZE }) })).data
      }
      controller.close()
    },
  })
  return new Response(stream, {
    headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="${def.id}.csv"`, 'Cache-Control': 'no-store' },
  })
}
