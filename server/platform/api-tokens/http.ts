import { createRoute, z } from '@hono/zod-openapi'
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_CIDRS, API_TOKEN_MAX_DAYS, API_TOKEN_MAX_TAGS, API_TOKEN_NAME_MAX } from '#common/api-tokens.ts'
import { PublicUser } from '#server/platform/auth/http.ts'
import { createRouter, requireActor, requireOwnScope, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { publicUser } from '#server/platform/users/service.ts'
import { createServiceUser, createToken, listTokensOf, revokeToken, selfOf, serviceUserOf } from './service.ts'

const TAGS = ['API tokens']

const ApiTokenSchema = z
  .object({
    id: z.uuid(),
    number: z.number().int().openapi({ description: 'The audit trail names a request made with the token "token N of user U"' }),
    name: z.string(),
    hint: z.string().openapi({ description: 'The first characters of the secret', example: 'rp_a1B2…' }),
    user_id: z.uuid(),
    permissions: z.array(z.string()),
    account_id: z.uuid().nullable(),
    domain_tags: z.array(z.string()),
    cidrs: z.array(z.string()),
    expires_at: z.string(),
    revoked_at: z.string().nullable(),
    created_at: z.string(),
    created_by: z.uuid().nullable(),
    last_used_at: z.string().nullable(),
    last_used_address: z.string().nullable(),
  })
  .openapi('ApiToken')

const NewApiTokenSchema = z
  .object({
    name: z.string().min(1).max(API_TOKEN_NAME_MAX),
    permissions: z.array(z.string().min(1).max(64)).max(100).openapi({ description: 'A subset of the permissions the creator and the token’s user hold' }),
    account_id: z.uuid().nullable().optional().openapi({ description: 'The only account the token acts in' }),
    domain_tags: z
      .array(z.string().max(63))
      .max(API_TOKEN_MAX_TAGS)
      .optional()
      .openapi({ description: 'When given, the token reaches only the domain operations, on domains carrying one of these tags' }),
    cidrs: z
      .array(z.string().max(64))
      .max(API_TOKEN_MAX_CIDRS)
      .optional()
      .openapi({ description: 'Client address ranges the token is accepted from', example: ['203.0.113.0/24'] }),
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(API_TOKEN_MAX_DAYS)
      .optional()
      .openapi({ description: `Days until the token expires (default ${API_TOKEN_DEFAULT_DAYS})` }),
  })
  .strict()
  .openapi('NewApiToken')

const CreatedToken = z
  .object({ token: ApiTokenSchema, secret: z.string().openapi({ description: 'The bearer secret, shown this once: rp_ + 30 random + 6 checksum characters' }) })
  .openapi('CreatedApiToken')
const List = z.object({ data: z.array(ApiTokenSchema) })
const ServiceUserBody = z
  .object({ name: z.string().min(1).max(200), roles: z.array(z.string().min(1).max(64)).max(100), abilities: z.array(z.string().min(1).max(64)).max(100).optional() })
  .strict()
  .openapi('NewServiceUser')

const OwnTokenParams = z.object({ id: z.uuid() })
const UserParams = z.object({ context: z.string(), id: z.uuid() })
const UserTokenParams = z.object({ context: z.string(), id: z.uuid(), token_id: z.uuid() })

/** API tokens (issue 20): a user's own on /profile, a service user's by an account admin. */
export const apiTokensRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/profile/api_tokens',
      ...access('signed-in', { session: true }),
      tags: TAGS,
      summary: 'Your API tokens, newest first, with their last use',
      responses: { 200: jsonResponse(List), ...ProblemResponses },
    }),
    async (c) => {
      const user = await selfOf(c.get('deps').db, requireActor(c))
      return c.json({ data: await listTokensOf(c.get('deps').db, user.id) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/profile/api_tokens',
      ...access('signed-in', { session: true }),
      tags: TAGS,
      summary: 'Make an API token for yourself; the secret is answered this once',
      request: { body: jsonBody(NewApiTokenSchema) },
      responses: { 201: jsonResponse(CreatedToken, 'Made'), ...ProblemResponses },
    }),
    async (c) => {
      const deps = c.get('deps')
      const scope = requireOwnScope(c)
      const user = await selfOf(deps.db, scope.actor)
      return c.json(await createToken(deps.db, scope, user, c.req.valid('json'), deps.now()), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/profile/api_tokens/{id}',
      ...access('signed-in', { session: true }),
      tags: TAGS,
      summary: 'Revoke one of your API tokens',
      request: { params: OwnTokenParams },
      responses: { 200: jsonResponse(ApiTokenSchema), ...ProblemResponses },
    }),
    async (c) => {
      const deps = c.get('deps')
      const scope = requireOwnScope(c)
      const user = await selfOf(deps.db, scope.actor)
      return c.json(await revokeToken(deps.db, scope, user, c.req.valid('param').id, deps.now()), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/service_users',
      ...access('user-admin'),
      tags: TAGS,
      summary: 'Make a service user: it never signs in and holds API tokens; its permissions are a subset of yours',
      request: { params: z.object({ context: z.string() }), body: jsonBody(ServiceUserBody) },
      responses: { 201: jsonResponse(PublicUser, 'Made'), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(publicUser(await createServiceUser(c.get('deps').db, scope, c.req.valid('json'))), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/users/{id}/api_tokens',
      ...access('user-admin', { session: true }),
      tags: TAGS,
      summary: 'A service user’s API tokens',
      request: { params: UserParams },
      responses: { 200: jsonResponse(List), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const db = c.get('deps').db
      const user = await serviceUserOf(db, requireScope(c, context), id)
      return c.json({ data: await listTokensOf(db, user.id) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/users/{id}/api_tokens',
      ...access('user-admin', { session: true }),
      tags: TAGS,
      summary: 'Make an API token for a service user; the secret is answered this once',
      request: { params: UserParams, body: jsonBody(NewApiTokenSchema) },
      responses: { 201: jsonResponse(CreatedToken, 'Made'), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      const deps = c.get('deps')
      const scope = requireScope(c, context)
      const user = await serviceUserOf(deps.db, scope, id)
      return c.json(await createToken(deps.db, scope, user, c.req.valid('json'), deps.now()), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/users/{id}/api_tokens/{token_id}',
      ...access('user-admin', { session: true }),
      tags: TAGS,
      summary: 'Revoke a service user’s API token',
      request: { params: UserTokenParams },
      responses: { 200: jsonResponse(ApiTokenSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id, token_id } = c.req.valid('param')
      const deps = c.get('deps')
      const scope = requireScope(c, context)
      const user = await serviceUserOf(deps.db, scope, id)
      return c.json(await revokeToken(deps.db, scope, user, token_id, deps.now()), 200)
    },
  )
