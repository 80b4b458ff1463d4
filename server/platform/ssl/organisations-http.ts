import { createRoute, z } from '@hono/zod-openapi'
import { SSL_BUSINESS_CATEGORIES, SSL_CHECK_STATES, SSL_ORGANISATION_CHECKS, SSL_ORGANISATION_STATES, type SslOrganisationCheck } from '#common/ssl.ts'
import type { SslOrganisation } from '#server/db/schema-ssl.ts'
import { reachOf } from '#server/platform/core/scope.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listQueryFromUrl, runList } from '#server/platform/list/engine.ts'
import {
  createOrganisation,
  deleteDocument,
  evSubject,
  getOrganisation,
  markCheck,
  organisationsResource,
  organisationSubject,
  readDocument,
  scopedOrganisationsResource,
  updateOrganisation,
  uploadDocument,
  type OrganisationDetail,
} from './organisations.ts'

const TAGS = ['SSL organisations']
const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })

const CheckSchema = z.object({ state: z.enum(SSL_CHECK_STATES), note: z.string(), by: z.string(), at: z.string().nullable() })
/** Every check of the organisation, each named (a record would leave a reader unsure which are there). */
const ChecksSchema = z.object(Object.fromEntries(SSL_ORGANISATION_CHECKS.map((check) => [check, CheckSchema])) as Record<SslOrganisationCheck, typeof CheckSchema>)

const Details = {
  legal_name: z.string().max(300),
  registration_number: z.string().max(300).optional(),
  street1: z.string().max(300),
  street2: z.string().max(300).optional(),
  city: z.string().max(300),
  region: z.string().max(300).optional(),
  postcode: z.string().max(100).optional(),
  country: z.string().max(10),
  phone: z.string().max(100),
  approver_name: z.string().max(300),
  approver_email: z.string().max(300),
  approver_phone: z.string().max(100).optional(),
  jurisdiction_country: z.string().max(10).optional().openapi({ description: 'EV: the country of incorporation (ISO 3166)' }),
  jurisdiction_state: z.string().max(300).optional().openapi({ description: 'EV: the state or province of incorporation, where incorporated at that level' }),
  jurisdiction_locality: z.string().max(300).optional().openapi({ description: 'EV: the locality of incorporation, where incorporated at that level' }),
  business_category: z
    .enum(['', ...SSL_BUSINESS_CATEGORIES])
    .optional()
    .openapi({ description: 'EV: the business category' }),
  incorporation_date: z.string().max(20).nullable().optional().openapi({ description: 'EV: the date of incorporation (YYYY-MM-DD)' }),
}
const OrganisationBody = z.object(Details).strict().openapi('SslOrganisationInput')
const OrganisationUpdate = z
  .object({ ...Details, version: z.number().int() })
  .strict()
  .openapi('SslOrganisationUpdate')

const OrganisationSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    legal_name: z.string(),
    registration_number: z.string(),
    street1: z.string(),
    street2: z.string(),
    city: z.string(),
    region: z.string(),
    postcode: z.string(),
    country: z.string(),
    phone: z.string(),
    approver_name: z.string(),
    approver_email: z.string(),
    approver_phone: z.string(),
    jurisdiction_country: z.string(),
    jurisdiction_state: z.string(),
    jurisdiction_locality: z.string(),
    business_category: z.enum(['', ...SSL_BUSINESS_CATEGORIES]),
    incorporation_date: z.string().nullable(),
    status: z.enum(SSL_ORGANISATION_STATES).openapi({ description: 'validated when every check is; attention when one needs the customer' }),
    checks: ChecksSchema,
    subject: z.record(z.string(), z.string()).openapi({ description: "What an OV/EV CA receives: the CSR subject's organisation fields (O, C, L, ST)" }),
    ev: z.record(z.string(), z.string()).openapi({ description: 'What an EV CA receives besides, from its vetting: business category, serial number, jurisdiction, incorporation date' }),
    validated_at: z.string().nullable(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('SslOrganisation')

const DetailSchema = OrganisationSchema.extend({
  documents: z.array(z.object({ id: z.uuid(), filename: z.string(), content_type: z.string(), size_bytes: z.number().int(), uploaded_by: z.string(), created_at: z.string() })),
  certificates: z.array(z.object({ id: z.uuid(), common_name: z.string(), status: z.string(), product: z.string(), created_at: z.string() })),
}).openapi('SslOrganisationDetail')

const Row = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    account: z.object({ name: z.string() }),
    legal_name: z.string(),
    registration_number: z.string(),
    city: z.string(),
    country: z.string(),
    approver_email: z.string(),
    status: z.enum(SSL_ORGANISATION_STATES),
    validated_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .partial()
  .openapi('SslOrganisationRow')

function organisationJson(o: SslOrganisation) {
  return {
    id: o.id,
    group_id: o.account_id,
    legal_name: o.legal_name,
    registration_number: o.registration_number,
    street1: o.street1,
    street2: o.street2,
    city: o.city,
    region: o.region,
    postcode: o.postcode,
    country: o.country.trim(),
    phone: o.phone,
    approver_name: o.approver_name,
    approver_email: o.approver_email,
    approver_phone: o.approver_phone,
    jurisdiction_country: o.jurisdiction_country,
    jurisdiction_state: o.jurisdiction_state,
    jurisdiction_locality: o.jurisdiction_locality,
    business_category: o.business_category,
    incorporation_date: o.incorporation_date,
    status: o.status,
    checks: Object.fromEntries(SSL_ORGANISATION_CHECKS.map((c) => [c, o.checks[c] ?? { state: 'waiting' as const, note: '', by: '', at: null }])) as Record<
      (typeof SSL_ORGANISATION_CHECKS)[number],
      z.infer<typeof CheckSchema>
    >,
    subject: organisationSubject(o),
    ev: evSubject(o),
    validated_at: o.validated_at?.toISOString() ?? null,
    version: o.version,
    created_at: o.created_at.toISOString(),
    updated_at: o.updated_at.toISOString(),
  }
}

const detailJson = (d: OrganisationDetail) => ({
  ...organisationJson(d.organisation),
  documents: d.documents.map((x) => ({ ...x, created_at: x.created_at.toISOString() })),
  certificates: d.certificates.map((x) => ({ ...x, created_at: x.created_at.toISOString() })),
})

export const sslOrganisationsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/ssl-organisations',
      ...access('ssl-viewer'),
      tags: TAGS,
      summary: 'OV/EV organisations of the account (staff in their own group: every account)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(Row), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const reach = reachOf(scope)
      const resource = reach === null ? organisationsResource : scopedOrganisationsResource
      return c.json(await runList(c.get('deps').db, resource, listQueryFromUrl(resource, new URL(c.req.url)), { accountId: reach }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssl-organisations',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Add an organisation for OV/EV certificates; staff validate it',
      request: { params: ContextParam, body: jsonBody(OrganisationBody) },
      responses: { 201: jsonResponse(OrganisationSchema, 'Added'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(organisationJson(await createOrganisation(c.get('deps'), scope, c.req.valid('json'))), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/ssl-organisations/{id}',
      ...access('ssl-viewer'),
      tags: TAGS,
      summary: 'One organisation: its details, its validation checklist, documents and certificates',
      request: { params: Params },
      responses: { 200: jsonResponse(DetailSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(detailJson(await getOrganisation(c.get('deps').db, requireScope(c, context), id)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/groups/{context}/ssl-organisations/{id}',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Change its details (a change of what a check verified sets that check back to waiting)',
      request: { params: Params, body: jsonBody(OrganisationUpdate) },
      responses: { 200: jsonResponse(OrganisationSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(organisationJson(await updateOrganisation(c.get('deps'), requireScope(c, context), id, c.req.valid('json'))), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/groups/{context}/ssl-organisations/{id}/checks/{check}',
      ...access('staff'),
      tags: TAGS,
      summary: 'Staff mark one check waiting, attention (with what the customer must do) or validated; the last one validated releases its waiting orders to the CA',
      request: {
        params: Params.extend({ check: z.enum(SSL_ORGANISATION_CHECKS) }),
        body: jsonBody(
          z
            .object({ state: z.enum(SSL_CHECK_STATES), note: z.string().max(4000).optional() })
            .strict()
            .openapi('SslOrganisationCheck'),
        ),
      },
      responses: { 200: jsonResponse(OrganisationSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id, check } = c.req.valid('param')
      return c.json(organisationJson(await markCheck(c.get('deps'), requireScope(c, context), id, check, c.req.valid('json'))), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/ssl-organisations/{id}/documents',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Upload a document for its validation (PDF, PNG or JPEG, at most 5 MB)',
      request: {
        params: Params,
        body: jsonBody(
          z
            .object({ filename: z.string().max(300), content_base64: z.string().max(7_100_000) })
            .strict()
            .openapi('SslOrganisationDocumentUpload'),
        ),
      },
      responses: {
        201: jsonResponse(z.object({ id: z.uuid(), filename: z.string(), content_type: z.string(), size_bytes: z.number().int(), uploaded_by: z.string(), created_at: z.string() }), 'Uploaded'),
        ...ProblemResponses,
      },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const doc = await uploadDocument(c.get('deps'), requireScope(c, context), id, c.req.valid('json'))
      return c.json({ ...doc, created_at: doc.created_at.toISOString() }, 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/ssl-organisations/{id}/documents/{document}',
      ...access('ssl-viewer'),
      tags: TAGS,
      summary: 'One uploaded document',
      request: { params: Params.extend({ document: z.uuid() }) },
      responses: { 200: jsonResponse(z.object({ filename: z.string(), content_type: z.string(), content_base64: z.string() })), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id, document } = c.req.valid('param')
      const row = await readDocument(c.get('deps').db, requireScope(c, context), id, document)
      return c.json({ filename: row.filename, content_type: row.content_type, content_base64: row.content_base64.replace(/\s+/g, '') }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/ssl-organisations/{id}/documents/{document}',
      ...access('ssl-manager'),
      tags: TAGS,
      summary: 'Delete an uploaded document (in the trail); a validated documents check goes back to waiting',
      request: { params: Params.extend({ document: z.uuid() }) },
      responses: { 200: jsonResponse(OrganisationSchema, 'The organisation after'), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id, document } = c.req.valid('param')
      return c.json(organisationJson(await deleteDocument(c.get('deps'), requireScope(c, context), id, document)), 200)
    },
  )
