import { createRoute, z } from '@hono/zod-openapi'
import type { Account } from '#server/db/schema.ts'
import { createRouter, requireOwnScope, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { accountsResource, createAccount, getAccount, LANGUAGES, updateAccount } from './service.ts'

const Conflict = {
  409: {
    description: 'Conflicts with stored state (duplicate name, changed version)',
    content: { 'application/problem+json': { schema: z.object({ code: z.string(), detail: z.string() }).passthrough() } },
  },
}

export const AccountSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    status: z.enum(['active', 'suspended']),
    currency: z.string(),
    language: z.string(),
    is_registrar: z.boolean(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Account')

const AccountDetailSchema = AccountSchema.extend({
  user_count: z.number().int(),
  domain_count: z.number().int(),
  contact_count: z.number().int(),
}).openapi('AccountDetail')

const CreateAccountBody = z
  .object({
    name: z.string().min(1).max(200),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    language: z.enum(LANGUAGES).optional(),
  })
  .strict()
  .openapi('CreateAccount')

const PatchAccountBody = z
  .object({
    name: z.string().min(1).max(200).optional(),
    status: z.enum(['active', 'suspended']).optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    language: z.enum(LANGUAGES).optional(),
    version: z.number().int().positive().openapi({ description: 'The version read; a different stored version answers 409' }),
  })
  .strict()
  .openapi('PatchAccount')

const IdParam = z.object({ id: z.uuid() })

export function accountJson(account: Account) {
  return { ...account, created_at: account.created_at.toISOString(), updated_at: account.updated_at.toISOString() }
}

export const accountsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/accounts',
      ...access('account-viewer'),
      tags: ['Accounts'],
      summary: 'Accounts: every account for staff in their own group, else the context account only',
      request: { params: z.object({ context: z.string() }), query: ListQueryParams },
      responses: { 200: ListResponse(AccountSchema.partial()), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await listPage(c, scope, { whole: accountsResource, scoped: { ...accountsResource, accountColumn: 'a.id' } }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/accounts/{id}',
      ...access('account-viewer'),
      tags: ['Accounts'],
      summary: 'One account with the counts of its users, domains and contacts',
      request: { params: IdParam },
      responses: { 200: jsonResponse(AccountDetailSchema), ...ProblemResponses },
    }),
    async (c) => {
      const account = await getAccount(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id)
      return c.json({ ...accountJson(account), user_count: account.user_count, domain_count: account.domain_count, contact_count: account.contact_count }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/accounts',
      ...access('staff'),
      tags: ['Accounts'],
      summary: 'Create a client account (staff)',
      request: { body: jsonBody(CreateAccountBody) },
      responses: { 201: jsonResponse(AccountSchema, 'Created'), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const scope = requireOwnScope(c)
      const account = await createAccount(c.get('deps').db, scope, c.req.valid('json'))
      return c.json(accountJson(account), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/accounts/{id}',
      ...access('account-manager'),
      tags: ['Accounts'],
      summary: 'Edit an account (name, status, currency, language) with optimistic concurrency',
      request: { params: IdParam, body: jsonBody(PatchAccountBody) },
      responses: { 200: jsonResponse(AccountSchema), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const account = await updateAccount(c.get('deps').db, requireOwnScope(c), c.req.valid('param').id, c.req.valid('json'))
      return c.json(accountJson(account), 200)
    },
  )
