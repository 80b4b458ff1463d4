import { createRoute, z } from '@hono/zod-openapi'
import { REVOCATION_REASONS, SSL_CHECK_STATES, SSL_FILE_FORMATS, SSL_FILES, SSL_STATES, SSL_VALIDATION_STATES, type RevocationReason } from '#common/ssl.ts'
import type { SslCertificate, SslValidation } from '#server/db/schema-ssl.ts'
import { PKCS12_PROFILES } from './pkcs12.ts'
import { allowCaByCaa } from './caa.ts'
import { chargeOf, sslPrices, type SslCharge } from './charges.ts'
import { organisationChoices } from './organisations.ts'
import { badRequest } from '#server/platform/core/errors.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { ExpectedPriceSchema } from '#server/platform/billing/expected-price.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import {
  cancelCertificate,
  certificateFile,
  certificatesResource,
  checkNow,
  decodeCsr,
  getCertificate,
  importCertificate,
  orderCertificate,
  pkcs12File,
  reissueCertificate,
  renewTerm,
  revokeCertificate,
  scopedCertificatesResource,
  sslSettings,
  type CertificateDetail,
} from './service.ts'

const TAGS = ['SSL certificates']
const Conflict = { 409: { description: 'Refused in the certificate’s state', content: { 'application/problem+json': { schema: z.object({ code: z.string(), detail: z.string() }).passthrough() } } } }
const BadGateway = { 502: { description: 'The CA refused', content: { 'application/problem+json': { schema: z.object({ code: z.string(), detail: z.string() }).passthrough() } } } }

const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })
const iso = (d: Date | null) => d?.toISOString() ?? null

const ValidationSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    method: z.enum(['dns-01', 'http-01']),
    state: z.enum(SSL_VALIDATION_STATES),
    record_name: z.string().nullable(),
    record_type: z.literal('TXT'),
    record_value: z.string().nullable(),
    http_path: z.string().nullable().openapi({ description: 'HTTP-01: where the file is served (http://<name>/.well-known/acme-challenge/<token>)' }),
    http_content: z.string().nullable().openapi({ description: "HTTP-01: the file's exact content" }),
    hosted: z.boolean().openapi({ description: 'The zone is ours: the record is published and removed without hand work' }),
    published: z.boolean(),
    problem: z.record(z.string(), z.unknown()).nullable().openapi({ description: "The CA's problem document (RFC 7807) when invalid" }),
    checked_at: z.string().nullable(),
  })
  .openapi('SslValidation')

const PriceSchema = z
  .object({
    transaction_id: z.uuid(),
    state: z.enum(['reserved', 'settled', 'released', 'refunded']),
    action: z.string(),
    amount_minor: z.number().int(),
    currency: z.string(),
  })
  .openapi('SslCharge')

const CertificateSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    term_id: z.uuid(),
    status: z.enum(SSL_STATES),
    product: z.string(),
    validation_level: z.enum(['dv', 'ov', 'ev']),
    organisation_id: z.uuid().nullable(),
    common_name: z.string(),
    names: z.array(z.string()),
    key_type: z.string(),
    key_source: z.enum(['generated', 'csr', 'imported']),
    has_private_key: z.boolean(),
    ca: z.string(),
    serial: z.string().nullable(),
    not_before: z.string().nullable(),
    not_after: z.string().nullable(),
    issued_at: z.string().nullable(),
    renew_after: z.string().nullable(),
    renewal_of: z.uuid().nullable().openapi({ description: 'The certificate this one renews or reissues' }),
    origin: z.enum(['order', 'renewal', 'reissue', 'import']),
    revoked_at: z.string().nullable(),
    revocation_reason: z.string().nullable(),
    failure_reason: z.string().nullable(),
    created_by: z.string(),
    price: PriceSchema.nullable().openapi({
      description:
        'What this certificate is charged: its order or a renewal of its coverage term, at the quote of the pricing engine; null when free (a reissue, a renewal inside the term) or not charged',
    }),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('SslCertificate')

const DetailSchema = CertificateSchema.extend({
  organisation: z
    .object({
      id: z.uuid(),
      legal_name: z.string(),
      status: z.enum(['waiting', 'attention', 'validated']),
      subject: z.record(z.string(), z.string()),
      ev: z.record(z.string(), z.string()).openapi({ description: 'What an EV CA receives besides: business category, serial number, jurisdiction, incorporation date' }),
    })
    .nullable()
    .openapi({ description: 'OV/EV: the organisation named, its validation state, and the subject an OV/EV CA receives in the CSR' }),
  validations: z.array(ValidationSchema),
  term: z.object({
    id: z.uuid(),
    product: z.string(),
    period_months: z.number().int(),
    starts_at: z.string(),
    ends_at: z.string(),
    notices_sent: z.array(z.number().int()).openapi({ description: 'Expiry notices already mailed for this coverage term (days before the end)' }),
    transaction_ids: z.array(z.uuid()).openapi({ description: 'The billing transactions of the term: its order and the renewals of the term' }),
    certificates: z.array(
      z.object({
        id: z.uuid(),
        status: z.enum(SSL_STATES),
        not_after: z.string().nullable(),
        created_at: z.string(),
        renewal_of: z.uuid().nullable(),
        origin: z.enum(['order', 'renewal', 'reissue', 'import']),
      }),
    ),
  }),
}).openapi('SslCertificateDetail')

const CertificateRow = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    account: z.object({ name: z.string() }),
    common_name: z.string(),
    names: z.string(),
    status: z.enum(SSL_STATES),
    product: z.string(),
    ca: z.string(),
    key_type: z.string(),
    origin: z.enum(['order', 'renewal', 'reissue', 'import']),
    not_after: z.string().nullable(),
    issued_at: z.string().nullable(),
    term_id: z.uuid(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .partial()
  .openapi('SslCertificateRow')

const OrderBody = z
  .object({
    product: z.string().max(40),
    period_months: z.number().int(),
    names: z.array(z.string().max(300)).max(100),
    key_type: z.string().max(20).optional(),
    csr: z.string().max(20_000).optional().openapi({ description: 'A PEM CSR instead of a key generated on the server' }),
    organisation_id: z.uuid().nullable().optional().openapi({ description: 'OV and EV: the organisation the certificate names; the order waits (draft) until it is validated' }),
    expected: ExpectedPriceSchema.optional(),
  })
  .strict()
  .openapi('SslOrder')

const ReissueBody = z
  .object({
    names: z.array(z.string().max(300)).max(100).optional().openapi({ description: 'Other names within the product’s limits; the same names when left out' }),
    key_type: z.string().max(20).optional(),
    csr: z.string().max(20_000).optional(),
  })
  .strict()
  .openapi('SslReissue')
const ImportBody = z
  .object({
    certificate: z.string().max(60_000).openapi({ description: 'The PEM certificate, optionally followed by its chain' }),
    chain: z.string().max(60_000).optional(),
    private_key: z.string().max(20_000).optional().openapi({ description: 'Its unencrypted PEM key, stored sealed like a generated one' }),
  })
  .strict()
  .openapi('SslImport')
const RevokeBody = z
  .object({ reason: z.enum(Object.keys(REVOCATION_REASONS) as [RevocationReason, ...RevocationReason[]]) })
  .strict()
  .openapi('SslRevoke')

const SettingsSchema = z
  .object({
    ca: z.string().nullable(),
    ca_configured: z.boolean(),
    missing: z.string().nullable(),
    dv_only: z.boolean(),
    prices: z.array(z.object({ product: z.string(), action: z.enum(['order', 'renew']), period_months: z.number().int(), amount_minor: z.number().int(), currency: z.string() })).openapi({
      description: "The account's price of each product and period, to order and to renew the coverage term (the pricing engine's quote; an unpriced one left out; none for staff in their own group)",
    }),
    organisations: z
      .array(z.object({ id: z.uuid(), legal_name: z.string(), status: z.enum(SSL_CHECK_STATES) }))
      .openapi({ description: "The account's organisations an OV or EV order may name (at most 200, by legal name)" }),
  })
  .openapi('SslSettings')
const FileSchema = z.object({ filename: z.string(), content_type: z.string(), content_base64: z.string() }).openapi('SslFile')
const CsrSchema = z.object({ common_name: z.string().nullable(), names: z.array(z.string()), key_type: z.string(), key_bits: z.number().int(), weak: z.string().nullable() }).openapi('SslCsr')

export function certificateJson(c: SslCertificate, charge: SslCharge | null = null) {
  return {
    id: c.id,
    group_id: c.account_id,
    term_id: c.term_id,
    status: c.status,
    product: c.product,
    validation_level: c.validation_level,
    organisation_id: c.organisation_id,
    common_name: c.common_name,
    names: c.names,
    key_type: c.key_type,
    key_source: c.key_source,
    has_private_key: c.private_key_enc !== null,
    ca: c.ca,
    serial: c.serial,
    not_before: iso(c.not_before),
    not_after: iso(c.not_after),
    issued_at: iso(c.issued_at),
    renew_after: iso(c.renew_after),
    renewal_of: c.renewal_of,
    origin: c.origin,
    revoked_at: iso(c.revoked_at),
    revocation_reason: c.revocation_reason,
    failure_reason: c.failure_reason,
    created_by: c.created_by,
    price: charge ? { ...charge, state: charge.state as 'reserved' } : null,
    version: c.version,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  }
}

const validationJson = (v: SslValidation) => ({
  id: v.id,
  name: v.name,
  method: v.method,
  state: v.state,
  record_name: v.record_name,
  record_type: 'TXT' as const,
  record_value: v.record_value,
  http_path: v.http_token ? `/.well-known/acme-challenge/${v.http_token}` : null,
  http_content: v.http_content,
  hosted: v.zone_id !== null,
  published: v.dns_record_id !== null,
  problem: v.problem,
  checked_at: iso(v.checked_at),
})

const detailJson = (d: CertificateDetail) => ({
  ...certificateJson(d.certificate, d.charge),
  organisation: d.organisation,
  validations: d.validations.map(validationJson),
  term: {
    ...d.term,
    starts_at: d.term.starts_at.toISOString(),
    ends_at: d.term.ends_at.toISOString(),
    certificates: d.term.certificates.map((c) => ({
      ...c,
      status: c.status as SslCertificate['status'],
      origin: c.origin as SslCertificate['origin'],
      not_after: iso(c.not_after),
      created_at: c.created_at.toISOString(),
    })),
  },
})

export const sslRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/ssl-settings',
      ...access('ssl-viewer'),
      tags: TAGS,
      summary: 'Which CA certificates are issued by here, or what is missing',
      request: { params: ContextParam },
      responses: { 200: jsonResponse(SettingsSchema), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      const settings = sslSettings(deps)
      const prices = scope.accountId ? await sslPrices(deps.db, scope.accountId, deps.now()) : []
      const organisations = scope.accountId ? await organisationChoices(deps.db, scope.accountId) : []
      return c.json(
        {
          ca: settings.acme?.caName ?? null,
          ca_configured: Boolean(settings.acme),
          missing: settings.acme ? null : (settings.missing ?? null),
          dv_only: settings.acme?.dvOnly ?? false,
          prices,
          organisations,
        },
        200,
      )
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/ssls',
      ...access('ssl-viewer'),
      tags: TAGS,
      summary: 'Certificates of the account (staff in their own group: every account)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(CertificateRow), ...ProblemResponses },
    }),
    async (c) => {
      return c.json(await listPage(c, requireScope(c, c.req.valid('param').context), { whole: certificatesResource, scoped: scopedCertificatesResource }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssls',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Order a certificate: validated through our DNS where we host the names, issued by the CA',
      request: { params: ContextParam, body: jsonBody(OrderBody) },
      responses: { 201: jsonResponse(CertificateSchema, 'Ordered'), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const deps = c.get('deps')
      const cert = await orderCertificate(deps, scope, c.req.valid('json'))
      return c.json(certificateJson(cert, await chargeOf(deps.db, cert)), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssl-imports',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Import a certificate bought elsewhere (PEM, its chain, optionally its key) to track its expiry',
      request: { params: ContextParam, body: jsonBody(ImportBody) },
      responses: { 201: jsonResponse(CertificateSchema, 'Imported'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(certificateJson(await importCertificate(c.get('deps'), scope, c.req.valid('json'))), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssls/{id}/reissue',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Reissue under the same coverage term: a new key or CSR, the same or other names',
      request: { params: Params, body: jsonBody(ReissueBody) },
      responses: { 201: jsonResponse(CertificateSchema, 'Reissue ordered'), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(certificateJson(await reissueCertificate(c.get('deps'), requireScope(c, context), id, c.req.valid('json'))), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssls/{id}/renew',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Renew the coverage term for another period: charged at the quote (refused past the balance or credit limit), the term extended when the CA issues',
      request: { params: Params, body: jsonBody(z.object({ period_months: z.number().int(), expected: ExpectedPriceSchema.optional() }).strict().openapi('SslRenewTerm')) },
      responses: { 201: jsonResponse(CertificateSchema, 'Renewal ordered'), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const deps = c.get('deps')
      const next = await renewTerm(deps, requireScope(c, context), id, c.req.valid('json'))
      return c.json(certificateJson(next, await chargeOf(deps.db, next)), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssl-caa',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Let our CA issue for a name of a hosted zone whose CAA forbids it: one CAA record naming the CA is added (DNS permission needed too)',
      request: {
        params: ContextParam,
        body: jsonBody(
          z
            .object({ name: z.string().max(300) })
            .strict()
            .openapi('SslCaaFix'),
        ),
      },
      responses: { 200: jsonResponse(z.object({ name: z.string(), domain: z.string().nullable(), added: z.string().nullable() }).openapi('SslCaaFixed')), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await allowCaByCaa(c.get('deps'), scope, c.req.valid('json').name, sslSettings(c.get('deps')).acme), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssl-csr',
      ...access('ssl-viewer'),
      tags: TAGS,
      summary: 'Decode a CSR: its names and key, and why the key is refused when it is',
      request: { params: ContextParam, body: jsonBody(z.object({ csr: z.string().max(20_000) }).strict()) },
      responses: { 200: jsonResponse(CsrSchema), ...ProblemResponses },
    }),
    async (c) => {
      requireScope(c, c.req.valid('param').context)
      try {
        return c.json(decodeCsr(c.req.valid('json').csr), 200)
      } catch {
        throw badRequest('The request is not valid', [{ field: 'csr', message: 'This is not a PEM certificate signing request' }])
      }
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/ssls/{id}',
      ...access('ssl-viewer'),
      tags: TAGS,
      summary: 'One certificate with its validations and its coverage term',
      request: { params: Params },
      responses: { 200: jsonResponse(DetailSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(detailJson(await getCertificate(c.get('deps'), requireScope(c, context), id)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssls/{id}/check',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Look at the CA and the validation records again now; optionally choose, per name hosted elsewhere, the DNS-01 record or the HTTP-01 file',
      request: {
        params: Params,
        body: {
          ...jsonBody(
            z
              .object({ methods: z.record(z.string().max(300), z.enum(['dns-01', 'http-01'])).optional() })
              .strict()
              .openapi('SslCheck'),
          ),
          required: false,
        },
      },
      responses: { 202: jsonResponse(CertificateSchema, 'Queued'), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const body = c.req.header('content-type')?.includes('json') ? c.req.valid('json') : undefined
      return c.json(certificateJson(await checkNow(c.get('deps'), requireScope(c, context), id, body?.methods ?? {})), 202)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssls/{id}/revoke',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Revoke at the CA with an RFC 5280 reason',
      request: { params: Params, body: jsonBody(RevokeBody) },
      responses: { 200: jsonResponse(CertificateSchema), ...ProblemResponses, ...Conflict, ...BadGateway },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(certificateJson(await revokeCertificate(c.get('deps'), requireScope(c, context), id, c.req.valid('json').reason)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssls/{id}/cancel',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Cancel an order not yet issued',
      request: { params: Params },
      responses: { 200: jsonResponse(CertificateSchema), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(certificateJson(await cancelCertificate(c.get('deps'), requireScope(c, context), id)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssls/{id}/pkcs12',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'The certificate, chain and key as PKCS#12 with a password: modern (AES-256, SHA-256 MAC) or legacy (3DES, SHA-1 MAC); or the key alone as encrypted PKCS#8; audited',
      request: {
        params: Params,
        body: jsonBody(
          z
            .object({
              password: z.string().max(200),
              profile: z.enum([...PKCS12_PROFILES, 'pkcs8']).openapi({ description: "PKCS#12 'modern' or 'legacy', or 'pkcs8': the key alone as encrypted PKCS#8" }),
            })
            .strict()
            .openapi('SslPkcs12'),
        ),
      },
      responses: { 200: jsonResponse(FileSchema), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const { password, profile } = c.req.valid('json')
      const found = await pkcs12File(c.get('deps'), requireScope(c, context), id, password, profile)
      return c.json({ filename: found.filename, content_type: found.contentType, content_base64: found.body.toString('base64') }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/ssls/{id}/files/{file}',
      ...access('ssl-viewer'),
      tags: TAGS,
      summary: 'A file of an issued certificate (the private key: ssl-manager, and audited)',
      request: { params: Params.extend({ file: z.enum(SSL_FILES) }), query: z.object({ format: z.enum(SSL_FILE_FORMATS).optional() }) },
      responses: { 200: jsonResponse(FileSchema), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id, file } = c.req.valid('param')
      const found = await certificateFile(c.get('deps'), requireScope(c, context), id, file, c.req.valid('query').format ?? 'pem')
      return c.json({ filename: found.filename, content_type: found.contentType, content_base64: found.body.toString('base64') }, 200)
    },
  )
