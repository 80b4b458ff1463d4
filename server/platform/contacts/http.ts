import { createRoute, z } from '@hono/zod-openapi'
import type { Contact, RegistryHandle } from '#server/db/schema-directory.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listQueryFromUrl, runList } from '#server/platform/list/engine.ts'
import { countryName } from '#common/countries.ts'
import { contactsResource, createContact, deleteContact, getContact, registryHandlesResource, requireContact, scopedContactsResource, updateContact, type ContactDetail } from './service.ts'

const Conflict = {
  409: { description: 'Conflicts with stored state (in use, changed version)', content: { 'application/problem+json': { schema: z.object({ code: z.string(), detail: z.string() }).passthrough() } } },
}
const TAGS = ['Contacts']

const Phone = z.string().max(40).nullable().openapi({ description: 'E.164; typed forms such as "+34 600 12 34 56" are normalised', example: '+34600123456' })
const ContactFields = {
  name: z.string().min(1).max(200),
  organisation: z.string().max(200),
  email: z.string().min(3).max(320),
  phone: Phone,
  mobile: Phone,
  fax: Phone,
  street1: z.string().max(200),
  street2: z.string().max(200),
  street3: z.string().max(200),
  city: z.string().max(200),
  state: z.string().max(200),
  postcode: z.string().max(40),
  country_code: z.string().max(2).openapi({ description: 'ISO 3166-1 alpha-2', example: 'ES' }),
}

const RegistryHandleSchema = z
  .object({
    id: z.uuid(),
    contact_id: z.uuid(),
    registry: z.string(),
    handle: z.string(),
    sync_state: z.enum(['pending', 'synced', 'failed']),
    last_synced_at: z.string().nullable(),
    error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('RegistryHandle')

const ContactSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    ...ContactFields,
    country_name: z.string().openapi({ description: 'In the language of Accept-Language (en, es or ja)' }),
    in_use: z.boolean(),
    domain_count: z.number().int(),
    registry_handles: z.array(RegistryHandleSchema),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Contact')

const ContactRow = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    account: z.object({ name: z.string() }),
    ...ContactFields,
    in_use: z.boolean(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .partial()
  .openapi('ContactRow')

const CreateContactBody = z
  .object({
    ...ContactFields,
    organisation: ContactFields.organisation.optional(),
    phone: Phone.optional(),
    mobile: Phone.optional(),
    fax: Phone.optional(),
    street1: ContactFields.street1.optional(),
    street2: ContactFields.street2.optional(),
    street3: ContactFields.street3.optional(),
    city: ContactFields.city.optional(),
    state: ContactFields.state.optional(),
    postcode: ContactFields.postcode.optional(),
  })
  .strict()
  .openapi('CreateContact')

const PatchContactBody = z
  .object({ ...ContactFields, version: z.number().int().positive() })
  .partial()
  .required({ version: true })
  .strict()
  .openapi('PatchContact')

const ContextParam = z.object({ context: z.string() })
const Params = z.object({ context: z.string(), id: z.uuid() })

function languageOf(header: string | undefined): string {
  const wanted = (header ?? '').split(',').map((part) => part.split(';')[0]!.trim().slice(0, 2).toLowerCase())
  return wanted.find((l) => ['en', 'es', 'ja'].includes(l)) ?? 'en'
}

const iso = (value: Date | null) => value?.toISOString() ?? null

export const handleJson = (h: RegistryHandle) => ({ ...h, last_synced_at: iso(h.last_synced_at), created_at: h.created_at.toISOString(), updated_at: h.updated_at.toISOString() })

function contactJson(contact: Contact | ContactDetail, language: string) {
  const { account_id, ...rest } = contact
  const detail = contact as Partial<ContactDetail>
  return {
    ...rest,
    group_id: account_id,
    country_name: countryName(contact.country_code, language),
    in_use: detail.in_use ?? false,
    domain_count: detail.domain_count ?? 0,
    registry_handles: (detail.registry_handles ?? []).map(handleJson),
    created_at: contact.created_at.toISOString(),
    updated_at: contact.updated_at.toISOString(),
  }
}

export const contactsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/contacts',
      ...access('contact-viewer'),
      tags: TAGS,
      summary: 'Contacts of the account (staff in their own group: every account)',
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(ContactRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const page = await listPage(c, scope, { whole: contactsResource, scoped: scopedContactsResource })
      const data = page.data.map(({ group_id, ...row }) => (group_id === undefined ? row : { group_id, ...row }))
      return c.json({ ...page, data }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/contacts/{id}',
      ...access('contact-viewer'),
      tags: TAGS,
      summary: 'One contact with its registry handles and whether domains use it',
      request: { params: Params },
      responses: { 200: jsonResponse(ContactSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const contact = await getContact(c.get('deps').db, requireScope(c, context), id)
      return c.json(contactJson(contact, languageOf(c.req.header('accept-language'))), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/contacts',
      ...access('contact-manager'),
      tags: TAGS,
      summary: 'Create a contact',
      request: { params: ContextParam, body: jsonBody(CreateContactBody) },
      responses: { 201: jsonResponse(ContactSchema, 'Created'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const contact = await createContact(c.get('deps').db, scope, c.req.valid('json'))
      return c.json(contactJson(contact, languageOf(c.req.header('accept-language'))), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/groups/{context}/contacts/{id}',
      ...access('contact-manager'),
      tags: TAGS,
      summary: 'Edit a contact from the version read',
      request: { params: Params, body: jsonBody(PatchContactBody) },
      responses: { 200: jsonResponse(ContactSchema), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const contact = await updateContact(c.get('deps').db, requireScope(c, context), id, c.req.valid('json'))
      return c.json(contactJson(contact, languageOf(c.req.header('accept-language'))), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/contacts/{id}',
      ...access('contact-manager'),
      tags: TAGS,
      summary: 'Delete a contact that no domain uses (409 contact.in_use otherwise)',
      request: { params: Params },
      responses: { 204: { description: 'Deleted' }, ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      await deleteContact(c.get('deps').db, requireScope(c, context), id)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/contacts/{id}/registry-handles',
      ...access('contact-viewer'),
      tags: TAGS,
      summary: "The contact's handle at each registry and its sync state",
      request: { params: Params, query: ListQueryParams },
      responses: { 200: ListResponse(RegistryHandleSchema.partial()), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const scope = requireScope(c, context)
      const { db } = c.get('deps')
      const contact = await requireContact(db, scope, id)
      const query = listQueryFromUrl(registryHandlesResource, new URL(c.req.url))
      query.filters.push({ field: 'contact_id', operator: 'equals', values: [contact.id] })
      const page = await runList(db, registryHandlesResource, query, { accountId: contact.account_id })
      return c.json(page, 200)
    },
  )
