import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { AppError, badRequest, forbidden } from '#server/platform/core/errors.ts'
import { ZONE_FILE_MAX_BYTES, ZONE_FILE_MEDIA_TYPE } from '#common/zone-file.ts'
import { createRouter, requireOwnScope, requireScope, type PlatformEnv } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { can, type Scope } from '#server/platform/core/scope.ts'
import { listQueryFromUrl, listResource, runList } from '#server/platform/list/engine.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { AUDIT_COLUMNS } from '#server/platform/audit/http.ts'
import { DNS_RECORDS_LIST, DNS_ZONE_LOG_LIST, DNS_ZONES_LIST, ZONE_DNSSEC_STATES, ZONE_PUBLISH_STATES } from '#common/lists/dns.ts'
import { createReplaceJob, getReplaceJob } from './bulk-replace.ts'
import { detectDrift, powerDnsClient } from './publish.ts'
import { zoneStatistics } from './statistics.ts'
import { applyChangeSet } from './changes.ts'
import { requestSigning, requestUnsigning } from './dnssec.ts'
import { exportZone } from './export.ts'
import { importZone } from './import.ts'
import { createZone, deleteZone, getZone, verifyZone, zoneView } from './zones.ts'
import { findZoneOverlaps } from './control.ts'
import { auditEntries } from '#server/platform/audit/reads.ts'

export const zonesResource = listResource(DNS_ZONES_LIST, {
  from: 'dns_zones z',
  accountColumn: 'z.account_id',
  tiebreak: 'z.id',
  columns: {
    id: 'z.id',
    name: 'z.name',
    domain_id: 'z.domain_id',
    serial: 'z.serial',
    publish_state: 'z.publish_state',
    last_error: 'z.last_error',
    dnssec_state: 'z.dnssec_state',
    verified: '(z.verified_at IS NOT NULL)',
    updated_at: 'z.updated_at',
  },
})

/** Records across every zone of the account: the record search and each zone's record list. */
export const recordsResource = listResource(DNS_RECORDS_LIST, {
  from: 'dns_records r JOIN dns_zones z ON z.id = r.zone_id',
  accountColumn: 'r.account_id',
  tiebreak: 'r.id',
  columns: {
    id: 'r.id',
    zone_id: 'r.zone_id',
    'zone.name': 'z.name',
    // A zone's records as a person reads them: the apex first, then the names in byte order
    // (`*`, digits, `_dmarc`, letters), whatever the database's collation.
    name: { column: 'r.name', sort: `(CASE WHEN r.name = z.name THEN '' ELSE r.name END) COLLATE "C"` },
    type: 'r.type',
    ttl: 'r.ttl',
    content: 'r.content',
    priority: 'r.priority',
    updated_at: 'r.updated_at',
  },
})

// The audit trail keeps only changed fields, so an update's entry may not name the zone: it is
// then the zone of the record now, or of the record's earlier entry (a record deleted since).
const ZONE_OF_ENTRY = `COALESCE(
  CASE WHEN ae.entity_type = 'dns_zone' THEN ae.entity_id END,
  ae.changes->'after'->>'zone_id', ae.changes->'before'->>'zone_id',
  (SELECT r.zone_id::text FROM dns_records r WHERE ae.entity_type = 'dns_record' AND r.id::text = ae.entity_id),
  (SELECT COALESCE(x.changes->'after'->>'zone_id', x.changes->'before'->>'zone_id') FROM ${auditEntries('x')}
    WHERE ae.entity_type = 'dns_record' AND x.account_id = ae.account_id AND x.entity_type = 'dns_record' AND x.entity_id = ae.entity_id
      AND COALESCE(x.changes->'after'->>'zone_id', x.changes->'before'->>'zone_id') IS NOT NULL LIMIT 1))`

/**
 * The DNS log of one zone: audit entries of area 'dns' about the zone itself or one of its
 * records (record entries carry the zone id in their before/after).
 */
export const zoneLogResource = listResource(DNS_ZONE_LOG_LIST, {
  from: auditEntries('ae'),
  accountColumn: 'ae.account_id',
  tiebreak: 'ae.id',
  where: "ae.area = 'dns'",
  columns: { ...AUDIT_COLUMNS, zone_id: ZONE_OF_ENTRY },
})

function scoped(c: Context<PlatformEnv>, context: string, permission: 'dns-viewer' | 'dns-admin'): Scope {
  const scope = requireScope(c, context)
  if (!can(scope.actor, permission)) throw forbidden(`This needs the ${permission} role`)
  return scope
}

const Rrset = z.object({ name: z.string(), type: z.string(), ttl: z.number().int(), contents: z.array(z.string()) })
const RrsetValue = z.object({ ttl: z.number().int(), contents: z.array(z.string()) })
/** A drift check's answer (publish.ts compareRrsets): rrsets missing from PowerDNS, there only, or held otherwise. */
const DriftReport = z
  .object({
    missing: z.array(Rrset),
    unexpected: z.array(Rrset),
    different: z.array(z.object({ name: z.string(), type: z.string(), ours: RrsetValue, powerdns: RrsetValue })),
  })
  .openapi('DnsDriftReport')

const Zone = z
  .object({
    id: z.uuid(),
    name: z.string(),
    domain_id: z.uuid().nullable(),
    kind: z.string(),
    serial: z.number().int(),
    publish_state: z.enum(ZONE_PUBLISH_STATES),
    published: z.boolean(),
    published_serial: z.number().int().nullable(),
    published_at: z.string().nullable(),
    last_error: z.string().nullable(),
    powerdns_configured: z.boolean(),
    dnssec_state: z.enum(ZONE_DNSSEC_STATES),
    ds_records: z.array(z.string()),
    drift: DriftReport.nullable().openapi({ description: 'What PowerDNS held otherwise than our records at the last check, or null' }),
    drift_checked_at: z.string().nullable(),
    control: z
      .enum(['portfolio', 'proof'])
      .openapi({ description: "portfolio: a domain of the account's portfolio or a name under one (or under a live zone of its own); proof: a name hosted elsewhere, proven by a TXT record" }),
    verified: z.boolean().openapi({ description: 'false while the proof of control is awaited: the zone is kept but not published' }),
    verified_at: z.string().nullable(),
    proof: z
      .object({ name: z.string(), type: z.literal('TXT'), value: z.string() })
      .nullable()
      .openapi({ description: 'While the proof is awaited: the TXT record to add where the name is hosted now, then POST …/verify' }),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('DnsZone')

const HolderSchema = z.object({ kind: z.enum(['domain', 'zone']), id: z.uuid(), account_id: z.uuid(), name: z.string() })
const ZoneOverlapSchema = z.object({ inner: HolderSchema, outer: HolderSchema }).openapi('DnsZoneOverlap')

const Record = z
  .object({
    id: z.uuid(),
    zone_id: z.uuid(),
    zone: z.object({ name: z.string() }),
    name: z.string(),
    type: z.string(),
    ttl: z.number().int(),
    content: z.string(),
    priority: z.number().int().nullable(),
    updated_at: z.string(),
  })
  .partial()
  .openapi('DnsRecord')

const RecordValue = z.object({ name: z.string(), type: z.string(), ttl: z.number().int(), content: z.string(), priority: z.number().int().nullable() })

const RecordFields = { name: z.string().max(300), type: z.string().max(10), ttl: z.number().int().optional(), content: z.string().max(70_000) }
const ChangeSet = z
  .object({
    dry_run: z.boolean().optional(),
    changes: z
      .array(
        z.discriminatedUnion('action', [
          z.object({ action: z.literal('add'), ...RecordFields }).strict(),
          z.object({ action: z.literal('update'), id: z.uuid(), ...z.object(RecordFields).partial().shape }).strict(),
          z.object({ action: z.literal('delete'), id: z.uuid() }).strict(),
        ]),
      )
      .min(1)
      .max(5000),
  })
  .strict()
  .openapi('DnsChangeSet')

const ChangeResult = z.object({
  applied: z.boolean(),
  zone: Zone,
  diff: z.object({ added: z.array(RecordValue), updated: z.array(z.object({ id: z.uuid(), before: RecordValue, after: RecordValue })), removed: z.array(RecordValue.extend({ id: z.uuid() })) }),
})

/** A line of the file with an error or warning; `code` and `params` let a screen translate it. */
const ZoneIssue = z.object({
  line: z.number().int(),
  column: z.number().int(),
  message: z.string(),
  code: z.string().optional(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
})

const ImportResult = z.object({
  applied: z.boolean(),
  counts: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int(), unchanged: z.number().int() }),
  added: z.array(RecordValue),
  changed: z.array(z.object({ before: RecordValue, after: RecordValue })),
  removed: z.array(RecordValue),
  errors: z.array(ZoneIssue),
  warnings: z.array(ZoneIssue),
  notes: z.array(z.string()),
  zone: Zone.optional(),
})

const DnssecView = z
  .object({
    state: z.enum(ZONE_DNSSEC_STATES),
    ds_records: z.array(z.string()),
    powerdns_configured: z.boolean(),
    keys: z.array(
      z.object({
        id: z.number().int(),
        keytype: z.string(),
        algorithm: z.string(),
        bits: z.number().int(),
        flags: z.number().int().nullable(),
        active: z.boolean(),
        dnskey: z.string(),
        ds: z.array(z.string()),
      }),
    ),
    keys_error: z.string().nullable(),
  })
  .openapi('DnsDnssec')

const ZoneStatisticsResponse = z
  .object({
    zone_id: z.uuid(),
    from: z.string(),
    to: z.string(),
    bucket_seconds: z.number().int(),
    total: z.number().int(),
    buckets: z.array(z.object({ start: z.string(), queries: z.number().int() })),
  })
  .openapi('DnsZoneStatistics')

const ContextParam = z.object({ context: z.string() })
const ZoneParams = z.object({ context: z.string(), zone: z.string() })

const RecordBulkJob = z
  .object({
    id: z.uuid(),
    action: z.literal('replace_record_content'),
    params: z.object({ from: z.string(), to: z.string(), kind: z.enum(['A', 'AAAA', 'host']), where: z.enum(['tray', 'all']) }),
    state: z.enum(['queued', 'running', 'completed', 'failed']),
    total: z.number().int(),
    done: z.number().int(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    results: z.array(
      z.object({
        id: z.uuid().openapi({ description: 'zone id' }),
        name: z.string().openapi({ description: 'zone name' }),
        state: z.enum(['pending', 'done']),
        ok: z.boolean().nullable(),
        // The outcomes of every bulk job's items; a zone's is applied or unchanged.
        outcome: z.enum(['applied', 'unchanged', 'approval_requested']).optional().openapi({ description: 'applied or unchanged for a zone' }),
        records: z.number().int().optional().openapi({ description: 'records changed in the zone' }),
        error: z.string().optional(),
      }),
    ),
  })
  .openapi('RecordBulkJob')

export const dnsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/zones',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'Zones of the account',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(Zone.partial()), ...ProblemResponses },
    }),
    async (c) => {
      const scope = scoped(c, c.req.valid('param').context, 'dns-viewer')
      return c.json(await listPage(c, scope, zonesResource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/zones',
      ...access('dns-admin'),
      tags: ['DNS'],
      summary: "Create a zone (for a domain of the account — the name defaults to the domain's — or standalone) with managed SOA and NS",
      description:
        "A zone is made for a domain of the account's portfolio or a name under one (or under a live zone of the account), and published. Any other name (hosted elsewhere) waits for a proof of control: the answer's `proof` names the TXT record to add, then POST …/verify. A name at, inside or above another account's domain or zone is refused (409 `dns.zone-name-held`), for staff too.",
      request: { params: ContextParam, body: jsonBody(z.object({ name: z.string().min(1).max(260).optional(), domain_id: z.uuid().nullable().optional() }).strict()) },
      responses: { 201: jsonResponse(Zone, 'Created'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = scoped(c, c.req.valid('param').context, 'dns-admin')
      const deps = c.get('deps')
      return c.json(zoneView(await createZone(deps, scope, c.req.valid('json')), deps), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/zones/{zone}/verify',
      ...access('dns-admin'),
      tags: ['DNS'],
      summary: 'Check the proof of control of a zone hosted elsewhere (its TXT record) and publish it',
      description:
        'Looks up `_registrar-portal-challenge.<zone>` TXT in the DNS; with the token of the zone the zone becomes live and is published (409 `dns.zone-proof-missing` otherwise). Staff may confirm a proof made another way (`staff_confirmed`).',
      request: { params: ZoneParams, body: { required: false, content: { 'application/json': { schema: z.object({ staff_confirmed: z.boolean().optional() }).strict() } } } },
      responses: { 200: jsonResponse(Zone), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const deps = c.get('deps')
      const body = (c.req.valid('json') ?? {}) as { staff_confirmed?: boolean }
      return c.json(zoneView(await verifyZone(deps, scoped(c, context, 'dns-admin'), zone, { staff: body.staff_confirmed === true }), deps), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/dns/zone-overlaps',
      ...access('staff'),
      tags: ['DNS'],
      summary: "Zones at, inside or above another account's domain or zone (staff): what PowerDNS may answer for someone else",
      responses: { 200: jsonResponse(z.object({ data: z.array(ZoneOverlapSchema) })), ...ProblemResponses },
    }),
    async (c) => {
      requireOwnScope(c)
      return c.json({ data: await findZoneOverlaps(c.get('deps').db) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/zones/{zone}',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'A zone: serial, publish state, DNSSEC, drift',
      request: { params: ZoneParams },
      responses: { 200: jsonResponse(Zone), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const scope = scoped(c, context, 'dns-viewer')
      const deps = c.get('deps')
      return c.json(zoneView(await getZone(deps.db, scope, zone), deps), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/zones/{zone}',
      ...access('dns-admin'),
      tags: ['DNS'],
      summary: 'Delete a zone and its records (refused while DNSSEC is on); PowerDNS forgets it in a job',
      request: { params: ZoneParams },
      responses: { 204: { description: 'Deleted' }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      await deleteZone(c.get('deps'), scoped(c, context, 'dns-admin'), zone)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/zones/{zone}/records',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'Records of a zone (filter by name, type, content)',
      request: { params: ZoneParams, query: ListQueryParams },
      responses: { 200: ListResponse(Record), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const scope = scoped(c, context, 'dns-viewer')
      const db = c.get('deps').db
      const found = await getZone(db, scope, zone)
      const query = listQueryFromUrl(recordsResource, new URL(c.req.url))
      query.filters.push({ field: 'zone_id', operator: 'equals', values: [found.id] })
      return c.json(await runList(db, recordsResource, query, scope), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/zones/{zone}/changes',
      ...access('dns-admin'),
      tags: ['DNS'],
      summary: 'Apply adds, updates and deletes in one change (dry_run answers the diff only)',
      request: { params: ZoneParams, body: jsonBody(ChangeSet) },
      responses: { 200: jsonResponse(ChangeResult), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const scope = scoped(c, context, 'dns-admin')
      const deps = c.get('deps')
      const result = await applyChangeSet(deps, scope, zone, c.req.valid('json'))
      return c.json({ applied: result.applied, zone: zoneView(result.zone, deps), diff: result.diff }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/zones/{zone}/bind-import',
      ...access('dns-admin'),
      tags: ['DNS'],
      summary: 'Import a BIND master file: preview (dry_run) or apply atomically',
      description: `The file as JSON ({ text, dry_run }), or as the body itself with Content-Type ${ZONE_FILE_MEDIA_TYPE} (streamed to the parser; dry_run in the query). At most ${ZONE_FILE_MAX_BYTES} bytes either way.`,
      request: {
        params: ZoneParams,
        query: z.object({ dry_run: z.enum(['true', 'false']).optional() }),
        body: {
          required: false,
          content: {
            'application/json': { schema: z.object({ text: z.string().min(1), dry_run: z.boolean().optional() }).strict() },
            [ZONE_FILE_MEDIA_TYPE]: { schema: z.string().openapi({ format: 'binary' }) },
          },
        },
      },
      responses: { ...ProblemResponses, 200: jsonResponse(ImportResult) },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const scope = scoped(c, context, 'dns-admin')
      const deps = c.get('deps')
      const streamed = (c.req.header('content-type') ?? '').startsWith(ZONE_FILE_MEDIA_TYPE)
      const body = streamed ? null : (c.req.valid('json') as { text?: string; dry_run?: boolean })
      if (!streamed && !body?.text) throw badRequest('The request is not valid', [{ field: 'text', message: 'Send the zone file as text, or as the body with Content-Type text/dns' }])
      const source = streamed ? (c.req.raw.body ?? []) : [body!.text!]
      const result = await importZone(deps, scope, zone, source, { dry_run: streamed ? c.req.valid('query').dry_run === 'true' : body!.dry_run })
      const out = { ...result, zone: result.zone ? zoneView(result.zone, deps) : undefined }
      if (!result.errors.length) return c.json(out, 200)
      // A file with errors is a problem like any other refusal; the preview rides along as its members.
      throw new AppError(400, 'zone-file-invalid', `The file has ${result.errors.length} error${result.errors.length === 1 ? '' : 's'}; nothing was written`, {
        errors: result.errors.map((e) => ({ field: 'text', ...e })),
        extra: { applied: false, counts: out.counts, added: out.added, changed: out.changed, removed: out.removed, warnings: out.warnings, notes: out.notes, ...(out.zone ? { zone: out.zone } : {}) },
      })
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/zones/{zone}/export',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'The zone as a BIND master file',
      request: { params: ZoneParams },
      responses: { 200: { description: 'BIND master file', content: { 'text/dns': { schema: z.string() } } }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const scope = scoped(c, context, 'dns-viewer')
      const deps = c.get('deps')
      const found = await getZone(deps.db, scope, zone)
      const chunks = exportZone(deps.database, scope, found.id)
      const encoder = new TextEncoder()
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await chunks.next()
          if (next.done) controller.close()
          else controller.enqueue(encoder.encode(next.value))
        },
      })
      return c.body(stream, 200, { 'content-type': 'text/dns; charset=utf-8', 'content-disposition': `attachment; filename="${found.name}.zone"` })
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/zones/{zone}/drift',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'Compare PowerDNS with our records now',
      request: { params: ZoneParams },
      responses: { 200: jsonResponse(Zone), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const scope = scoped(c, context, 'dns-viewer')
      const deps = c.get('deps')
      const found = await getZone(deps.db, scope, zone)
      // A zone waiting for its proof is not served: what PowerDNS holds under its name may be another account's (issue 26).
      if (found.verified_at) await detectDrift(deps, found)
      return c.json(zoneView(await getZone(deps.db, scope, zone), deps), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/zones/{zone}/dnssec/sign',
      ...access('dns-admin'),
      tags: ['DNS'],
      summary: 'Sign the zone (a CSK, ECDSAP256SHA256) as a job',
      request: { params: ZoneParams },
      responses: { 202: jsonResponse(Zone, 'Signing queued'), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const deps = c.get('deps')
      return c.json(zoneView(await requestSigning(deps, scoped(c, context, 'dns-admin'), zone), deps), 202)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/zones/{zone}/dnssec/unsign',
      ...access('dns-admin'),
      tags: ['DNS'],
      summary: 'Turn DNSSEC off safely: DS removed at the parent, the DS TTL waited, then unsigned',
      request: { params: ZoneParams },
      responses: { 202: jsonResponse(Zone, 'Unsigning queued'), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const deps = c.get('deps')
      return c.json(zoneView(await requestUnsigning(deps, scoped(c, context, 'dns-admin'), zone), deps), 202)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/zones/{zone}/dnssec',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'DNSSEC state of a zone with its keys (DNSKEY) and DS records, read from PowerDNS when it is configured',
      request: { params: ZoneParams },
      responses: { 200: jsonResponse(DnssecView), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const deps = c.get('deps')
      const found = await getZone(deps.db, scoped(c, context, 'dns-viewer'), zone)
      const client = powerDnsClient(deps)
      let keys: z.infer<typeof DnssecView>['keys'] = []
      let keysError: string | null = null
      if (client && found.dnssec_state !== 'unsigned') {
        try {
          keys = (await client.listCryptokeys(found.name)).map((k) => ({
            id: k.id,
            keytype: k.keytype,
            algorithm: k.algorithm,
            bits: k.bits,
            flags: k.flags ?? null,
            active: k.active,
            dnskey: k.dnskey,
            ds: k.ds ?? [],
          }))
        } catch (error) {
          // The state from our database still answers; the keys are unknown until PowerDNS answers.
          keysError = error instanceof Error ? error.message : String(error)
        }
      }
      return c.json({ state: found.dnssec_state, ds_records: found.ds_records, powerdns_configured: Boolean(client), keys, keys_error: keysError }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/zones/{zone}/log',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'The DNS log of a zone: every change of the zone and its records, with before and after',
      request: { params: ZoneParams, query: ListQueryParams },
      responses: { 200: ListResponse(z.object({}).passthrough()), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const scope = scoped(c, context, 'dns-viewer')
      const db = c.get('deps').db
      const found = await getZone(db, scope, zone)
      const query = listQueryFromUrl(zoneLogResource, new URL(c.req.url))
      query.filters.push({ field: 'zone_id', operator: 'equals', values: [found.id] })
      return c.json(await runList(db, zoneLogResource, query, scope), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/dns-records',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'Search records across every zone of the account',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(Record), ...ProblemResponses },
    }),
    async (c) => {
      const scope = scoped(c, c.req.valid('param').context, 'dns-viewer')
      return c.json(await listPage(c, scope, recordsResource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/zones/{zone}/statistics',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'Queries answered for the zone per 5-minute bucket (from PowerDNS, collected every minute)',
      request: { params: ZoneParams, query: z.object({ from: z.string().optional(), to: z.string().optional() }) },
      responses: { 200: jsonResponse(ZoneStatisticsResponse), ...ProblemResponses },
    }),
    async (c) => {
      const { context, zone } = c.req.valid('param')
      const scope = scoped(c, context, 'dns-viewer')
      return c.json(await zoneStatistics(c.get('deps'), scope, zone, c.req.valid('query')), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/record-bulk-actions',
      ...access('dns-admin'),
      tags: ['DNS'],
      summary: 'Replace an address (A/AAAA content) or host name (CNAME/MX target) in every zone that has it, as a job: one change set per zone',
      request: {
        params: ContextParam,
        body: jsonBody(
          z
            .object({
              action: z.literal('replace_record_content'),
              params: z
                .object({
                  from: z.string().min(1).max(253).openapi({ description: 'IPv4 or IPv6 address, or an absolute host name' }),
                  to: z.string().min(1).max(253).openapi({ description: 'The replacement, of the same kind' }),
                  where: z.enum(['tray', 'all']).optional().openapi({ description: "tray (default): the records of the user's tray that hold it; all: every record of the account" }),
                })
                .strict(),
            })
            .strict()
            .openapi('RecordBulkAction'),
        ),
      },
      responses: { 202: jsonResponse(z.object({ job_id: z.uuid() }), 'Accepted: the job runs in the background'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = scoped(c, c.req.valid('param').context, 'dns-admin')
      const job = await createReplaceJob(c.get('deps'), scope, c.req.valid('json').params)
      return c.json({ job_id: job.id }, 202)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/record-bulk-actions/{job_id}',
      ...access('dns-viewer'),
      tags: ['DNS'],
      summary: 'Progress and per-zone results of a record bulk job (the shape of a domain bulk job)',
      request: { params: z.object({ context: z.string(), job_id: z.uuid() }) },
      responses: { 200: jsonResponse(RecordBulkJob), ...ProblemResponses },
    }),
    async (c) => {
      const { context, job_id } = c.req.valid('param')
      const scope = scoped(c, context, 'dns-viewer')
      return c.json(await getReplaceJob(c.get('deps').db, scope, job_id), 200)
    },
  )
