import { createRoute, z } from '@hono/zod-openapi'
import { CELL_STATES, ITEM_KINDS, MEASURE_WEIGHTS, MEASURES, MODULE_SOURCE_NAMES, MODULE_SOURCES, MODULES, PATTERN_KINDS, RUN_STATUSES, SCHEDULES, TLD_GROUPS } from '#common/intelligence.ts'
import type { IntelligenceCell, IntelligenceItem, IntelligenceRun, IntelligenceTemplate } from '#server/db/schema-intelligence.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, ConflictResponse, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { sslFocus, trafficFocus } from './focus.ts'
import { gapAnalysis } from './gap.ts'
import { applyFix, securityOf } from './security.ts'
import { createItem, createTemplate, deleteItem, deleteTemplate, itemOf, itemsResources, runsOf, startRun, templatesOf } from './service.ts'

const TAGS = ['Intelligence']
const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })

const MeasureResults = z.object(
  Object.fromEntries(MEASURES.map((m) => [m, z.enum(['pass', 'fail', 'unseen'])])) as Record<(typeof MEASURES)[number], z.ZodEnum<{ pass: 'pass'; fail: 'fail'; unseen: 'unseen' }>>,
)

const ItemSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid().openapi({ description: 'The account it is kept in: the client’s, or for a prospect the registrar’s own' }),
    kind: z.enum(ITEM_KINDS),
    name: z.string(),
    brand: z.string().openapi({ description: 'The brand label', example: 'acme' }),
    strings: z.array(z.string()).openapi({ description: 'Further brand strings (rows of the matrix)' }),
    keywords: z.array(z.string()).openapi({ description: 'Keywords joined to the brand (acmepay, acme-pay)' }),
    known_domains: z.array(z.string()).openapi({ description: 'Names the brand holds elsewhere (another registrar; a prospect’s portfolio)' }),
    priority_cctlds: z.array(z.string()),
    tld_groups: z.array(z.enum(TLD_GROUPS)),
    modules: z.array(z.enum(MODULES)),
    lookalike_min_score: z.number().int(),
    template_id: z.uuid().nullable(),
    schedule: z.enum(SCHEDULES),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('IntelligenceItem')

const ItemRow = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    account: z.object({ name: z.string() }),
    name: z.string(),
    kind: z.enum(ITEM_KINDS),
    brand: z.string(),
    strings: z.array(z.string()),
    schedule: z.enum(SCHEDULES),
    last_status: z.enum(RUN_STATUSES).nullable(),
    last_run_at: z.string().nullable(),
    covered: z.number().int().nullable(),
    exposed: z.number().int().nullable(),
    created_at: z.string(),
  })
  .partial()
  .openapi('IntelligenceItemRow')

const ItemBody = z
  .object({
    kind: z.enum(ITEM_KINDS),
    name: z.string().max(200),
    brand: z.string().max(100),
    strings: z.array(z.string().max(100)).max(20).optional(),
    keywords: z.array(z.string().max(100)).max(50).optional(),
    known_domains: z.array(z.string().max(300)).max(500).optional(),
    priority_cctlds: z.array(z.string().max(70)).max(50).optional(),
    tld_groups: z.array(z.string().max(20)).max(4).optional(),
    modules: z.array(z.string().max(50)).max(10).optional(),
    lookalike_min_score: z.number().int().optional(),
    template_id: z.uuid().nullable().optional(),
    schedule: z.enum(SCHEDULES).optional(),
  })
  .strict()
  .openapi('IntelligenceItemCreate')

const Totals = z.object({
  cells: z.number().int(),
  covered: z.number().int(),
  exposed: z.number().int(),
  unknown: z.number().int(),
  closable: z.number().int(),
  cost: z.array(z.object({ minor: z.number().int(), currency: z.string() })).openapi({ description: 'The cost to close the gap: the available cells’ prices, per currency' }),
  score: z.number().int().nullable(),
  domains: z.number().int(),
})

const PatternSchema = z.object({ label: z.string(), kind: z.enum(PATTERN_KINDS), score: z.number().int(), fuzzers: z.array(z.string()).optional() })

const RunSchema = z
  .object({
    id: z.uuid(),
    item_id: z.uuid(),
    status: z.enum(RUN_STATUSES),
    trigger: z.enum(['manual', 'schedule', 'seed']),
    done: z.number().int(),
    total: z.number().int(),
    patterns: z.array(PatternSchema),
    summary: Totals.nullable(),
    error: z.string().nullable(),
    created_by: z.string(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi('IntelligenceRun')

const CellSchema = z
  .object({
    pattern: z.string(),
    name: z.string(),
    unicode_name: z.string(),
    tld: z.string(),
    tld_group: z.enum(TLD_GROUPS),
    state: z.enum(CELL_STATES),
    evidence: z.object({
      registry: z.object({ available: z.boolean(), reason: z.string().optional() }).optional(),
      ns: z.array(z.string()).optional(),
      a: z.array(z.string()).optional(),
      mx: z.array(z.string()).optional(),
      block: z.object({ id: z.string(), product: z.string() }).optional(),
      source: z.string().optional(),
    }),
    price_minor: z.number().int().nullable(),
    currency: z.string().nullable(),
    checked_at: z.string(),
  })
  .openapi('IntelligenceCell')

const GapSchema = z
  .object({
    run: RunSchema,
    columns: z.array(z.object({ tld: z.string(), unicode: z.string(), group: z.enum(TLD_GROUPS), offered: z.boolean() })),
    cells: z.array(CellSchema),
  })
  .openapi('IntelligenceGapAnalysis')

const DomainScoreSchema = z.object({ id: z.uuid(), name: z.string(), zone_id: z.uuid().nullable(), mx: z.boolean(), measures: MeasureResults, score: z.number().int() })
const SecuritySchema = z
  .object({
    score: z.number().int().nullable().openapi({ description: 'The brand’s score: the mean of its domains’ (null: we hold none)' }),
    total: z.number().int(),
    weights: z.object(Object.fromEntries(MEASURES.map((m) => [m, z.number().int()])) as Record<(typeof MEASURES)[number], z.ZodNumber>),
    domains: z.array(DomainScoreSchema),
  })
  .openapi('IntelligenceSecurity')

const FixBody = z
  .object({ domain_id: z.uuid(), measure: z.enum(MEASURES) })
  .strict()
  .openapi('IntelligenceFix')
const FixResult = z.object({ domain: z.string(), measure: z.string(), added: z.string().nullable() }).openapi('IntelligenceFixResult')

const SslFocusSchema = z
  .object({
    certificates: z.array(
      z.object({
        id: z.uuid(),
        common_name: z.string(),
        names: z.array(z.string()),
        status: z.string(),
        ca: z.string(),
        key_type: z.string(),
        origin: z.string(),
        not_after: z.string().nullable(),
        valid: z.boolean(),
        expiring: z.boolean(),
        wildcard: z.boolean(),
      }),
    ),
    uncovered: z.array(z.string()).openapi({ description: 'The brand’s domains no valid certificate of ours names' }),
  })
  .openapi('IntelligenceSslFocus')

const TrafficFocusSchema = z
  .object({
    hosted: z.number().int(),
    not_hosted: z.number().int(),
    rows: z.array(z.object({ domain_id: z.uuid(), name: z.string(), queries: z.number().int() })),
  })
  .openapi('IntelligenceTrafficFocus')

const TemplateSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    name: z.string(),
    modules: z.array(z.enum(MODULES)),
    tld_groups: z.array(z.enum(TLD_GROUPS)),
    keywords: z.array(z.string()),
    lookalike_min_score: z.number().int(),
    created_at: z.string(),
  })
  .openapi('IntelligenceTemplate')
const TemplateBody = z
  .object({
    name: z.string().max(200),
    modules: z.array(z.string().max(50)).max(10).optional(),
    tld_groups: z.array(z.string().max(20)).max(4).optional(),
    keywords: z.array(z.string().max(100)).max(50).optional(),
    lookalike_min_score: z.number().int().optional(),
  })
  .strict()
  .openapi('IntelligenceTemplateCreate')

const ModuleSchema = z.object({ name: z.enum(MODULES), reads: z.array(z.enum(MODULE_SOURCE_NAMES)), cadence: z.enum(['per-run', 'live']) }).openapi('IntelligenceModule')

const iso = (d: Date | null) => d?.toISOString() ?? null
const itemJson = (i: IntelligenceItem) => ({
  id: i.id,
  group_id: i.account_id,
  kind: i.kind,
  name: i.name,
  brand: i.brand,
  strings: i.strings,
  keywords: i.keywords,
  known_domains: i.known_domains,
  priority_cctlds: i.priority_cctlds,
  tld_groups: i.tld_groups,
  modules: i.modules,
  lookalike_min_score: i.lookalike_min_score,
  template_id: i.template_id,
  schedule: i.schedule,
  version: i.version,
  created_at: i.created_at.toISOString(),
  updated_at: i.updated_at.toISOString(),
})
const runJson = (r: IntelligenceRun) => ({
  id: r.id,
  item_id: r.item_id,
  status: r.status,
  trigger: r.trigger,
  done: r.done,
  total: r.total,
  patterns: r.patterns,
  summary: r.summary,
  error: r.error,
  created_by: r.created_by,
  created_at: r.created_at.toISOString(),
  started_at: iso(r.started_at),
  finished_at: iso(r.finished_at),
})
const cellJson = (c: IntelligenceCell) => ({
  pattern: c.pattern,
  name: c.name,
  unicode_name: c.unicode_name,
  tld: c.tld,
  tld_group: c.tld_group,
  state: c.state,
  evidence: c.evidence,
  price_minor: c.price_minor === null ? null : Number(c.price_minor),
  currency: c.currency,
  checked_at: c.checked_at.toISOString(),
})
const templateJson = (t: IntelligenceTemplate) => ({
  id: t.id,
  group_id: t.account_id,
  name: t.name,
  modules: t.modules,
  tld_groups: t.tld_groups,
  keywords: t.keywords,
  lookalike_min_score: t.lookalike_min_score,
  created_at: t.created_at.toISOString(),
})

export const intelligenceRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/intelligence/modules',
      ...access('prospect-viewer'),
      tags: TAGS,
      summary: 'The modules an item may run: what each reads and how often',
      responses: { 200: jsonResponse(z.object({ data: z.array(ModuleSchema), weights: SecuritySchema.shape.weights }).openapi('IntelligenceModules')), ...ProblemResponses },
    }),
    (c) => c.json({ data: MODULES.map((name) => ({ name, reads: [...MODULE_SOURCES[name].reads], cadence: MODULE_SOURCES[name].cadence })), weights: { ...MEASURE_WEIGHTS } }, 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/intelligence/items',
      ...access('prospect-viewer'),
      tags: TAGS,
      summary: 'The intelligence items the context reaches (staff in their own group: every account’s), each with its last run',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(ItemRow), ...ProblemResponses },
    }),
    async (c) => c.json(await listPage(c, requireScope(c, c.req.valid('param').context), itemsResources), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/intelligence/items',
      ...access('prospect-manager'),
      tags: TAGS,
      summary: 'Add an item: a client’s brand (in the client’s account) or a prospect’s (in the registrar’s own)',
      request: { params: ContextParam, body: jsonBody(ItemBody) },
      responses: { 201: jsonResponse(ItemSchema, 'Added'), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => c.json(itemJson(await createItem(c.get('deps'), requireScope(c, c.req.valid('param').context), c.req.valid('json'))), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/intelligence/items/{id}',
      ...access('prospect-viewer'),
      tags: TAGS,
      summary: 'One item',
      request: { params: Params },
      responses: { 200: jsonResponse(ItemSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(itemJson(await itemOf(c.get('deps').db, requireScope(c, context), id)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/intelligence/items/{id}',
      ...access('prospect-manager'),
      tags: TAGS,
      summary: 'Remove an item with its runs',
      request: { params: Params },
      responses: { 204: { description: 'Removed' }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      await deleteItem(c.get('deps'), requireScope(c, context), id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/intelligence/items/{id}/runs',
      ...access('prospect-viewer'),
      tags: TAGS,
      summary: 'The item’s runs, newest first (50): progress, patterns and totals of each, to compare over time',
      request: { params: Params },
      responses: { 200: jsonResponse(z.object({ data: z.array(RunSchema) }).openapi('IntelligenceRuns')), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json({ data: (await runsOf(c.get('deps').db, requireScope(c, context), id)).map(runJson) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/intelligence/items/{id}/runs',
      ...access('prospect-manager'),
      tags: TAGS,
      summary: 'Run the item now (a job; one at a time per item: a run already queued or running is answered)',
      request: { params: Params },
      responses: { 202: jsonResponse(RunSchema, 'Queued'), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(runJson(await startRun(c.get('deps'), requireScope(c, context), id)), 202)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/intelligence/items/{id}/gap_analysis',
      ...access('prospect-viewer'),
      tags: TAGS,
      summary: 'The gap matrix of the item’s newest finished run: every cell’s state, evidence and price. 404 gap_analysis.none while no run has finished',
      request: { params: Params },
      responses: { 200: jsonResponse(GapSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const gap = await gapAnalysis(c.get('deps').db, requireScope(c, context), id)
      return c.json({ run: runJson(gap.run), columns: gap.columns, cells: gap.cells.map(cellJson) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/intelligence/items/{id}/security',
      ...access('prospect-viewer'),
      tags: TAGS,
      summary: 'The security score of the brand’s domains we hold: each measure, the published weights, the score per domain (worst first, `limit` of them, 500 at most) and per brand',
      request: { params: Params, query: z.object({ limit: z.coerce.number().int().min(1).max(500).optional() }) },
      responses: { 200: jsonResponse(SecuritySchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const s = await securityOf(c.get('deps').db, requireScope(c, context), id, c.req.valid('query').limit ?? 500)
      return c.json({ score: s.score, total: s.total, weights: { ...MEASURE_WEIGHTS }, domains: s.domains }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/intelligence/items/{id}/fixes',
      ...access('prospect-manager'),
      tags: TAGS,
      summary: 'Apply a failing point’s fix: a CAA, SPF, DMARC or DKIM record added to the domain’s zone we host, through the DNS service (its permission, audit and publishing)',
      request: { params: Params, body: jsonBody(FixBody) },
      responses: { 200: jsonResponse(FixResult), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const { domain_id, measure } = c.req.valid('json')
      return c.json(await applyFix(c.get('deps'), requireScope(c, context), id, domain_id, measure), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/intelligence/items/{id}/ssl-focus',
      ...access('prospect-viewer'),
      tags: TAGS,
      summary: 'The certificates we hold for the brand’s names (issuer, expiry, key, wildcard) and its domains none covers',
      request: { params: Params },
      responses: { 200: jsonResponse(SslFocusSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const deps = c.get('deps')
      const focus = await sslFocus(deps.db, requireScope(c, context), id, deps.now())
      return c.json({ certificates: focus.certificates, uncovered: focus.uncovered }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/intelligence/items/{id}/traffic-focus',
      ...access('prospect-viewer'),
      tags: TAGS,
      summary: 'The queries our PowerDNS answered for each of the brand’s zones we host over 30 days (sampled statistics, decision 202)',
      request: { params: Params },
      responses: { 200: jsonResponse(TrafficFocusSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const deps = c.get('deps')
      const focus = await trafficFocus(deps.db, requireScope(c, context), id, deps.now())
      return c.json({ hosted: focus.hosted, not_hosted: focus.not_hosted, rows: focus.rows }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/intelligence/templates',
      ...access('prospect-viewer'),
      tags: TAGS,
      summary: 'The saved sets of modules, TLD groups and patterns',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(z.object({ data: z.array(TemplateSchema) }).openapi('IntelligenceTemplates')), ...ProblemResponses },
    }),
    async (c) => c.json({ data: (await templatesOf(c.get('deps').db, requireScope(c, c.req.valid('param').context))).map(templateJson) }, 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/intelligence/templates',
      ...access('prospect-manager'),
      tags: TAGS,
      summary: 'Save a template',
      request: { params: ContextParam, body: jsonBody(TemplateBody) },
      responses: { 201: jsonResponse(TemplateSchema, 'Saved'), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => c.json(templateJson(await createTemplate(c.get('deps'), requireScope(c, c.req.valid('param').context), c.req.valid('json'))), 201),
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/intelligence/templates/{id}',
      ...access('prospect-manager'),
      tags: TAGS,
      summary: 'Remove a template (items made from it keep their settings)',
      request: { params: Params },
      responses: { 204: { description: 'Removed' }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      await deleteTemplate(c.get('deps'), requireScope(c, context), id)
      return c.body(null, 204)
    },
  )
