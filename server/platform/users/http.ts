import { linkBase } from '#server/platform/deps.ts'
import { createRoute, z } from '@hono/zod-openapi'
import { mailTexts } from '#server/lib/mail-texts.ts'
import type { Context } from 'hono'
import { LANGUAGES } from '#server/platform/accounts/service.ts'
import { USER_STATUSES } from '#common/lists/directory.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { createRouter, requireScope, type PlatformEnv } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { acceptInvite, endSessions, findInvite, getUser, inviteUser, resetTwoFactor, scopedUsersResource, setUserStatus, updateUser, usersResource } from './service.ts'

const Conflict = {
  409: {
    description: 'Conflicts with stored state (duplicate email, last admin, changed version)',
    content: { 'application/problem+json': { schema: z.object({ code: z.string(), detail: z.string() }).passthrough() } },
  },
}

const UserRow = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    account: z.object({ name: z.string() }),
    email: z.string(),
    name: z.string(),
    roles: z.array(z.string()),
    abilities: z.array(z.string()),
    language: z.string(),
    status: z.enum(USER_STATUSES).openapi({ description: "'invited' is a pending invitation: an active user who has not set a password yet" }),
    two_factor: z.boolean(),
    invited: z.boolean(),
    last_sign_in_at: z.string().nullable(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .partial()
  .openapi('UserRow')

const UserDetailSchema = z
  .object({
    id: z.uuid(),
    group_id: z.uuid(),
    account: z.object({ id: z.uuid(), name: z.string() }),
    email: z.string(),
    name: z.string(),
    roles: z.array(z.string()),
    abilities: z.array(z.string()),
    role_grants: z.record(z.string(), z.array(z.string())).openapi({ description: 'Per held role, what it grants besides itself (an -admin role grants -manager and -viewer)' }),
    ability_grants: z.record(z.string(), z.array(z.string())),
    permissions: z.array(z.string()).openapi({ description: 'Every permission held once roles and abilities are expanded' }),
    language: z.string(),
    dark_theme: z.boolean(),
    status: z.enum(['active', 'disabled']),
    kind: z.enum(['person', 'service']),
    two_factor: z.boolean(),
    invited: z.boolean(),
    last_sign_in_at: z.string().nullable(),
    version: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('UserDetail')

const PermissionNames = z.array(z.string().min(1).max(64)).max(100)

const InviteBody = z
  .object({
    email: z.string().min(3).max(320),
    name: z.string().max(200).default(''),
    roles: PermissionNames.openapi({ description: 'At least one known role; none is a 400 user.roles_required, an unknown one user.role_unknown (on roles)' }),
    abilities: PermissionNames.optional(),
    language: z.enum(LANGUAGES).optional(),
  })
  .strict()
  .openapi('InviteUser')

const PatchUserBody = z
  .object({
    name: z.string().max(200).optional(),
    language: z.enum(LANGUAGES).optional(),
    roles: PermissionNames.optional(),
    abilities: PermissionNames.optional(),
    version: z.number().int().positive().openapi({ description: 'The version read; a different stored version answers 409' }),
  })
  .strict()
  .openapi('PatchUser')

const Params = z.object({ context: z.string(), id: z.uuid() })
const TAGS = ['Users']

/** Sends the invitation: through the deps' mailer when there is one, else to the log. */
async function deliverInvite(c: Context<PlatformEnv>, to: string, token: string, language: string) {
  const deps = c.get('deps')
  const base = linkBase(deps, c.req.raw)
  const link = `${base}/invitations/${encodeURIComponent(token)}`
  const t = mailTexts(language)
  const mailer = (deps as { mailer?: { send(message: { to: string; subject: string; text: string }): Promise<unknown> } }).mailer
  if (mailer) {
    await mailer.send({ to, subject: t('invite.subject'), text: t('invite.body', { link }) })
  } else {
    deps.logger.info('user invitation (no mailer configured)', { to, link })
  }
}

const action = (path: string, summary: string) =>
  createRoute({
    method: 'post',
    path: `/groups/{context}/users/{id}/${path}`,
    ...access('user-admin'),
    tags: TAGS,
    summary,
    request: { params: Params },
    responses: { 200: jsonResponse(UserDetailSchema), ...ProblemResponses, ...Conflict },
  })

export const usersRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/users',
      ...access('user-viewer'),
      tags: TAGS,
      summary: 'Users of the context account (staff in their own group: every account; filter by group_id)',
      request: { params: z.object({ context: z.string() }), query: ListQueryParams },
      responses: { 200: ListResponse(UserRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await listPage(c, scope, { whole: usersResource, scoped: scopedUsersResource }), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/users/{id}',
      ...access('user-viewer'),
      tags: TAGS,
      summary: 'One user, with what each role grants',
      request: { params: Params },
      responses: { 200: jsonResponse(UserDetailSchema), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await getUser(c.get('deps').db, requireScope(c, context), id), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/users',
      ...access('user-admin'),
      tags: TAGS,
      summary: 'Invite a user by email: they get a link to set their password',
      request: { params: z.object({ context: z.string() }), body: jsonBody(InviteBody) },
      responses: { 201: jsonResponse(UserDetailSchema, 'Invited'), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const { db, now } = c.get('deps')
      const { user, token } = await inviteUser(db, scope, c.req.valid('json'), now())
      await deliverInvite(c, user.email, token, user.language)
      return c.json(await getUser(db, scope, user.id), 201)
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/groups/{context}/users/{id}',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'Edit name, language, roles and abilities (not your own roles)',
      request: { params: Params, body: jsonBody(PatchUserBody) },
      responses: { 200: jsonResponse(UserDetailSchema), ...ProblemResponses, ...Conflict },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await updateUser(c.get('deps').db, requireScope(c, context), id, c.req.valid('json')), 200)
    },
  )
  .openapi(action('disable', 'Disable a user and end their sessions'), async (c) => {
    const { context, id } = c.req.valid('param')
    return c.json(await setUserStatus(c.get('deps').db, requireScope(c, context), id, 'disabled'), 200)
  })
  .openapi(action('enable', 'Enable a disabled user'), async (c) => {
    const { context, id } = c.req.valid('param')
    return c.json(await setUserStatus(c.get('deps').db, requireScope(c, context), id, 'active'), 200)
  })
  .openapi(action('reset-two-factor', 'Remove the second factor; the user enrols again'), async (c) => {
    const { context, id } = c.req.valid('param')
    return c.json(await resetTwoFactor(c.get('deps').db, requireScope(c, context), id), 200)
  })
  .openapi(action('end-sessions', 'Revoke every token of the user'), async (c) => {
    const { context, id } = c.req.valid('param')
    const scope = requireScope(c, context)
    const { db } = c.get('deps')
    await endSessions(db, scope, id)
    return c.json(await getUser(db, scope, id), 200)
  })
  .openapi(
    createRoute({
      method: 'get',
      path: '/user_invites/{token}',
      ...access('public'),
      tags: TAGS,
      summary: 'Check an invitation link (public); 404 when unknown, used or expired',
      request: { params: z.object({ token: z.string().min(1).max(200) }) },
      responses: { 200: jsonResponse(z.object({ email: z.string(), name: z.string() }).openapi('Invitation')), ...ProblemResponses },
    }),
    async (c) => {
      const { now, db } = c.get('deps')
      return c.json(await findInvite(db, c.req.valid('param').token, now()), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/user_invites/{token}',
      ...access('public'),
      tags: TAGS,
      summary: 'Accept an invitation by setting a password (public); the link works once',
      request: {
        params: z.object({ token: z.string().min(1).max(200) }),
        body: jsonBody(
          z
            .object({ password: z.string().min(1).max(1024) })
            .strict()
            .openapi('AcceptInvitation'),
        ),
      },
      responses: { 204: { description: 'Password set; sign in with it' }, ...ProblemResponses },
    }),
    async (c) => {
      const { now, db } = c.get('deps')
      await acceptInvite(db, c.req.valid('param').token, c.req.valid('json').password, now())
      return c.body(null, 204)
    },
  )
