import { createRoute, z } from '@hono/zod-openapi'
import { createRouter, requireActor, requireOwnScope } from '#server/platform/core/http.ts'
import { jsonBody, jsonResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { unauthorized } from '#server/platform/core/errors.ts'
import { publicUser } from '#server/platform/users/service.ts'
import { verifyPassword } from './passwords.ts'
import { issueTokenPair } from './tokens.ts'

const LoginBody = z.object({ username: z.string().min(1).max(320), password: z.string().min(1).max(1024) }).strict().openapi('LoginRequest')
const TokenPair = z.object({ access_token: z.string(), refresh_token: z.string() }).openapi('TokenPair')
export const PublicUser = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    email: z.string(),
    name: z.string(),
    roles: z.array(z.string()),
    abilities: z.array(z.string()),
    language: z.string(),
    dark_theme: z.boolean(),
    status: z.string(),
    last_sign_in_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('User')

export const authRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/login',
      tags: ['Authentication'],
      summary: 'Sign in with a username (email) and password',
      request: { body: jsonBody(LoginBody) },
      responses: { 200: jsonResponse(TokenPair), ...ProblemResponses },
    }),
    async (c) => {
      const { db, now } = c.get('deps')
      const { username, password } = c.req.valid('json')
      const user = await db.selectFrom('users').selectAll().where('email', '=', username.trim().toLowerCase()).executeTakeFirst()
      const valid = await verifyPassword(password, user?.password_hash ?? null)
      if (!user || !valid || user.status !== 'active') throw unauthorized('The username or password is incorrect')
      const pair = await db.transaction().execute(async (tx) => {
        await tx.updateTable('users').set({ last_sign_in_at: now() }).where('id', '=', user.id).execute()
        return issueTokenPair(tx, user.id, undefined, now())
      })
      return c.json({ access_token: pair.access_token, refresh_token: pair.refresh_token }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/me',
      tags: ['Authentication'],
      summary: 'The signed-in user',
      responses: { 200: jsonResponse(PublicUser), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireOwnScope(c)
      const user = await c.get('deps').db.selectFrom('users').selectAll().where('id', '=', scope.actor.userId!).executeTakeFirstOrThrow()
      return c.json(publicUser(user), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/logout',
      tags: ['Authentication'],
      summary: 'Revoke the tokens of this sign-in',
      responses: { 204: { description: 'Signed out' }, ...ProblemResponses },
    }),
    async (c) => {
      requireActor(c)
      const tokenId = c.get('tokenId')
      const { db, now } = c.get('deps')
      const token = await db.selectFrom('auth_tokens').select('family_id').where('id', '=', tokenId!).executeTakeFirstOrThrow()
      await db.updateTable('auth_tokens').set({ revoked_at: now() }).where('family_id', '=', token.family_id).where('revoked_at', 'is', null).execute()
      return c.body(null, 204)
    },
  )
