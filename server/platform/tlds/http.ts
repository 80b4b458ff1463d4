import { createRoute, z } from '@hono/zod-openapi'
import type { TldEntry } from '#server/db/schema.ts'
import { createRouter, requireOwnScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listQueryFromUrl, runList } from '#server/platform/list/engine.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { SCRIPT_CODES } from '#common/idna.ts'
import { getTld, normaliseNameFilters, TLD_KINDS, tldsResource, updateTld } from './service.ts'

const TAGS = ['TLDs']
const Days = z.number().int().min(0).max(365)

const TldSchema = z
  .object({
    id: z.uuid(),
    name: z.string().openapi({ description: 'ASCII (punycode) form without the dot', example: 'xn--p1ai' }),
    unicode_name: z.string().openapi({ example: 'рф' }),
    kind: z.enum(TLD_KINDS),
    registry_operator: z.string(),
    is_offered: z.boolean(),
    periods: z.array(z.number().int()).openapi({ description: 'Allowed registration periods in years' }),
    add_grace_days: z.number().int(),
    renew_grace_days: z.number().int(),
    auto_renew_grace_days: z.number().int(),
    transfer_grace_days: z.number().int(),
    redemption_days: z.number().int(),
    dnssec: z.boolean(),
    idn: z.boolean(),
    registry_lock: z.boolean(),
    required_contacts: z.array(z.enum(CONTACT_ROLES)),
    idn_scripts: z.array(z.string()).nullable().openapi({
      description:
        'The scripts its labels may be written in (ISO 15924: Latn, Cyrl, Jpan…); null: the default (an IDN TLD its own script, some country codes Latin and their national script, others Latin only)',
    }),
    list_price_minor: z.number().int().nullable().openapi({ description: 'Integer minor units of currency (JPY has none)' }),
    currency: z.string(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Tld')

const PatchTldBody = z
  .object({
    kind: z.enum(TLD_KINDS),
    registry_operator: z.string().max(200),
    is_offered: z.boolean(),
    periods: z.array(z.number().int().min(1).max(10)).min(1).max(10),
    add_grace_days: Days,
    renew_grace_days: Days,
    auto_renew_grace_days: Days,
    transfer_grace_days: Days,
    redemption_days: Days,
    dnssec: z.boolean(),
    idn: z.boolean(),
    registry_lock: z.boolean(),
    required_contacts: z.array(z.enum(CONTACT_ROLES)).max(4),
    idn_scripts: z
      .array(z.enum(SCRIPT_CODES as [string, ...string[]]))
      .max(SCRIPT_CODES.length)
      .nullable(),
    list_price_minor: z.number().int().min(0).max(100_000_000_00).nullable(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    version: z.number().int().positive(),
  })
  .partial()
  .required({ version: true })
  .strict()
  .openapi('PatchTld')

const tldJson = (tld: TldEntry) => ({ ...tld, created_at: tld.created_at.toISOString(), updated_at: tld.updated_at.toISOString() })

export const tldsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/tlds',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'The TLD catalogue: every IANA TLD with its catalogue entry (name filters take punycode or Unicode)',
      request: { query: ListQueryParams },
      responses: { 200: ListResponse(TldSchema.partial()), ...ProblemResponses },
    }),
    async (c) => {
      requireOwnScope(c)
      const query = listQueryFromUrl(tldsResource, new URL(c.req.url))
      query.filters = normaliseNameFilters(query.filters)
      const page = await runList(c.get('deps').db, tldsResource, query, { accountId: null })
      return c.json(page, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/tlds/{id}',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'One TLD by id or by name (com, xn--p1ai or рф)',
      request: { params: z.object({ id: z.string().min(1).max(100) }) },
      responses: { 200: jsonResponse(TldSchema), ...ProblemResponses },
    }),
    async (c) => {
      requireOwnScope(c)
      return c.json(tldJson(await getTld(c.get('deps').db, c.req.valid('param').id)), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/tlds/{id}',
      ...access('staff'),
      tags: TAGS,
      summary: "Edit a TLD's catalogue entry (staff)",
      request: { params: z.object({ id: z.uuid() }), body: jsonBody(PatchTldBody) },
      responses: { 200: jsonResponse(TldSchema), ...ProblemResponses },
    }),
    async (c) => {
      const after = await updateTld(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id, c.req.valid('json'))
      return c.json(tldJson(after), 200)
    },
  )
