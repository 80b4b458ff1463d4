import { createRoute, z } from '@hono/zod-openapi'
import { CANDIDATE_STATUSES, FUZZERS } from '#common/brand.ts'
import type { Brand, BrandCandidate } from '#server/db/schema-brand.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, ConflictResponse, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { dnsEvidence, registryEvidence } from './dns.ts'
import { brandCandidatesResource, brandsResource, CHECK_LIMIT, checkCandidates, markSafe, createBrand, deleteBrand, getBrand, importBrands, lookalikesPage, updateBrand } from './service.ts'

const TAGS = ['Brand protection']

const LookalikeRow = z
  .object({
    domain: z.string().openapi({ description: 'The candidate in Unicode (an IDN as a person reads it)', example: 'асме.com' }),
    ascii: z.string().openapi({ description: 'The same name in ASCII: an IDN in punycode', example: 'xn--80akut.com' }),
    tld: z.string().openapi({ description: 'Its public suffix, ASCII', example: 'com' }),
    fuzzers: z.array(z.enum(FUZZERS)).openapi({ description: 'Every fuzzer that makes it: dnstwist’s, and confusable (UTS #39 in a script the TLD takes)' }),
    score: z.number().int().openapi({ description: '0–100: how much it looks like the name given (edit distance and looks)' }),
    registrable: z.boolean().openapi({ description: 'Whether the name behind it (registers) may be registered at all: an ICANN suffix, the label rules, a script the TLD takes' }),
    registers: z.string().openapi({ description: 'The registrable name behind it, ASCII (cme.com for a.cme.com)' }),
  })
  .partial()
  .openapi('Lookalike')

const LookalikesQuery = ListQueryParams.extend({
  domain: z.string().max(300).openapi({ description: 'A domain (acme.com, an IDN in Unicode or punycode) or a brand label (acme, taken as acme.com)', example: 'acme.com' }),
  fuzzers: z
    .string()
    .max(500)
    .optional()
    .openapi({ description: `Comma-separated fuzzers to run (default: every one): ${FUZZERS.join(', ')}` }),
  tlds: z.enum(['offered', 'all']).optional().openapi({ description: 'The TLDs of tld-swap and the confusables’ scripts: those on sale (default) or every TLD of the catalogue' }),
})

const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })

const BrandSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    label: z.string().openapi({ description: 'The brand label, as a person reads it (an IDN in Unicode)' }),
    domains: z.array(z.string()).openapi({ description: 'The domains the brand’s own names are, ASCII' }),
    dictionary: z.array(z.string()).openapi({ description: 'Words of its dictionary fuzzer (combosquatting); none: the default words' }),
    fuzzers: z.array(z.enum(FUZZERS)).openapi({ description: 'The fuzzers run for it; none: every one' }),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Brand')

const BrandRow = z
  .object({
    id: z.uuid(),
    label: z.string(),
    domains: z.array(z.string()),
    fuzzers: z.array(z.enum(FUZZERS)),
    dictionary: z.array(z.string()),
    candidates: z.number().int().openapi({ description: 'How many registrable lookalikes the engine made of it' }),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .partial()
  .openapi('BrandRow')

const EvidenceSchema = z
  .object({
    ns: z.array(z.string()).optional(),
    a: z.array(z.string()).optional(),
    mx: z.array(z.string()).optional(),
    block: z.string().optional().openapi({ description: 'The block in force that covers it' }),
    checked: z.string().optional(),
    rdap: z
      .object({
        registrar: z.string().nullable(),
        iana_id: z.string().nullable(),
        abuse_email: z.string().nullable(),
        created: z.string().nullable(),
        expires: z.string().nullable(),
        statuses: z.array(z.string()).openapi({ description: 'RDAP’s words (RFC 8056): active, client transfer prohibited, redemption period…' }),
      })
      .optional()
      .openapi({ description: 'What the registry publishes of it (RDAP), when registered there' }),
    ct: z
      .array(
        z.object({
          log: z.string(),
          index: z.number().int(),
          names: z.array(z.string()),
          issuer: z.string(),
          not_before: z.string(),
          not_after: z.string(),
          serial: z.string(),
          seen: z.string(),
        }),
      )
      .optional()
      .openapi({ description: 'Certificates for it seen in Certificate Transparency logs, newest first (at most 10)' }),
    zone: z.object({ tld: z.string(), file: z.string(), seen: z.string() }).optional().openapi({ description: 'The zone file it first appeared in (a registration found by the zone feed)' }),
  })
  .openapi('BrandCandidateEvidence')

const CandidateSchema = z
  .object({
    id: z.uuid(),
    brand_id: z.uuid(),
    name: z.string().openapi({ description: 'The registrable name, ASCII (an IDN in punycode)' }),
    unicode_name: z.string(),
    tld: z.string(),
    fuzzers: z.array(z.enum(FUZZERS)),
    score: z.number().int(),
    status: z.enum(CANDIDATE_STATUSES),
    price_minor: z.number().int().nullable().openapi({ description: 'Available: the account’s price to register it for a year' }),
    currency: z.string().nullable(),
    evidence: EvidenceSchema.nullable(),
    first_seen_at: z.string(),
    checked_at: z.string().nullable(),
    changed_at: z.string().nullable().openapi({ description: 'When a feed (CT, a zone file) last found it new or changed' }),
    changed_by: z.enum(['ct', 'zone']).nullable(),
  })
  .openapi('BrandCandidate')

const CandidateRow = z
  .object({
    id: z.uuid(),
    brand_id: z.uuid(),
    brand: z.object({ label: z.string() }),
    name: z.string(),
    unicode_name: z.string(),
    tld: z.string(),
    fuzzers: z.array(z.enum(FUZZERS)),
    score: z.number().int(),
    status: z.enum(CANDIDATE_STATUSES),
    price_minor: z.number().int().nullable(),
    currency: z.string().nullable(),
    mx: z.boolean().openapi({ description: 'Registered by someone else with MX records: ready to receive mail' }),
    certificates: z.number().int().openapi({ description: 'Certificates for it seen in CT logs (the latest 10 kept)' }),
    registrar: z.string().nullable().openapi({ description: 'Its registrar, as the registry’s RDAP says' }),
    new: z.boolean().openapi({ description: 'Found new or changed by the latest run of the feed that found it (CT or a zone file)' }),
    changed_by: z.enum(['ct', 'zone']).nullable(),
    changed_at: z.string().nullable(),
    first_seen_at: z.string(),
    checked_at: z.string().nullable(),
  })
  .partial()
  .openapi('BrandCandidateRow')

const BrandBody = z
  .object({
    label: z.string().max(100),
    domains: z.array(z.string().max(300)).max(50).optional(),
    dictionary: z.array(z.string().max(100)).max(200).optional(),
    fuzzers: z.array(z.string().max(50)).max(20).optional(),
  })
  .strict()
  .openapi('BrandCreate')
const BrandPatch = BrandBody.partial().extend({ version: z.number().int() }).strict().openapi('BrandUpdate')
const ImportBody = z
  .object({ text: z.string().max(100_000).openapi({ description: 'One brand a line: acme, acme.com, or acme: acme.com acme.de' }) })
  .strict()
  .openapi('BrandImport')
const CheckBody = z
  .object({ ids: z.array(z.uuid()).min(1).max(CHECK_LIMIT) })
  .strict()
  .openapi('BrandCandidateCheck')

const SafeBody = z
  .object({ ids: z.array(z.uuid()).min(1).max(CHECK_LIMIT), safe: z.boolean() })
  .strict()
  .openapi('BrandCandidateSafe')

const brandJson = (b: Brand) => ({
  id: b.id,
  group_id: b.account_id,
  label: b.label,
  domains: b.domains,
  dictionary: b.dictionary,
  fuzzers: b.fuzzers as (typeof FUZZERS)[number][],
  version: b.version,
  created_at: b.created_at.toISOString(),
  updated_at: b.updated_at.toISOString(),
})
const candidateJson = (c: BrandCandidate) => ({
  id: c.id,
  brand_id: c.brand_id,
  name: c.name,
  unicode_name: c.unicode_name,
  tld: c.tld,
  fuzzers: c.fuzzers as (typeof FUZZERS)[number][],
  score: c.score,
  status: c.status,
  price_minor: c.price_minor === null ? null : Number(c.price_minor),
  currency: c.currency,
  evidence: c.evidence,
  first_seen_at: c.first_seen_at.toISOString(),
  checked_at: c.checked_at?.toISOString() ?? null,
  changed_at: c.changed_at?.toISOString() ?? null,
  changed_by: c.changed_by,
})

export const brandRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/lookalikes',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'Every lookalike of a domain or brand label (the lookalike engine), as a list: filter, sort and page like any list (limit ≤ 1000)',
      request: { query: LookalikesQuery },
      responses: { 200: ListResponse(LookalikeRow), ...ProblemResponses },
    }),
    async (c) => {
      const { domain, fuzzers, tlds } = c.req.valid('query')
      return c.json(await lookalikesPage(c.get('deps').db, { domain, ...(fuzzers ? { fuzzers } : {}), ...(tlds ? { tlds } : {}) }, new URL(c.req.url)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/brands',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'The account’s brands, each with how many lookalikes the engine made of it',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(BrandRow), ...ProblemResponses },
    }),
    async (c) => c.json(await listPage(c, requireScope(c, c.req.valid('param').context), brandsResource), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/brands',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Add a brand (a label, the domains it protects, its dictionary, its fuzzers) and make its lookalikes',
      request: { params: ContextParam, body: jsonBody(BrandBody) },
      responses: { 201: jsonResponse(BrandSchema, 'Added'), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => c.json(brandJson(await createBrand(c.get('deps'), requireScope(c, c.req.valid('param').context), c.req.valid('json'))), 201),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/brands/import',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Add brands from a list, one a line; a label the account already has is skipped',
      request: { params: ContextParam, body: jsonBody(ImportBody) },
      responses: { 200: jsonResponse(z.object({ created: z.array(BrandSchema), skipped: z.array(z.string()) }).openapi('BrandImportResult')), ...ProblemResponses },
    }),
    async (c) => {
      const result = await importBrands(c.get('deps'), requireScope(c, c.req.valid('param').context), c.req.valid('json').text)
      return c.json({ created: result.created.map(brandJson), skipped: result.skipped }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/brands/{id}',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'One brand',
      request: { params: Params },
      responses: { 200: jsonResponse(BrandSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(brandJson(await getBrand(c.get('deps').db, requireScope(c, context), id)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/groups/{context}/brands/{id}',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Change a brand at the version read; its lookalikes are made again (those still made keep their status and first sighting)',
      request: { params: Params, body: jsonBody(BrandPatch) },
      responses: { 200: jsonResponse(BrandSchema), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(brandJson(await updateBrand(c.get('deps'), requireScope(c, context), id, c.req.valid('json'))), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/brands/{id}',
      ...access('brand-manager'),
      tags: TAGS,
      summary: 'Remove a brand and its lookalikes',
      request: { params: Params },
      responses: { 204: { description: 'Removed' }, ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      await deleteBrand(c.get('deps'), requireScope(c, context), id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/brand-candidates',
      ...access('brand-viewer'),
      tags: TAGS,
      summary: 'The lookalikes of the account’s brands with what is known of each: ours, blocked, registered by someone else, available (with its price)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(CandidateRow), ...ProblemResponses },
    }),
    async (c) => c.json(await listPage(c, requireScope(c, c.req.valid('param').context), brandCandidatesResource), 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/brand-candidates/check',
      ...access('brand-manager'),
      tags: TAGS,
      summary: `Check candidates (at most ${CHECK_LIMIT}): ours, blocked by a block in force, registered (the DNS answers as evidence) or available with the account’s price`,
      request: { params: ContextParam, body: jsonBody(CheckBody) },
      responses: { 200: jsonResponse(z.object({ data: z.array(CandidateSchema) }).openapi('BrandCandidateChecked')), ...ProblemResponses },
    }),
    async (c) => {
      const deps = c.get('deps')
      const checked = await checkCandidates(deps, requireScope(c, c.req.valid('param').context), c.req.valid('json').ids, dnsEvidence(deps), registryEvidence(deps))
      return c.json({ data: checked.map(candidateJson) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/brand-candidates/safe',
      ...access('brand-manager'),
      tags: TAGS,
      summary: `Mark candidates safe (at most ${CHECK_LIMIT}): a person found them harmless, and a check leaves them so; safe: false takes the mark away`,
      request: { params: ContextParam, body: jsonBody(SafeBody) },
      responses: { 200: jsonResponse(z.object({ data: z.array(CandidateSchema) }).openapi('BrandCandidatesMarked')), ...ProblemResponses },
    }),
    async (c) => {
      const { ids, safe } = c.req.valid('json')
      const marked = await markSafe(c.get('deps'), requireScope(c, c.req.valid('param').context), ids, safe)
      return c.json({ data: marked.map(candidateJson) }, 200)
    },
  )
