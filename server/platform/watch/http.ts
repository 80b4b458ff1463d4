import { createRoute, z } from '@hono/zod-openapi'
import { CASE_ACTIONS, CASE_STATES, EVIDENCE_KINDS, NOTICE_LANGUAGES, REASONS, RESOLUTIONS, RISKS, TRIAGES, WATCH_SOURCES } from '#common/watch.ts'
import type { Watch, WatchCase, WatchDetection, WatchEvidence, WatchTemplate } from '#server/db/schema-watch.ts'
import { getBrand } from '#server/platform/brand/service.ts'
import { liveDomainsNamed } from '#server/platform/domains/reads.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, ConflictResponse, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import {
  addContact,
  caseDetail,
  casesResource,
  createTemplate,
  createWatch,
  deleteWatch,
  detectionsResource,
  evidenceOf,
  getDetection,
  getWatch,
  openCase,
  removeContact,
  runWatch,
  stepCase,
  templatesResource,
  updateWatch,
  watchContacts,
  watchesResource,
  watchOverview,
} from './service.ts'

const TAGS = ['Watch']
const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })
const iso = (d: Date | null) => d?.toISOString() ?? null

const Settings = {
  sources: z.array(z.enum(WATCH_SOURCES)).openapi({ description: 'What the watch draws on: the lookalike engine over the brand, zone files, Certificate Transparency, keywords' }),
  interval_hours: z.number().int().min(1).max(720).openapi({ description: 'How often it runs' }),
  min_similarity: z.number().int().min(0).max(100).openapi({ description: 'The lookalikes it asks of the DNS: at least this alike (the engine’s 0–100)' }),
  threshold_high: z.number().int().min(1).max(100).openapi({ description: 'Points from which a detection is high' }),
  threshold_critical: z.number().int().min(1).max(100).openapi({ description: 'Points from which a detection is critical' }),
  notice_text: z.string().max(5000).nullable().openapi({ description: 'Words added to its takedown notices' }),
}

const RunSchema = z
  .object({ candidates: z.number().int(), asked: z.number().int(), found: z.number().int(), new: z.number().int(), changed: z.number().int(), ms: z.number().int() })
  .openapi('WatchRun')

const WatchSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    name: z.string(),
    brand_id: z.uuid(),
    brand_label: z.string(),
    template_id: z.uuid().nullable(),
    ...Settings,
    last_run_at: z.string().nullable(),
    last_run: RunSchema.nullable(),
    next_run_at: z.string(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Watch')

const WatchDetailSchema = WatchSchema.extend({
  brand: z.object({ label: z.string(), domains: z.array(z.string()), dictionary: z.array(z.string()), fuzzers: z.array(z.string()) }),
  own_domains: z
    .array(z.object({ name: z.string(), in_portfolio: z.boolean(), expires_at: z.string().nullable() }))
    .openapi({ description: 'The brand’s own names and whether the account holds each' }),
}).openapi('WatchDetail')

const WatchRow = z
  .object({
    id: z.uuid(),
    name: z.string(),
    brand: z.object({ label: z.string() }),
    sources: z.array(z.string()),
    interval_hours: z.number().int(),
    detections: z.number().int(),
    critical: z.number().int(),
    open_cases: z.number().int(),
    last_run_at: z.string().nullable(),
    next_run_at: z.string(),
    created_at: z.string(),
  })
  .partial()
  .openapi('WatchRow')

const ReasonSchema = z.object({ code: z.enum(REASONS), points: z.number().int(), detail: z.string().optional() }).openapi('WatchReason')

const DetectionRow = z
  .object({
    id: z.uuid(),
    watch_id: z.uuid(),
    name: z.string(),
    unicode_name: z.string(),
    tld: z.string(),
    fuzzers: z.array(z.string()),
    similarity: z.number().int(),
    points: z.number().int(),
    risk: z.enum(RISKS),
    mail_ready: z.boolean(),
    web_ready: z.boolean(),
    registrar: z.string().nullable(),
    cluster: z.string(),
    cluster_size: z.number().int(),
    case_id: z.uuid().nullable(),
    first_seen_at: z.string(),
    changed_at: z.string(),
  })
  .partial()
  .openapi('WatchDetectionRow')

const EvidenceSchema = z.object({ id: z.uuid(), kind: z.enum(EVIDENCE_KINDS), captured_at: z.string(), sha256: z.string(), data: z.record(z.string(), z.unknown()) }).openapi('WatchEvidence')

const DetectionSchema = z
  .object({
    id: z.uuid(),
    watch_id: z.uuid(),
    name: z.string(),
    unicode_name: z.string(),
    tld: z.string(),
    fuzzers: z.array(z.string()),
    similarity: z.number().int(),
    points: z.number().int(),
    risk: z.enum(RISKS),
    reasons: z.array(ReasonSchema),
    mail_ready: z.boolean(),
    web_ready: z.boolean(),
    registrar: z.string().nullable(),
    abuse_email: z.string().nullable(),
    cluster: z.string(),
    cluster_size: z.number().int(),
    first_seen_at: z.string(),
    last_seen_at: z.string(),
    changed_at: z.string(),
    evidence: z.array(EvidenceSchema),
  })
  .openapi('WatchDetection')

const CaseSchema = z
  .object({
    id: z.uuid(),
    watch_id: z.uuid(),
    detection_id: z.uuid(),
    names: z.array(z.string()),
    tld: z.string(),
    risk: z.enum(RISKS),
    state: z.enum(CASE_STATES),
    triage: z.enum(TRIAGES).nullable(),
    action: z.enum(CASE_ACTIONS).nullable(),
    resolution: z.enum(RESOLUTIONS).nullable(),
    notice_to: z.string().nullable(),
    notice_language: z.string().nullable(),
    notice_sent_at: z.string().nullable(),
    udrp_commenced_at: z.string().nullable(),
    udrp_panel_at: z.string().nullable(),
    udrp_decided_at: z.string().nullable(),
    urs_noticed_at: z.string().nullable(),
    opened_at: z.string(),
    resolved_at: z.string().nullable(),
    version: z.number().int(),
  })
  .openapi('WatchCase')

const CaseDetailSchema = z
  .object({
    case: CaseSchema,
    watch: z.object({ id: z.uuid(), name: z.string(), brand_label: z.string() }),
    detection: DetectionSchema,
    steps: z.array(z.object({ id: z.uuid(), state: z.string(), detail: z.string().nullable(), note: z.string().nullable(), actor_label: z.string(), at: z.string() })),
    sends: z.array(z.object({ step: z.string(), recipient: z.string(), subject: z.string(), sent_at: z.string() })),
    deadlines: z.array(z.object({ key: z.enum(['udrp-response', 'udrp-decision', 'udrp-transfer', 'urs-lock', 'urs-response', 'escalation']), due: z.string() })),
    urs: z.boolean().openapi({ description: 'Whether URS applies to the case’s TLD' }),
  })
  .openapi('WatchCaseDetail')

const CaseRow = z
  .object({
    id: z.uuid(),
    watch_id: z.uuid(),
    watch: z.object({ name: z.string() }),
    name: z.string(),
    names: z.array(z.string()),
    tld: z.string(),
    risk: z.enum(RISKS),
    state: z.enum(CASE_STATES),
    triage: z.enum(TRIAGES).nullable(),
    action: z.enum(CASE_ACTIONS).nullable(),
    resolution: z.enum(RESOLUTIONS).nullable(),
    notice_to: z.string().nullable(),
    notice_sent_at: z.string().nullable(),
    opened_at: z.string(),
    resolved_at: z.string().nullable(),
  })
  .partial()
  .openapi('WatchCaseRow')

const TemplateSchema = z.object({ id: z.uuid(), name: z.string(), shared: z.boolean(), ...Settings, created_at: z.string() }).openapi('WatchTemplate')
const TemplateRow = z
  .object({
    id: z.uuid(),
    name: z.string(),
    shared: z.boolean(),
    sources: z.array(z.string()),
    interval_hours: z.number().int(),
    min_similarity: z.number().int(),
    threshold_high: z.number().int(),
    threshold_critical: z.number().int(),
    created_at: z.string(),
  })
  .partial()
  .openapi('WatchTemplateRow')

const ContactSchema = z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable(), language: z.string(), created_at: z.string() }).openapi('WatchContact')

const OverviewSchema = z
  .object({
    watches: z.number().int(),
    states: z.object({ new: z.number().int(), triaged: z.number().int(), action: z.number().int(), resolved: z.number().int() }),
    risks: z.object({ low: z.number().int(), high: z.number().int(), critical: z.number().int() }).openapi({ description: 'Open cases by risk' }),
    taken_down: z.number().int(),
    days_to_takedown: z.number().nullable().openapi({ description: 'Average days from a case’s opening to its takedown' }),
    recidivists: z.array(z.object({ registrar: z.string(), count: z.number().int() })).openapi({ description: 'Registrars sponsoring more than one detection' }),
    deadlines: z.array(z.object({ case_id: z.uuid(), watch_id: z.uuid(), name: z.string(), key: z.string(), due: z.string() })).openapi({ description: 'Deadlines of open cases within 7 days' }),
  })
  .openapi('WatchOverview')

const WatchBody = z
  .object({ name: z.string().max(100), brand_id: z.uuid(), template_id: z.uuid().nullable().optional(), ...Settings })
  .partial({ sources: true, interval_hours: true, min_similarity: true, threshold_high: true, threshold_critical: true, notice_text: true })
  .strict()
  .openapi('WatchCreate')
const WatchPatch = z
  .object({ name: z.string().max(100), ...Settings })
  .partial()
  .extend({ version: z.number().int() })
  .strict()
  .openapi('WatchUpdate')
const TemplateBody = z
  .object({ name: z.string().max(100), ...Settings })
  .partial({ sources: true, interval_hours: true, min_similarity: true, threshold_high: true, threshold_critical: true, notice_text: true })
  .strict()
  .openapi('WatchTemplateCreate')
const ContactBody = z
  .object({ email: z.string().max(254), name: z.string().max(200).nullable().optional(), language: z.enum(NOTICE_LANGUAGES).optional() })
  .strict()
  .openapi('WatchContactCreate')
const CaseBody = z
  .object({ cluster: z.boolean().optional().openapi({ description: 'Cover every name of the detection’s cluster' }) })
  .strict()
  .openapi('WatchCaseCreate')
const StepBody = z
  .object({
    version: z.number().int(),
    to: z.enum(['triaged', 'action', 'resolved']),
    triage: z.enum(TRIAGES).optional(),
    action: z.enum(CASE_ACTIONS).optional(),
    resolution: z.enum(RESOLUTIONS).optional(),
    note: z.string().max(2000).optional(),
    notice_to: z.string().max(254).optional().openapi({ description: 'notice-sent: the abuse contact (default: the RDAP answer’s)' }),
    language: z.enum(NOTICE_LANGUAGES).optional().openapi({ description: 'notice-sent: the notice’s language (default: by the TLD)' }),
    commenced_at: z.string().max(40).optional().openapi({ description: 'udrp/urs: when the proceeding commenced (default now)' }),
    panel_at: z.string().max(40).optional(),
    decided_at: z.string().max(40).optional(),
  })
  .strict()
  .openapi('WatchCaseStep')

const watchJson = (w: Watch) => ({
  id: w.id,
  group_id: w.account_id,
  name: w.name,
  brand_id: w.brand_id,
  brand_label: w.brand_label,
  template_id: w.template_id,
  sources: w.sources as (typeof WATCH_SOURCES)[number][],
  interval_hours: w.interval_hours,
  min_similarity: w.min_similarity,
  threshold_high: w.threshold_high,
  threshold_critical: w.threshold_critical,
  notice_text: w.notice_text,
  last_run_at: iso(w.last_run_at),
  last_run: w.last_run,
  next_run_at: w.next_run_at.toISOString(),
  version: w.version,
  created_at: w.created_at.toISOString(),
  updated_at: w.updated_at.toISOString(),
})
const evidenceJson = (e: WatchEvidence) => ({ id: e.id, kind: e.kind, captured_at: e.captured_at.toISOString(), sha256: e.sha256, data: e.data })
const detectionJson = (d: WatchDetection, evidence: WatchEvidence[]) => ({
  id: d.id,
  watch_id: d.watch_id,
  name: d.name,
  unicode_name: d.unicode_name,
  tld: d.tld,
  fuzzers: d.fuzzers,
  similarity: d.similarity,
  points: d.points,
  risk: d.risk,
  reasons: d.reasons as { code: (typeof REASONS)[number]; points: number; detail?: string }[],
  mail_ready: d.mail_ready,
  web_ready: d.web_ready,
  registrar: d.registrar,
  abuse_email: d.abuse_email,
  cluster: d.cluster,
  cluster_size: d.cluster_size,
  first_seen_at: d.first_seen_at.toISOString(),
  last_seen_at: d.last_seen_at.toISOString(),
  changed_at: d.changed_at.toISOString(),
  evidence: evidence.map(evidenceJson),
})
const caseJson = (c: WatchCase) => ({
  id: c.id,
  watch_id: c.watch_id,
  detection_id: c.detection_id,
  names: c.names,
  tld: c.tld,
  risk: c.risk,
  state: c.state,
  triage: c.triage,
  action: c.action,
  resolution: c.resolution,
  notice_to: c.notice_to,
  notice_language: c.notice_language,
  notice_sent_at: iso(c.notice_sent_at),
  udrp_commenced_at: iso(c.udrp_commenced_at),
  udrp_panel_at: iso(c.udrp_panel_at),
  udrp_decided_at: iso(c.udrp_decided_at),
  urs_noticed_at: iso(c.urs_noticed_at),
  opened_at: c.opened_at.toISOString(),
  resolved_at: iso(c.resolved_at),
  version: c.version,
})
const templateJson = (t: WatchTemplate) => ({
  id: t.id,
  name: t.name,
  shared: t.account_id === null,
  sources: t.sources as (typeof WATCH_SOURCES)[number][],
  interval_hours: t.interval_hours,
  min_similarity: t.min_similarity,
  threshold_high: t.threshold_high,
  threshold_critical: t.threshold_critical,
  notice_text: t.notice_text,
  created_at: t.created_at.toISOString(),
})

export const watchRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/watches',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'The account’s watches, each with its detections, open cases and last run',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(WatchRow), ...ProblemResponses },
    }),
    async (c) => c.json(await listPage(c, requireScope(c, c.req.valid('param').context), watchesResource), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/watches',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Add a watch over one of the account’s brands, from a template or with its own settings',
      request: { params: ContextParam, body: jsonBody(WatchBody) },
      responses: { 201: jsonResponse(WatchSchema, 'Added'), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => c.json(watchJson(await createWatch(c.get('deps'), requireScope(c, c.req.valid('param').context), c.req.valid('json'))), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/watches/{id}',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'One watch with its brand and the brand’s own names',
      request: { params: Params },
      responses: { 200: jsonResponse(WatchDetailSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const db = c.get('deps').db
      const watch = await getWatch(db, scope, id)
      const brand = await getBrand(db, scope, watch.brand_id)
      const held = brand.domains.length ? await liveDomainsNamed(db, watch.account_id, brand.domains).select(['domains.name', 'domains.expires_at']).execute() : []
      return c.json(
        {
          ...watchJson(watch),
          brand: { label: brand.label, domains: brand.domains, dictionary: brand.dictionary, fuzzers: brand.fuzzers },
          own_domains: brand.domains.map((name) => {
            const d = held.find((h) => h.name === name)
            return { name, in_portfolio: !!d, expires_at: iso(d?.expires_at ?? null) }
          }),
        },
        200,
      )
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/groups/{context}/watches/{id}',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Change a watch at the version read',
      request: { params: Params, body: jsonBody(WatchPatch) },
      responses: { 200: jsonResponse(WatchSchema), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(watchJson(await updateWatch(c.get('deps'), requireScope(c, context), id, c.req.valid('json'))), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/watches/{id}',
      ...access('brand-admin'),
      tags: TAGS,
      summary: 'Remove a watch with its detections and cases',
      request: { params: Params },
      responses: { 204: { description: 'Removed' }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      await deleteWatch(c.get('deps'), requireScope(c, context), id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/watches/{id}/run',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Run a watch now: its brand’s lookalikes asked of the DNS, the registered ones detected with their evidence, rated and clustered',
      request: { params: Params },
      responses: { 200: jsonResponse(RunSchema.extend({ fresh: z.array(z.string()) }).openapi('WatchRunResult')), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await runWatch(c.get('deps'), requireScope(c, context), id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/watches/{id}/contacts',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'Who is told of the watch’s new detections and reminders',
      request: { params: Params },
      responses: { 200: jsonResponse(z.object({ data: z.array(ContactSchema) }).openapi('WatchContacts')), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const rows = await watchContacts(c.get('deps').db, requireScope(c, context), id)
      return c.json({ data: rows.map((r) => ({ id: r.id, email: r.email, name: r.name, language: r.language, created_at: r.created_at.toISOString() })) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/watches/{id}/contacts',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Tell someone (a user of the account or an outside address) of the watch’s news',
      request: { params: Params, body: jsonBody(ContactBody) },
      responses: { 201: jsonResponse(ContactSchema, 'Added'), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const r = await addContact(c.get('deps'), requireScope(c, context), id, c.req.valid('json'))
      return c.json({ id: r.id, email: r.email, name: r.name, language: r.language, created_at: r.created_at.toISOString() }, 201)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/watches/{id}/contacts/{contactId}',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Stop telling a contact',
      request: { params: Params.extend({ contactId: z.uuid() }) },
      responses: { 204: { description: 'Removed' }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, id, contactId } = c.req.valid('param')
      await removeContact(c.get('deps'), requireScope(c, context), id, contactId)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/watch-detections',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'Detections of the account’s watches: registered lookalikes rated low, high or critical, clustered',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(DetectionRow), ...ProblemResponses },
    }),
    async (c) => c.json(await listPage(c, requireScope(c, c.req.valid('param').context), detectionsResource), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/watch-detections/{id}',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'One detection with its reasons and every piece of evidence captured',
      request: { params: Params },
      responses: { 200: jsonResponse(DetectionSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const db = c.get('deps').db
      const d = await getDetection(db, scope, id)
      return c.json(detectionJson(d, await evidenceOf(db, scope, [d.id])), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/watch-detections/{id}/case',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Open a case over a detection (or its whole cluster)',
      request: { params: Params, body: jsonBody(CaseBody) },
      responses: { 201: jsonResponse(CaseSchema, 'Opened'), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(caseJson(await openCase(c.get('deps'), requireScope(c, context), id, c.req.valid('json'))), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/watch-cases',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'Cases of the account’s watches',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(CaseRow), ...ProblemResponses },
    }),
    async (c) => c.json(await listPage(c, requireScope(c, c.req.valid('param').context), casesResource), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/watch-cases/{id}',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'One case: its steps, what was mailed, its evidence and its deadlines',
      request: { params: Params },
      responses: { 200: jsonResponse(CaseDetailSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const d = await caseDetail(c.get('deps').db, requireScope(c, context), id)
      return c.json(
        {
          case: caseJson(d.case),
          watch: { id: d.watch.id, name: d.watch.name, brand_label: d.watch.brand_label },
          detection: detectionJson(d.detection, d.evidence),
          steps: d.steps.map((s) => ({ id: s.id, state: s.state, detail: s.detail, note: s.note, actor_label: s.actor_label, at: s.at.toISOString() })),
          sends: d.sends.map((s) => ({ step: s.step, recipient: s.recipient, subject: s.subject, sent_at: s.sent_at.toISOString() })),
          deadlines: d.deadlines.map((x) => ({ key: x.key, due: x.due.toISOString() })),
          urs: d.urs,
        },
        200,
      )
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/watch-cases/{id}/steps',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Move a case: triage, an action (a notice is mailed to the abuse contact once; URS only where it applies), or its resolution',
      request: { params: Params, body: jsonBody(StepBody) },
      responses: { 200: jsonResponse(CaseSchema), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(caseJson(await stepCase(c.get('deps'), requireScope(c, context), id, c.req.valid('json'))), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/watch-templates',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'The templates a new watch may start from: staff’s and the account’s',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(TemplateRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await listPage(c, scope, templatesResource(scope)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/watch-templates',
      ...access('brand-admin'),
      tags: TAGS,
      summary: 'Add a template (staff in their own group: one for every account)',
      request: { params: ContextParam, body: jsonBody(TemplateBody) },
      responses: { 201: jsonResponse(TemplateSchema, 'Added'), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => c.json(templateJson(await createTemplate(c.get('deps'), requireScope(c, c.req.valid('param').context), c.req.valid('json'))), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/watch-overview',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'Across the account’s watches: open cases by state and risk, time to takedown, recidivism, deadlines this week',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(OverviewSchema), ...ProblemResponses },
    }),
    async (c) => {
      const deps = c.get('deps')
      const o = await watchOverview(deps.db, requireScope(c, c.req.valid('param').context), deps.now())
      return c.json({ ...o, deadlines: o.deadlines.map((d) => ({ ...d, due: d.due.toISOString() })) }, 200)
    },
  )
