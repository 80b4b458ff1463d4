import { createRoute, z } from '@hono/zod-openapi'
import { reachOf } from '#server/platform/core/scope.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, ConflictResponse, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses, RegistryProblemResponses } from '#server/platform/core/openapi.ts'
import { ExpectedPriceSchema } from '#server/platform/billing/expected-price.ts'
import { getImport, MAX_IMPORT_NAMES, startImport } from './jobs.ts'
import { checkAvailability, deleteDomains, quoteRegistryLock, quoteRenewal, quoteRestore, registryInfo, renewDomain, restoreDomain, revealAuthCode } from './lifecycle.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { differencesResourceFor, DOMAIN_STATUSES, domainsResourceFor, getDomainDetail, requireDomainManager, requireDomainViewer } from './portfolio.ts'
import { updateDomain } from './update.ts'
import { addDs, removeDs } from './ds.ts'

const TAGS = ['Domains']
const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })

const DirectQuote = z
  .object({
    action: z.enum(['renew', 'restore', 'registry-lock']),
    domain_id: z.uuid(),
    name: z.string(),
    period: z.number().int(),
    price: z
      .object({ amount_minor: z.number().int(), currency: z.string() })
      .nullable()
      .openapi({ description: 'What the action charges now, in the account’s currency; null when nothing is charged (no billing entity and no price)' }),
    quote: z.record(z.string(), z.unknown()).nullable().openapi({ description: 'The pricing engine’s quote: the rules and rates that made the price' }),
  })
  .openapi('DirectQuote')

export const DomainRow = z
  .object({
    id: z.uuid(),
    name: z.string().openapi({ description: 'ASCII (punycode) form', example: 'xn--80ak6aa92e.com' }),
    unicode_name: z.string(),
    tld: z.string(),
    status: z.enum(DOMAIN_STATUSES),
    expires_at: z.string().nullable(),
    auto_renew: z.boolean(),
    registry_lock: z.boolean(),
    dnssec: z.boolean(),
    tags: z.array(z.string()),
    registrant_name: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('DomainRow')

const ContactSummary = z.object({ id: z.uuid(), name: z.string(), organisation: z.string(), email: z.string() }).nullable()
const DsRecord = z.object({ key_tag: z.number().int(), alg: z.number().int(), digest_type: z.number().int(), digest: z.string() })
const Whole = z.union([z.number(), z.string().max(20)])
/** A DS as given: numbers as numbers or text, the digest hexadecimal (spaces allowed); the rules are the service's (common/ds.ts). */
const DsBody = z
  .object({
    key_tag: Whole.openapi({ description: 'The key tag, 0–65535', example: 12345 }),
    alg: Whole.openapi({ description: 'The DNSSEC algorithm: 5, 7, 8, 10, 13, 14, 15 or 16 (RFC 8624 forbids 1, 3, 6 and 12)', example: 13 }),
    digest_type: Whole.openapi({ description: 'The digest type: 2 (SHA-256) or 4 (SHA-384)', example: 2 }),
    digest: z.string().max(300).openapi({ description: 'The digest in hexadecimal: 64 digits for SHA-256, 96 for SHA-384' }),
  })
  .strict()
  .openapi('DsRecordInput')
const DsList = z.object({ ds: z.array(DsRecord) }).openapi('DsRecords')
const Difference = z.object({ field: z.string(), ours: z.string(), registry: z.string(), detected_at: z.string() })

export const DomainDetailSchema = DomainRow.extend({
  account_id: z.uuid(),
  registered_at: z.string().nullable(),
  version: z.number().int(),
  is_material: z.boolean().openapi({ description: 'Contact and nameserver changes need approval (material change requests)' }),
  statuses: z.array(z.string()).openapi({ description: 'EPP statuses as the registry last reported them' }),
  nameservers: z.array(z.string()),
  contacts: z.object(Object.fromEntries(CONTACT_ROLES.map((r) => [r, ContactSummary])) as Record<(typeof CONTACT_ROLES)[number], typeof ContactSummary>),
  ds: z.array(DsRecord),
  reconciliation: z.object({ checked_at: z.string().nullable(), differences: z.array(Difference) }),
}).openapi('DomainDetail')

const DifferenceRow = z
  .object({ id: z.uuid(), domain_id: z.uuid(), domain_name: z.string(), field: z.string(), ours: z.string(), registry: z.string(), detected_at: z.string() })
  .partial()
  .openapi('ReconciliationDifference')

const DomainPatch = z
  .object({
    version: z.number().int().min(0).openapi({ description: 'The version read; a domain changed since answers 409' }),
    auto_renew: z.boolean().optional(),
    registry_lock: z.boolean().optional(),
    tags: z.array(z.string().max(64)).max(50).optional(),
    nameservers: z.array(z.string().min(1).max(253)).max(13).optional(),
    contacts: z.object({ registrant: z.uuid(), admin: z.uuid(), tech: z.uuid(), billing: z.uuid() }).partial().strict().optional(),
    expected: ExpectedPriceSchema.optional().openapi({
      description: 'The registry-lock fee the person confirmed (GET …/registry-lock/quote): when turning the lock on is now priced otherwise, nothing changes (409 billing.quote_changed)',
    }),
  })
  .strict()
  .openapi('DomainPatch')

const ImportSchema = z
  .object({
    job_id: z.uuid(),
    state: z.enum(['queued', 'running', 'completed', 'failed']),
    total: z.number().int(),
    done: z.number().int(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    results: z.array(z.object({ line: z.number().int(), name: z.string(), ok: z.boolean().nullable(), error: z.string().optional(), domain_id: z.uuid().optional() })),
  })
  .openapi('DomainImport')

const DeletionResult = z
  .object({
    id: z.uuid(),
    ok: z.boolean(),
    name: z.string().optional(),
    outcome: z.enum(['add-grace-refund', 'deleted', 'redemption', 'pending-delete']).optional(),
    message: z.string().optional(),
    error: z
      .object({
        status: z.number().int(),
        code: z.string(),
        message: z.string(),
        registry_code: z.number().int().optional(),
        hosts: z.array(z.string()).optional().describe('`domain.subordinate_hosts`: the host objects under the domain that keep the registry from deleting it'),
      })
      .optional(),
  })
  .openapi('DomainDeletionResult')

export const domainsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'The domain portfolio (name contains uses a trigram index; totals above 10,000 are capped)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: {
        200: ListResponse(
          DomainRow.extend({
            group_id: z.uuid().openapi({ description: 'The account of the domain' }),
            billing_entity: z.uuid().nullable().openapi({ description: 'The billing entity paying for the account of the domain (null: none named yet)' }),
            registrar_lock: z.boolean().openapi({ description: 'The registry reported clientTransferProhibited (the registrar’s transfer lock) at the last sync' }),
          }).partial(),
        ),
        ...ProblemResponses,
      },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      requireDomainViewer(scope)
      return c.json(await listPage(c, scope, domainsResourceFor(scope)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains/reconciliation-differences',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'Open differences between the registry and our records, found by the reconciliation job',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(DifferenceRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      requireDomainViewer(scope)
      return c.json(await listPage(c, scope, differencesResourceFor(scope)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/domains/availability',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: "Availability at the registry, with each available name's price on the account's price list (the TLD's list price for staff without an account)",
      request: { params: ContextParam, body: jsonBody(z.object({ names: z.array(z.string().max(300)).min(1).max(100) }).strict()) },
      responses: {
        200: jsonResponse(
          z.object({
            results: z.array(z.object({ name: z.string(), available: z.boolean(), reason: z.string().optional(), price: z.object({ minor: z.number().int(), currency: z.string() }).optional() })),
          }),
        ),
        ...ProblemResponses,
        ...RegistryProblemResponses,
      },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json({ results: await checkAvailability(c.get('deps'), scope, c.req.valid('json').names) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/domains/imports',
      ...access('domain-manager'),
      tags: TAGS,
      summary: `Bring existing domains under management (pasted names or CSV, up to ${MAX_IMPORT_NAMES}); runs as a job`,
      request: { params: ContextParam, body: jsonBody(z.object({ names: z.array(z.string().max(300)).max(MAX_IMPORT_NAMES).optional(), csv: z.string().max(2_000_000).optional() }).strict()) },
      responses: { 202: jsonResponse(z.object({ job_id: z.uuid() }), 'Queued'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await startImport(c.get('deps'), scope, c.req.valid('json')), 202)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains/imports/{job_id}',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'Progress of an import and the result of every line',
      request: { params: z.object({ context: z.string(), job_id: z.uuid() }) },
      responses: { 200: jsonResponse(ImportSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, job_id } = c.req.valid('param')
      return c.json(await getImport(c.get('deps'), requireScope(c, context), job_id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/domains/deletions',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Delete domains under the registry rules: add-grace refund, or redemption then pending delete',
      request: { params: ContextParam, body: jsonBody(z.object({ ids: z.array(z.uuid()).min(1).max(1000) }).strict()) },
      responses: { 200: jsonResponse(z.object({ results: z.array(DeletionResult) })), ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json({ results: await deleteDomains(c.get('deps'), scope, c.req.valid('json').ids) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/domains/{id}/restore',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Restore a domain in redemption (RFC 3915), charging the restore fee (at the price confirmed, when `expected` is given)',
      request: { params: Params, body: { content: { 'application/json': { schema: z.object({ expected: ExpectedPriceSchema.optional() }).strict() } }, required: false } },
      responses: { 200: jsonResponse(DomainDetailSchema), ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const body = (c.req.valid('json') as { expected?: z.infer<typeof ExpectedPriceSchema> } | undefined) ?? {}
      await restoreDomain(c.get('deps'), scope, id, body.expected)
      return c.json(await getDomainDetail(c.get('deps').db, scope, id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/domains/{id}/renew',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Renew for a period the TLD allows, charging the renewal (at the price confirmed, when `expected` is given)',
      request: { params: Params, body: jsonBody(z.object({ period: z.number().int().min(1).max(10), expected: ExpectedPriceSchema.optional() }).strict()) },
      responses: { 200: jsonResponse(DomainDetailSchema), ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const body = c.req.valid('json')
      await renewDomain(c.get('deps'), scope, id, body.period, body.expected)
      return c.json(await getDomainDetail(c.get('deps').db, scope, id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains/{id}/renew/quote',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'What renewing for a period charges now (the pricing engine’s quote, the one the renewal charges); nothing is reserved',
      request: { params: Params, query: z.object({ period: z.coerce.number().int().min(1).max(10) }) },
      responses: { 200: jsonResponse(DirectQuote), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await quoteRenewal(c.get('deps'), requireScope(c, context), id, c.req.valid('query').period), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains/{id}/restore/quote',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'What restoring a domain in redemption charges now (the restore fee the restore charges); nothing is reserved',
      request: { params: Params },
      responses: { 200: jsonResponse(DirectQuote), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await quoteRestore(c.get('deps'), requireScope(c, context), id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains/{id}/registry-lock/quote',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'What turning the registry lock on charges now (the registry-lock fee of the price list; null when none); nothing is reserved',
      request: { params: Params },
      responses: { 200: jsonResponse(DirectQuote), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await quoteRegistryLock(c.get('deps'), requireScope(c, context), id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/domains/{id}/ds',
      ...access('domain-manager'),
      tags: TAGS,
      summary:
        'Add a DS record of a zone signed where it is hosted (RFC 4034; an algorithm and digest type RFC 8624 allows), sent to the registry over secDNS, audited; a domain whose zone is hosted here is refused (409 ds.zone-here)',
      request: { params: Params, body: jsonBody(DsBody) },
      responses: { 201: jsonResponse(DsList), ...ProblemResponses, ...ConflictResponse, ...RegistryProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json({ ds: await addDs(c.get('deps'), requireScope(c, context), id, c.req.valid('json')) }, 201)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/domains/{id}/ds/{ds}',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Remove a DS record, named {key_tag}-{alg}-{digest_type}-{digest}, at the registry (secDNS) and from the domain, audited',
      request: { params: Params.extend({ ds: z.string().max(200).openapi({ example: '12345-13-2-3A6A…' }) }) },
      responses: { 200: jsonResponse(DsList), ...ProblemResponses, ...ConflictResponse, ...RegistryProblemResponses },
    }),
    async (c) => {
      const { context, id, ds } = c.req.valid('param')
      return c.json({ ds: await removeDs(c.get('deps'), requireScope(c, context), id, ds) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/domains/{id}/auth-code',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Reveal the transfer auth code (read from the registry; audited)',
      request: { params: Params },
      responses: { 200: jsonResponse(z.object({ auth_code: z.string() })), ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await revealAuthCode(c.get('deps'), requireScope(c, context), id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/platform_calls',
      ...access('domain-viewer'),
      tags: ['Platform calls'],
      summary: 'Registry operations as platform calls (spec §7); registrar.domain.info answers { platform: { status: 2000, result } }, throttled → 429',
      request: { params: ContextParam, body: jsonBody(z.object({ operation: z.enum(['registrar.domain.info']), domain: z.string().min(1).max(300) }).passthrough()) },
      responses: { 200: jsonResponse(z.object({ platform: z.object({ status: z.number().int(), result: z.record(z.string(), z.unknown()) }) })), ...ProblemResponses, ...RegistryProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const body = c.req.valid('json')
      const info = await registryInfo(c.get('deps'), scope, body.domain)
      return c.json({ platform: { status: 2000, result: info as unknown as Record<string, unknown> } }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/domains/{id}',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'One domain: dates, statuses, the four contacts, nameservers, DS and reconciliation',
      request: { params: Params },
      responses: { 200: jsonResponse(DomainDetailSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      requireDomainViewer(scope)
      return c.json(await getDomainDetail(c.get('deps').db, scope, id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/groups/{context}/domains/{id}',
      ...access('domain-manager'),
      tags: TAGS,
      summary: 'Change auto-renew, registry lock, tags, nameservers or contacts (registry first); on a material domain contact and nameserver changes become a material change request (202)',
      request: { params: Params, body: jsonBody(DomainPatch) },
      responses: {
        200: jsonResponse(DomainDetailSchema),
        202: jsonResponse(z.object({ material_change_request_id: z.uuid() }), 'A material change request awaits approval (other fields were applied)'),
        ...ProblemResponses,
        ...RegistryProblemResponses,
      },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      requireDomainManager(scope)
      const { version, expected, ...wanted } = c.req.valid('json')
      const result = await updateDomain(c.get('deps'), scope, id, wanted, { version, expected, reachAll: reachOf(scope) === null })
      if (result.outcome === 'approval_requested') return c.json({ material_change_request_id: result.material_change_request_id }, 202)
      return c.json(await getDomainDetail(c.get('deps').db, scope, id), 200)
    },
  )
