import { data, type RouterContextProvider } from 'react-router'
import { apiQuery } from '#app/lib/list-page.server.ts'
import type { ListDefinition } from '#app/lib/lists.ts'
import { readListQuery } from '#common/list-query.ts'
import { listAccountChoices } from '#app/lib/accounts.server.ts'
import { activeContext } from '#app/lib/context-param.ts'
import { requireRead, requireScreen } from '#app/lib/guards.server.ts'
import { readPermissionView } from '#app/lib/permission-view.server.ts'
import { getPlatform } from '#app/lib/platform.server.ts'
import { requestUrl } from '#app/lib/request-url.ts'
import type { SessionUser } from '#app/lib/session.server.ts'
import { ACTIVITY_PERIODS, FIGURE_REPORTS, FORECAST_HORIZONS, TAG_MAX, type FigureReport } from '#common/reports.ts'
import { hasPermission, type Permission } from '#common/permissions.ts'

/** The filters every report reads from its URL: a tag (everyone) and the account (staff, as the request's `context`). */
export type ReportFilters = { tag: string | null }

export function reportFilters(url: URL): ReportFilters {
  const tag = url.searchParams.get('tag')?.trim().slice(0, TAG_MAX)
  return { tag: tag ? tag : null }
}

/** The query a report's filters are in the API's and the portal's URLs (an empty one adds nothing). */
export const filterQuery = (filters: ReportFilters) => (filters.tag ? { tag: filters.tag } : {})

/**
 * Opens every report loader: the signed-in user who sees the reports area (requireScreen) and reads
 * the area this report shows (`permission`, decision 025), the account the request acts in, its filters.
 */
export async function reportScreen(request: Request, context: Readonly<RouterContextProvider>, permission: Permission | null) {
  const user: SessionUser = await requireScreen(request, context)
  if (permission) requireRead(request, user, permission)
  const url = requestUrl(request)
  const group = activeContext(url, user.group_id)
  const platform = await getPlatform(request, context)
  return { user, url, group, platform, filters: reportFilters(url) }
}

/** The accounts staff choose a report's account from (its `context`), beside the tag; none for anyone else, who reads their own. */
export async function accountChoices(request: Request, context: Readonly<RouterContextProvider>, user: SessionUser, group: string) {
  if (!hasPermission(user, 'staff', { view: readPermissionView(request) })) return null
  const accounts = await listAccountChoices(request, context, user)
  // The account a staff report is about, for its filters line: none in their own group (every account).
  const acting = group === user.group_id ? null : (accounts.find((a) => a.id === group)?.name ?? group)
  return { ownGroup: user.group_id, accounts, acting }
}

/** GET /groups/{context}/reports/domains for a report screen. */
export async function loadDomainsReport(request: Request, context: Readonly<RouterContextProvider>) {
  const screen = await reportScreen(request, context, 'domain-viewer')
  const report = await screen.platform.get('/groups/{context}/reports/domains', { path: { context: screen.group }, query: filterQuery(screen.filters) })
  return { ...screen, report }
}

/** Rows a report reads from the list engine per request: an export pages through them, never holding more than one page. */
export const PAGE_SIZE = 1000

/**
 * The pages of a list as the report's URL filters it (its pql, sort and fields), read one at a time
 * from the Platform API. The first page is read before anything is answered, so a refusal is a
 * status, not a truncated file.
 */
export async function listPages(platform: Awaited<ReturnType<typeof getPlatform>>, def: ListDefinition, group: string, url: URL) {
  const { query, issues } = readListQuery(url.searchParams, { sort: def.defaultSort })
  if (issues.length) throw data(issues.map((i) => (i.kind === 'pql' ? i.error.message : i.message)).join('\n'), { status: 400 })
  const read = (page: number) => platform.list(def.apiPath(group), { query: apiQuery(def, query, { page, limit: PAGE_SIZE }) })
  const first = await read(1)
  const columns = query.fields?.filter((f) => def.columns.some((c) => c.key === f)) ?? def.columns.filter((c) => c.defaultVisible).map((c) => c.key)
  return {
    first,
    columns,
    async *pages() {
      let rows = first.data
      for (let page = 1; ;) {
        yield rows
        if (rows.length < PAGE_SIZE) return
        page++
        rows = (await read(page)).data
      }
    },
  }
}

/** Who reads each figure report (decision 025: reports are read by the viewers of the areas they show; activity by anyone, over the areas they may read). */
export const REPORT_PERMISSION: Record<FigureReport, Permission | null> = {
  dns: 'dns-viewer',
  ssls: 'ssl-viewer',
  'renewals-forecast': 'domain-viewer',
  'portfolio-activity': null,
  operations: 'staff',
}

/** A figure report's period from its URL: the activity's days and the forecast's months, each one of its choices or the default. */
export function periodOf(url: URL) {
  const days = Number(url.searchParams.get('days'))
  const months = Number(url.searchParams.get('months'))
  return {
    days: (ACTIVITY_PERIODS as readonly number[]).includes(days) ? days : 30,
    months: (FORECAST_HORIZONS as readonly number[]).includes(months) ? months : 12,
  }
}

/**
 * GET /groups/{context}/reports/<report> of a figure report in an account: the forecast with its tag
 * and horizon, the activity with its period (the API's defaults where not given). The one call of
 * the report screens, their print views and exports, and the pulse's widgets.
 */
export function getSectionsReport(platform: Awaited<ReturnType<typeof getPlatform>>, group: string, kind: FigureReport, filters: { tag?: string | null; days?: number; months?: number } = {}) {
  const path = { context: group }
  const tag = filters.tag ? { tag: filters.tag } : {}
  if (kind === 'dns') return platform.get('/groups/{context}/reports/dns', { path })
  if (kind === 'ssls') return platform.get('/groups/{context}/reports/ssls', { path })
  if (kind === 'operations') return platform.get('/groups/{context}/reports/operations', { path })
  if (kind === 'renewals-forecast') {
    const months = filters.months === undefined ? {} : { months: String(filters.months) as `${(typeof FORECAST_HORIZONS)[number]}` }
    return platform.get('/groups/{context}/reports/renewals-forecast', { path, query: { ...tag, ...months } })
  }
  const days = filters.days === undefined ? {} : { days: String(filters.days) as `${(typeof ACTIVITY_PERIODS)[number]}` }
  return platform.get('/groups/{context}/reports/portfolio-activity', { path, query: days })
}

/** A figure report's screen, print view or export: its guard, then the report for the URL's filters. */
export async function loadSectionsReport(request: Request, context: Readonly<RouterContextProvider>, kind: FigureReport) {
  const screen = await reportScreen(request, context, REPORT_PERMISSION[kind])
  const report = await getSectionsReport(screen.platform, screen.group, kind, { ...filterQuery(screen.filters), ...periodOf(screen.url) })
  return { ...screen, report }
}

/** The report a path names (`/reports/<report>…`), when it is a figure report. */
export const figureReportOf = (url: URL): FigureReport | null => {
  const report = url.pathname.split('/')[2] ?? ''
  return (FIGURE_REPORTS as readonly string[]).includes(report) ? (report as FigureReport) : null
}
