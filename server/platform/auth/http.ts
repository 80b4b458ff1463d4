import { linkBase } from '#server/platform/deps.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { PASSWORD_MAX_LENGTH } from '#common/password-policy.ts'
import { AppError, forbidden } from '#server/platform/core/errors.ts'
import { createRouter, requireActor, requireOwnScope, requireScope, UUID_PATTERN, type PlatformEnv } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { can, isStaff } from '#server/platform/core/scope.ts'
import { AUTH_EVENTS_LIST } from '#common/lists/audit.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { publicUser } from '#server/platform/users/service.ts'
import { clientOf } from './events.ts'
import {
  changePassword,
  checkPasswordReset,
  completePasswordReset,
  completeTwoFactor,
  confirmTwoFactor,
  disableTwoFactor,
  login,
  loginSso,
  logout,
  refresh,
  requestPasswordReset,
  startTwoFactor,
  SUPPORTED_LANGUAGES,
  updateProfile,
  type AuthContext,
} from './service.ts'

const LoginBody = z
  .object({ username: z.string().min(1).max(320), password: z.string().min(1).max(1024) })
  .strict()
  .openapi('LoginRequest')
const TokenPair = z.object({ access_token: z.string(), refresh_token: z.string() }).openapi('TokenPair')
const LoginAnswer = TokenPair.extend({
  two_factor_required: z.boolean().optional().openapi({ description: 'True when access_token is a two-factor token good only for POST /v1/two_factor_codes; refresh_token is then empty' }),
}).openapi('LoginAnswer')
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
    kind: z.enum(['person', 'service']).openapi({ description: 'A service user never signs in; it holds API tokens' }),
    last_sign_in_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('User')
const CodeBody = z
  .object({ code: z.string().min(1).max(32) })
  .strict()
  .openapi('CodeRequest')
const NewPassword = z
  .string()
  .min(1)
  .max(PASSWORD_MAX_LENGTH * 4)
const TokenParam = z.object({ token: z.string().min(1).max(200) })

/** The sign-in token of the request; an API token is none (it is revoked on the profile, not signed out). */
function sessionTokenOf(c: Context<PlatformEnv>): string {
  const tokenId = c.get('tokenId')
  if (!tokenId) throw new AppError(403, 'token.not_allowed', 'An API token is not a sign-in: revoke it on the profile instead')
  return tokenId
}

/** The request's view for the sign-in services. */
const authContext = (c: Context<PlatformEnv>): AuthContext => ({ db: c.get('deps').db, now: c.get('deps').now(), client: clientOf(c), requestId: c.get('requestId') })

/** The authentication log as a list resource; scoped by account unless staff looks at all. */
export const authEventsResource = listResource(AUTH_EVENTS_LIST, {
  from: 'auth_events ev',
  accountColumn: 'ev.account_id',
  tiebreak: 'ev.id',
  columns: {
    id: 'ev.id',
    created_at: 'ev.created_at',
    user_id: 'ev.user_id',
    account_id: 'ev.account_id',
    email: 'ev.email',
    kind: 'ev.kind',
    outcome: 'ev.outcome',
    reason: 'ev.reason',
    ip: 'ev.ip',
    user_agent: 'ev.user_agent',
  },
})
// Staff in their own group see every event, those of names that matched no user included (spec §6).
const allAuthEventsResource: ListResource = { ...authEventsResource, accountColumn: undefined }

const AuthEventRow = z
  .object({
    id: z.uuid(),
    created_at: z.string(),
    user_id: z.uuid().nullable(),
    account_id: z.uuid().nullable(),
    email: z.string().nullable(),
    kind: z.enum(['password', 'two_factor', 'sso', 'refresh', 'reset', 'logout']),
    outcome: z.enum(['success', 'failure']),
    reason: z.string(),
    ip: z.string(),
    user_agent: z.string(),
  })
  .partial()
  .openapi('AuthenticationEvent')

export const authRouter = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/login',
      ...access('public'),
      tags: ['Authentication'],
      summary: 'Sign in with a username (email) and password',
      description:
        'With two-factor sign-in on, access_token is a short-lived token good only for POST /v1/two_factor_codes, refresh_token is empty and two_factor_required is true. Failures are throttled per name and per IP (429 with Retry-After).',
      request: { body: jsonBody(LoginBody) },
      responses: { 200: jsonResponse(LoginAnswer), ...ProblemResponses },
    }),
    async (c) => {
      const { username, password } = c.req.valid('json')
      return c.json(await login(authContext(c), username, password), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/two_factor_codes',
      ...access('signed-in', { session: true }),
      tags: ['Authentication'],
      summary: 'The second step of a sign-in: a TOTP or recovery code, with the two-factor token as Bearer',
      request: { body: jsonBody(CodeBody) },
      responses: { 200: jsonResponse(z.object({ user: PublicUser, access_token: z.string(), refresh_token: z.string() }).openapi('TwoFactorAnswer')), ...ProblemResponses },
    }),
    async (c) => {
      requireActor(c)
      return c.json(await completeTwoFactor(authContext(c), sessionTokenOf(c), c.req.valid('json').code), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/refresh',
      ...access('public'),
      tags: ['Authentication'],
      summary: 'Rotate a refresh token; a token used twice ends its whole sign-in',
      request: {
        body: jsonBody(
          z
            .object({ refresh_token: z.string().min(1).max(200), sso_token: z.string().max(8192).optional() })
            .strict()
            .openapi('RefreshRequest'),
        ),
      },
      responses: { 200: jsonResponse(z.object({ data: TokenPair }).openapi('RefreshAnswer')), ...ProblemResponses },
    }),
    async (c) => {
      // sso_token is accepted as the portal sends it; the provider's token is checked at login_sso only.
      return c.json({ data: await refresh(authContext(c), c.req.valid('json').refresh_token) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/login_sso',
      ...access('public'),
      tags: ['Authentication'],
      summary: 'Exchange an access token of the single-sign-on provider for tokens of this platform',
      request: {
        body: jsonBody(
          z
            .object({ email: z.string().min(3).max(320), sso_token: z.string().min(1).max(8192) })
            .strict()
            .openapi('LoginSsoRequest'),
        ),
      },
      responses: {
        200: jsonResponse(z.object({ access_token: z.string(), refresh_token: z.string(), user: z.object({ id: z.uuid(), language: z.string() }) }).openapi('LoginSsoAnswer')),
        ...ProblemResponses,
      },
    }),
    async (c) => {
      const { email, sso_token } = c.req.valid('json')
      const { config, logger } = c.get('deps')
      return c.json(await loginSso(authContext(c), config.OIDC_ISSUER, email, sso_token, logger), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/me',
      ...access('signed-in'),
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
      ...access('signed-in', { session: true }),
      tags: ['Authentication'],
      summary: 'Revoke the tokens of this sign-in',
      responses: { 204: { description: 'Signed out' }, ...ProblemResponses },
    }),
    async (c) => {
      requireActor(c)
      await logout(authContext(c), sessionTokenOf(c))
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/password_resets',
      ...access('public'),
      tags: ['Authentication'],
      summary: 'Mail a password reset link (the answer is the same whether or not the address is known)',
      request: {
        body: jsonBody(
          z
            .object({ email: z.string().min(1).max(320) })
            .strict()
            .openapi('PasswordResetRequest'),
        ),
      },
      responses: { 202: jsonResponse(z.object({ status: z.literal('sent') }), 'Accepted'), ...ProblemResponses },
    }),
    async (c) => {
      const deps = c.get('deps')
      const { mailer, logger } = deps
      const baseUrl = linkBase(deps, c.req.raw)
      await requestPasswordReset(authContext(c), { mailer, logger, baseUrl }, c.req.valid('json').email)
      return c.json({ status: 'sent' as const }, 202)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/password_resets/{token}',
      ...access('public'),
      tags: ['Authentication'],
      summary: 'Whether a reset token can still be used (404 when not)',
      request: { params: TokenParam },
      responses: { 200: jsonResponse(z.object({ valid: z.literal(true) })), ...ProblemResponses },
    }),
    async (c) => c.json(await checkPasswordReset(authContext(c), c.req.valid('param').token), 200),
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/password_resets/{token}',
      ...access('public'),
      tags: ['Authentication'],
      summary: 'Set a new password with a reset token; every session of the user ends',
      description: 'Policy failures answer 400 with errors[].code: password.required, password.too_short, password.too_long, password.matches_identity, password.common.',
      request: { params: TokenParam, body: jsonBody(z.object({ password: NewPassword }).strict().openapi('PasswordResetCompletion')) },
      responses: { 204: { description: 'Password set' }, ...ProblemResponses },
    }),
    async (c) => {
      await completePasswordReset(authContext(c), c.req.valid('param').token, c.req.valid('json').password)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/profile',
      ...access('signed-in', { session: true }),
      tags: ['Profile'],
      summary: "The signed-in user's language and theme",
      request: {
        body: jsonBody(
          z
            .object({ language: z.enum(SUPPORTED_LANGUAGES).optional(), dark_theme: z.boolean().optional() })
            .strict()
            .openapi('ProfilePatch'),
        ),
      },
      responses: { 200: jsonResponse(PublicUser), ...ProblemResponses },
    }),
    async (c) => {
      const actor = requireActor(c)
      return c.json(await updateProfile(authContext(c), actor.userId!, c.req.valid('json')), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'put',
      path: '/profile/password',
      ...access('signed-in', { session: true }),
      tags: ['Profile'],
      summary: 'Change the password; every session ends and this one gets new tokens',
      request: {
        body: jsonBody(
          z
            .object({ current_password: z.string().min(1).max(1024), new_password: NewPassword })
            .strict()
            .openapi('PasswordChange'),
        ),
      },
      responses: { 200: jsonResponse(TokenPair), ...ProblemResponses },
    }),
    async (c) => {
      const actor = requireActor(c)
      const { current_password, new_password } = c.req.valid('json')
      return c.json(await changePassword(authContext(c), actor.userId!, current_password, new_password), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/profile/two_factor',
      ...access('signed-in', { session: true }),
      tags: ['Profile'],
      summary: 'Start two-factor enrolment: a new secret, its otpauth URI and QR code (pending until confirmed)',
      responses: { 200: jsonResponse(z.object({ secret: z.string(), otpauth_uri: z.string(), qr_svg: z.string() }).openapi('TwoFactorEnrolment')), 409: ProblemResponses[400], ...ProblemResponses },
    }),
    async (c) => {
      const actor = requireActor(c)
      return c.json(await startTwoFactor(authContext(c), actor.userId!), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/profile/two_factor/confirm',
      ...access('signed-in', { session: true }),
      tags: ['Profile'],
      summary: 'Confirm enrolment with a first code; answers ten single-use recovery codes, shown once',
      request: { body: jsonBody(CodeBody) },
      responses: { 200: jsonResponse(z.object({ recovery_codes: z.array(z.string()) }).openapi('RecoveryCodes')), ...ProblemResponses },
    }),
    async (c) => {
      const actor = requireActor(c)
      return c.json(await confirmTwoFactor(authContext(c), actor.userId!, c.req.valid('json').code), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/profile/two_factor',
      ...access('signed-in', { session: true }),
      tags: ['Profile'],
      summary: 'Turn two-factor sign-in off with a fresh code (or a recovery code)',
      request: { body: jsonBody(CodeBody) },
      responses: { 204: { description: 'Turned off' }, 409: ProblemResponses[400], ...ProblemResponses },
    }),
    async (c) => {
      const actor = requireActor(c)
      await disableTwoFactor(authContext(c), actor.userId!, c.req.valid('json').code)
      return c.body(null, 204)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/authentication-events',
      // Any signed-in user: without user-viewer, their own events only (the handler narrows the list).
      ...access('signed-in'),
      tags: ['Authentication'],
      summary: 'The authentication log: every sign-in attempt with its outcome, IP and user agent',
      description: 'User admins (user-viewer) see their account; other users see their own events; staff in their own group see all, elsewhere that account.',
      request: { params: z.object({ context: z.string() }), query: ListQueryParams },
      responses: { 200: ListResponse(AuthEventRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const actor = scope.actor
      let resource = authEventsResource
      if (isStaff(actor) && scope.accountId === actor.homeAccountId) resource = allAuthEventsResource
      else if (!can(actor, 'user-viewer')) {
        // The id comes from our own token row; checked anyway, since it lands in trusted SQL text.
        if (!actor.userId || !UUID_PATTERN.test(actor.userId)) throw forbidden()
        resource = { ...authEventsResource, where: `ev.user_id = '${actor.userId}'` }
      }
      return c.json(await listPage(c, scope, resource), 200)
    },
  )
