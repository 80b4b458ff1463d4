import { createRoute, z } from '@hono/zod-openapi'
import { PRODUCT_KINDS } from '#common/pricing.ts'
import type { Product } from '#server/db/schema-pricing.ts'
import { createRouter, requireOwnScope, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { addCost, createProduct, getProduct, listCosts, productsResource, updateProduct, uploadCosts } from './service.ts'
import { createTemplate, getTemplate, templatesOfItems, templatesResource, updateTemplate } from './templates.ts'

const TAGS = ['Products']
const Money = z.union([z.string().max(40), z.number()]).openapi({ description: 'Spec §5: optional minus, digits with optional thousands commas, up to 2 decimals (none for JPY)', example: '12.99' })

const ProductSchema = z
  .object({
    id: z.uuid(),
    code: z.string().openapi({ example: 'domain:com:register' }),
    name: z.string(),
    kind: z.enum(PRODUCT_KINDS),
    action: z.string(),
    tld: z.string().nullable(),
    tags: z.array(z.string()),
    periods: z.array(z.number().int()),
    registrar_template_id: z.uuid().nullable(),
    is_active: z.boolean(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Product')

const CostSchema = z.object({ id: z.uuid(), currency: z.string(), amount_minor: z.number().int(), effective_from: z.string(), in_force: z.boolean() }).openapi('ProductCost')
const FieldErrorSchema = z.object({ field: z.string(), code: z.string().optional(), message: z.string() })
const UploadRowSchema = z
  .object({
    line: z.number().int(),
    code: z.string(),
    currency: z.string(),
    amount: z.string(),
    effective_from: z.string(),
    product_id: z.uuid().nullable(),
    amount_minor: z.number().int().nullable(),
    previous_minor: z.number().int().nullable(),
    status: z.enum(['new', 'changed', 'unchanged', 'error']),
    at_loss: z.boolean(),
    errors: z.array(FieldErrorSchema),
  })
  .openapi('CostUploadRow')

const Tags = z.array(z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/)).max(20)
const CreateProductBody = z
  .object({
    code: z.string().max(100),
    name: z.string().min(1).max(200),
    kind: z.enum(PRODUCT_KINDS),
    action: z.string().regex(/^[a-z][a-z-]{0,39}$/),
    tld: z.string().max(63).nullable().optional(),
    tags: Tags.optional(),
    periods: z.array(z.number().int()).max(10).optional(),
    registrar_template_id: z.uuid().nullable().optional(),
    is_active: z.boolean().optional(),
  })
  .strict()
  .openapi('CreateProduct')
const PatchProductBody = z
  .object({
    name: z.string().min(1).max(200),
    tags: Tags,
    periods: z.array(z.number().int()).max(10),
    registrar_template_id: z.uuid().nullable(),
    is_active: z.boolean(),
    version: z.number().int().positive(),
  })
  .partial()
  .required({ version: true })
  .strict()
  .openapi('PatchProduct')

const TemplateSchema = z
  .object({ id: z.uuid(), name: z.string(), schema: z.record(z.string(), z.unknown()), version: z.number().int(), created_at: z.string(), updated_at: z.string() })
  .openapi('RegistrarTemplate')

const productJson = (p: Product) => ({ ...p, created_at: p.created_at.toISOString(), updated_at: p.updated_at.toISOString() })
const IdParam = z.object({ id: z.uuid() })

export const productsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/products',
      ...access('staff'),
      tags: TAGS,
      summary: 'Products (staff)',
      request: { query: ListQueryParams },
      responses: { 200: ListResponse(ProductSchema.partial()), ...ProblemResponses },
    }),
    async (c) => {
      return c.json(await listPage(c, null, productsResource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/products',
      ...access('staff'),
      tags: TAGS,
      summary: 'Make a product (SSL, block, service; domain products come from the TLD catalogue)',
      request: { body: jsonBody(CreateProductBody) },
      responses: { 201: jsonResponse(ProductSchema), ...ProblemResponses },
    }),
    async (c) => c.json(productJson(await createProduct(c.get('deps').db, requireOwnScope(c), c.req.valid('json'))), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/products/{id}',
      ...access('staff'),
      tags: TAGS,
      summary: 'One product (staff)',
      request: { params: IdParam },
      responses: { 200: jsonResponse(ProductSchema), ...ProblemResponses },
    }),
    async (c) => c.json(productJson(await getProduct(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id)), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/products/{id}',
      ...access('staff'),
      tags: TAGS,
      summary: "Edit a product's name, tags, periods, template or activity (staff)",
      request: { params: IdParam, body: jsonBody(PatchProductBody) },
      responses: { 200: jsonResponse(ProductSchema), ...ProblemResponses },
    }),
    async (c) => c.json(productJson(await updateProduct(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id, c.req.valid('json'))), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/products/{id}/costs',
      ...access('staff'),
      tags: TAGS,
      summary: "A product's costs, newest first (staff)",
      request: { params: IdParam },
      responses: { 200: jsonResponse(z.object({ data: z.array(CostSchema) })), ...ProblemResponses },
    }),
    async (c) => c.json({ data: await listCosts(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id, c.get('deps').now()) }, 200),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/products/{id}/costs',
      ...access('staff'),
      tags: TAGS,
      summary: 'Enter a cost of a product from a date on (staff)',
      request: { params: IdParam, body: jsonBody(z.object({ currency: z.string().max(3), amount: Money, effective_from: z.string().max(40) }).strict()) },
      responses: { 201: jsonResponse(UploadRowSchema), ...ProblemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json')
      const row = await addCost(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id, { ...body, amount: String(body.amount) }, c.get('deps').now())
      return c.json(row, 201)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/product-costs/upload',
      ...access('staff'),
      tags: TAGS,
      summary: 'Costs by CSV (code,currency,amount,effective_from): a preview of new, changed, unchanged and refused rows; commit stores a file without errors',
      request: { body: jsonBody(z.object({ csv: z.string().max(2_000_000), commit: z.boolean().default(false) }).strict()) },
      responses: { 200: jsonResponse(z.object({ rows: z.array(UploadRowSchema), counts: z.record(z.string(), z.number().int()), committed: z.boolean() })), ...ProblemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json')
      return c.json(await uploadCosts(c.get('deps').db, requireOwnScope(c), body.csv, body.commit, c.get('deps').now()), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/registrar-templates',
      ...access('staff'),
      tags: TAGS,
      summary: 'Registrar templates (staff)',
      request: { query: ListQueryParams },
      responses: { 200: ListResponse(z.record(z.string(), z.unknown())), ...ProblemResponses },
    }),
    async (c) => {
      return c.json(await listPage(c, null, templatesResource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/registrar-templates',
      ...access('staff'),
      tags: TAGS,
      summary: 'Make a registrar template: a JSON Schema with `ui` keys (refused when it is not valid JSON Schema)',
      request: { body: jsonBody(z.object({ name: z.string().min(1).max(200), schema: z.record(z.string(), z.unknown()) }).strict()) },
      responses: { 201: jsonResponse(TemplateSchema), ...ProblemResponses },
    }),
    async (c) => c.json(await createTemplate(c.get('deps').db, requireOwnScope(c), c.req.valid('json')), 201),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/registrar-templates/{id}',
      ...access('staff'),
      tags: TAGS,
      summary: 'One registrar template (staff)',
      request: { params: IdParam },
      responses: { 200: jsonResponse(TemplateSchema), ...ProblemResponses },
    }),
    async (c) => c.json(await getTemplate(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id), 200),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/registrar-templates/{id}',
      ...access('staff'),
      tags: TAGS,
      summary: "Change a registrar template's name or schema (staff)",
      request: {
        params: IdParam,
        body: jsonBody(z.object({ name: z.string().min(1).max(200).optional(), schema: z.record(z.string(), z.unknown()).optional(), version: z.number().int().positive() }).strict()),
      },
      responses: { 200: jsonResponse(TemplateSchema), ...ProblemResponses },
    }),
    async (c) => c.json(await updateTemplate(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id, c.req.valid('json')), 200),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/registrar-templates/of-products',
      ...access('domain-viewer'),
      tags: TAGS,
      summary: 'The registrar templates of domain products (codes domain:<tld>:<action>, comma-separated): the fields the cart asks for beside an item',
      request: { params: z.object({ context: z.string() }), query: z.object({ codes: z.string().max(4000) }) },
      responses: {
        200: jsonResponse(z.object({ data: z.array(z.object({ product_code: z.string(), template_id: z.uuid(), name: z.string(), schema: z.record(z.string(), z.unknown()) })) })),
        ...ProblemResponses,
      },
    }),
    async (c) => {
      requireScope(c, c.req.valid('param').context)
      const items = c.req
        .valid('query')
        .codes.split(',')
        .map((code) => /^domain:([a-z0-9-]{1,63}):([a-z-]{1,20})$/.exec(code.trim()))
        .flatMap((m) => (m ? [{ tld: m[1]!, type: m[2]! }] : []))
        .slice(0, 200)
      return c.json({ data: [...(await templatesOfItems(c.get('deps').db, items)).values()] }, 200)
    },
  )
