import { createRoute, z } from '@hono/zod-openapi'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { requireOwnScope } from '#server/platform/core/http.ts'
import { PULSE_MAX, PULSE_REPORTS, PULSE_SIZES } from '#common/pulse.ts'
import { readPulse, savePulse } from './pulse.ts'
import { FREQUENCIES, MAILED_REPORTS, mySubscriptions, subscribe, unsubscribe, unsubscribeByToken } from './subscriptions.ts'
import { ListQueryParams, ListResponse } from '#server/platform/core/openapi.ts'
import { reachOf } from '#server/platform/core/scope.ts'
import { listQueryFromUrl, runList } from '#server/platform/list/engine.ts'
import { ACTIVITY_PERIODS, DOMAIN_DIMENSIONS, FORECAST_HORIZONS, TAG_MAX } from '#common/reports.ts'
import { AUDIT_AREAS } from '#common/vocabulary.ts'
import { readableAreas } from '#server/platform/audit/http.ts'
import { activityReport, dnsReport, operationsReport, domainsReport, forecastReport, reportActivity, reportRecords, reportsIndex, reportZones, sslsReport, type ReportFilters } from './service.ts'

const Count = z.number().int().min(0)
const ContextParam = z.object({ context: z.string() })

const FiltersQuery = z.object({
  tag: z.string().trim().max(TAG_MAX).optional().openapi({ description: 'Only domains carrying this tag (as the domain list’s `tags equals`)', example: 'marketing' }),
})
const Filters = z.object({ tag: z.string().nullable() }).openapi('ReportFilters')
const filtersOf = (query: z.infer<typeof FiltersQuery>): ReportFilters => ({ tag: query.tag ? query.tag : null })

const DomainCountSchema = z.object({ key: z.string(), count: Count })

const DomainsReportSchema = z
  .object({
    today: z.string().openapi({ description: 'The day the expiry buckets count from (UTC)', example: '2026-01-31' }),
    generated_at: z.string(),
    filters: Filters,
    total: Count.openapi({ description: 'Live domains the report covers (every account for staff in their own group)' }),
    by: z.object(Object.fromEntries(DOMAIN_DIMENSIONS.map((d) => [d, z.array(DomainCountSchema)])) as Record<(typeof DOMAIN_DIMENSIONS)[number], z.ZodArray<typeof DomainCountSchema>>).openapi({
      description:
        'Counts by each dimension, largest first (expiry in bucket order: past, d30, d60, d90, d365, later; a domain without an expiry date is in none). Booleans are keyed `true`/`false`; registrar_lock is the registry reporting clientTransferProhibited; tag names the 50 most used tags',
    }),
  })
  .openapi('DomainsReport')

const ReportsIndexSchema = z
  .object({
    generated_at: z.string(),
    filters: Filters,
    domains: z.object({ total: Count }).nullable().openapi({ description: 'Live domains for the filters; null without domain-viewer' }),
    dns_records: z.object({ total: Count }).nullable().openapi({ description: 'DNS records of the zones in reach; null without dns-viewer' }),
    dns: z.object({ total: Count }).nullable().openapi({ description: 'Zones in reach; null without dns-viewer' }),
    ssls: z.object({ total: Count }).nullable().openapi({ description: 'Certificates in reach; null without ssl-viewer' }),
    renewals_forecast: z.object({ total: Count }).nullable().openapi({ description: 'Domains renewing in the next 12 months; null without domain-viewer' }),
    portfolio_activity: z.object({ total: Count }).nullable().openapi({ description: 'Audit entries of the last 30 days the caller may read' }),
    operations: z.object({ total: Count }).nullable().openapi({ description: 'Staff: orders of the last 30 days; null for anyone else' }),
  })
  .openapi('ReportsIndex')

const Amount = z.object({ currency: z.string(), minor: z.number().int() })
const FigureSchema = z.object({
  key: z.string(),
  count: Count,
  amounts: z.array(Amount).optional(),
  label: z.string().optional().openapi({ description: "The name of what the key identifies, when the key is an id (a billing entity's)" }),
})

const SectionsReportSchema = z
  .object({
    today: z.string().openapi({ description: 'The day the report counts from (UTC)' }),
    generated_at: z.string(),
    filters: z.object({ tag: z.string().nullable(), days: z.number().int().nullable(), months: z.number().int().nullable() }),
    total: Count,
    sections: z
      .array(z.object({ key: z.string(), figures: z.array(FigureSchema) }))
      .openapi({ description: 'The report’s sections in order (common/reports.ts REPORT_SECTIONS), each figure the total of the list it links to' }),
    gap: z
      .object({ count: Count, named: z.array(z.string()) })
      .nullable()
      .openapi({ description: 'SSL: hosted names answering A/AAAA without a valid certificate of ours (the first 50 named); null elsewhere or without dns-viewer' }),
    totals: z.array(Amount).nullable().openapi({ description: 'Forecast: the renewals priced, per currency (minor units); operations: the charges settled in its months, per currency' }),
    unpriced: Count.nullable().openapi({ description: 'Forecast: renewals the pricing engine has no price for' }),
  })
  .openapi('SectionsReport')

const Row = z.object({}).catchall(z.unknown())

const PulseWidgetSchema = z
  .object({
    report: z.enum(PULSE_REPORTS),
    section: z.string().nullable().openapi({ description: 'One of the report’s sections (common/reports.ts REPORT_SECTIONS, the domains report’s dimensions); null: its headline figure' }),
    size: z.union(PULSE_SIZES.map((n) => z.literal(n)) as unknown as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>]).openapi({ description: 'Columns it spans on a three-column grid' }),
    tag: z.string().nullable().openapi({ description: 'The report’s tag filter (domains and renewals forecast)' }),
  })
  .openapi('PulseWidget')
const PulseSchema = z
  .object({
    widgets: z.array(PulseWidgetSchema),
    customised: z.boolean().openapi({ description: 'false: the role’s defaults, never saved' }),
    version: z.number().int().openapi({ description: 'Send it back with a change (0 before the first save)' }),
  })
  .openapi('PulseConfiguration')
const Days = z.object({
  days: z
    .enum(ACTIVITY_PERIODS.map(String) as [string, ...string[]])
    .optional()
    .openapi({ description: 'The period: the last 7, 30, 90 or 365 days (30)' }),
})
const Months = z.object({
  months: z
    .enum(FORECAST_HORIZONS.map(String) as [string, ...string[]])
    .optional()
    .openapi({ description: 'The horizon: 12, 24 or 36 months (12)' }),
})

const SubscriptionSchema = z
  .object({
    id: z.uuid(),
    report: z.string(),
    frequency: z.string(),
    filters: z.object({ tag: z.string().nullable().optional(), days: z.number().int().nullable().optional(), months: z.number().int().nullable().optional() }),
    last_period: z.string().nullable().openapi({ description: 'The period last mailed (W<monday>, M<yyyy-mm>, Q<yyyy-q>); the current one on subscribing' }),
    created_at: z.string(),
  })
  .openapi('ReportSubscription')

/** Reports (issue 29): answers that are not lists, put together from the owning areas' reads. */
export const reportsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports',
      ...access('signed-in'),
      tags: ['Reports'],
      summary: 'Each report’s headline figure for the filters; the reports the caller may not read are null (403 without domain-, dns- or ssl-viewer)',
      request: { params: ContextParam, query: FiltersQuery },
      responses: { 200: jsonResponse(ReportsIndexSchema), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      return c.json(await reportsIndex(deps.db, scope, deps.now(), filtersOf(c.req.valid('query'))), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports/domains',
      ...access('domain-viewer'),
      tags: ['Reports'],
      summary: 'The portfolio counted by status, TLD, registrar and registry lock, auto-renew, DNSSEC, expiry bucket and tag',
      request: { params: ContextParam, query: FiltersQuery },
      responses: { 200: jsonResponse(DomainsReportSchema), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      return c.json(await domainsReport(deps.db, scope, deps.now(), filtersOf(c.req.valid('query'))), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports/dns',
      ...access('dns-viewer'),
      tags: ['Reports'],
      summary: 'Zones by publishing, DNSSEC, drift, SPF, DMARC, CAA, MX and staleness; records by type and TTL',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(SectionsReportSchema), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      return c.json(await dnsReport(deps.db, scope, deps.now()), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports/dns/zones',
      ...access('dns-viewer'),
      tags: ['Reports'],
      summary: 'The DNS report’s zones with their posture (spf, dmarc, caa, caa_issuers, mx, drift, records): every zone figure is this list’s total filtered',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(Row), ...ProblemResponses },
    }),
    async (c) => c.json(await listPage(c, requireScope(c, c.req.valid('param').context), reportZones), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports/dns-records',
      ...access('dns-viewer'),
      tags: ['Reports'],
      summary: 'Every record of every zone in reach (every account for staff in their own group), as the record search’s list',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(Row), ...ProblemResponses },
    }),
    async (c) => c.json(await listPage(c, requireScope(c, c.req.valid('param').context), reportRecords), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports/operations',
      ...access('staff'),
      tags: ['Reports'],
      summary: 'Staff: orders of the last 30 days by state, open differences with the registries by field, and charges settled per month for 12 months with their amounts',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(SectionsReportSchema), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      return c.json(await operationsReport(deps.db, scope, deps.now()), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports/ssls',
      ...access('ssl-viewer'),
      tags: ['Reports'],
      summary: 'Certificates by state, CA, key type and expiry month, failed renewals, and hosted names without a valid certificate',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(SectionsReportSchema), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      return c.json(await sslsReport(deps.db, scope, deps.now()), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports/renewals-forecast',
      ...access('domain-viewer'),
      tags: ['Reports'],
      summary: 'Domains renewing per month for the next 12, 24 or 36 months, priced by the pricing engine on each month’s day',
      request: { params: ContextParam, query: FiltersQuery.extend(Months.shape) },
      responses: { 200: jsonResponse(SectionsReportSchema), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      const query = c.req.valid('query')
      return c.json(await forecastReport(deps.db, scope, deps.now(), filtersOf(query), Number(query.months ?? 12)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports/portfolio-activity',
      ...access('signed-in'),
      tags: ['Reports'],
      summary: 'What changed in the last 7, 30, 90 or 365 days from the audit trail the caller may read: per week, kind (area.action) and actor',
      request: { params: ContextParam, query: Days },
      responses: { 200: jsonResponse(SectionsReportSchema), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      return c.json(await activityReport(deps.db, scope, deps.now(), Number(c.req.valid('query').days ?? 30)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/reports/portfolio-activity/entries',
      ...access('signed-in'),
      tags: ['Reports'],
      summary: 'The audit entries behind the activity report: the trail in reach (every account for staff in their own group), limited to the areas the caller may read',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(Row), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const reach = reachOf(scope)
      const resource = reach === null ? reportActivity.whole : reportActivity.scoped
      const query = listQueryFromUrl(resource, new URL(c.req.url))
      const allowed = readableAreas(scope.actor, query)
      if (allowed.length < AUDIT_AREAS.length) query.filters.push({ field: 'area', operator: 'equals', values: allowed })
      return c.json(await runList(c.get('deps').db, resource, query, { accountId: reach }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/me/pulse',
      ...access('signed-in', { session: true }),
      tags: ['Reports'],
      summary: 'The signed-in person’s pulse dashboard: the widgets they arranged, or their role’s defaults',
      responses: { 200: jsonResponse(PulseSchema), ...ProblemResponses },
    }),
    async (c) => c.json(await readPulse(c.get('deps').db, requireOwnScope(c)), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/me/pulse',
      ...access('signed-in', { session: true }),
      tags: ['Reports'],
      summary: `Arrange the pulse dashboard: the widgets in order (at most ${PULSE_MAX}); widgets null goes back to the role’s defaults`,
      request: { body: { content: { 'application/json': { schema: z.object({ widgets: z.array(z.unknown()).nullable(), version: z.number().int().min(0) }) } }, required: true } },
      responses: { 200: jsonResponse(PulseSchema), ...ProblemResponses },
    }),
    async (c) => c.json(await savePulse(c.get('deps').db, requireOwnScope(c), c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/reports/subscriptions',
      ...access('signed-in', { session: true }),
      tags: ['Reports'],
      summary: 'Mail me this report weekly, monthly or quarterly (calendar periods, UTC) with its filters, the figures attached as XLSX; the first mail when the next period starts',
      request: {
        params: ContextParam,
        body: {
          content: {
            'application/json': {
              schema: z.object({
                report: z.enum(MAILED_REPORTS),
                frequency: z.enum(FREQUENCIES),
                tag: z.string().max(TAG_MAX).nullable().optional(),
                days: z.number().int().nullable().optional(),
                months: z.number().int().nullable().optional(),
              }),
            },
          },
          required: true,
        },
      },
      responses: { 201: jsonResponse(SubscriptionSchema), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      return c.json(await subscribe(deps.db, scope, c.req.valid('json'), deps.now()), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/me/report-subscriptions',
      ...access('signed-in', { session: true }),
      tags: ['Reports'],
      summary: 'The reports mailed to me on a schedule',
      responses: { 200: jsonResponse(z.object({ data: z.array(SubscriptionSchema) })), ...ProblemResponses },
    }),
    async (c) => c.json({ data: await mySubscriptions(c.get('deps').db, requireOwnScope(c)) }, 200),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/me/report-subscriptions/{id}',
      ...access('signed-in', { session: true }),
      tags: ['Reports'],
      summary: 'Stop mailing me this report',
      request: { params: z.object({ id: z.string() }) },
      responses: { 204: { description: 'Unsubscribed' }, ...ProblemResponses },
    }),
    async (c) => {
      await unsubscribe(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/report-subscriptions/unsubscribe',
      ...access('public'),
      tags: ['Reports'],
      summary: 'Stop a scheduled report from the link in its mail (the token is the proof; no sign-in)',
      request: { body: { content: { 'application/json': { schema: z.object({ token: z.string().max(100) }) } }, required: true } },
      responses: { 200: jsonResponse(z.object({ unsubscribed: z.boolean() })), ...ProblemResponses },
    }),
    async (c) => c.json({ unsubscribed: await unsubscribeByToken(c.get('deps').db, c.req.valid('json').token) }, 200),
  )
