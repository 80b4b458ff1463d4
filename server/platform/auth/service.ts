import type { Kysely } from 'kysely'
import type { DB, User } from '#server/db/schema.ts'
import { mailTexts } from '#server/lib/mail-texts.ts'
import { SsoTokenError, verifySsoToken } from '#server/integrations/oidc/verify.ts'
import type { Mailer } from '#server/integrations/mail/mailer.ts'
import type { Logger } from '#server/lib/logger.ts'
import { change } from '#server/platform/core/change.ts'
import { AppError, badRequest, conflict, unauthorized, type FieldError } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { publicUser } from '#server/platform/users/service.ts'
import { assertPasswordPolicy } from './password-policy.ts'
import { recordAuthEvent, type AuthEventInput, type Client } from './events.ts'
import { hashPassword, verifyPassword } from './passwords.ts'
import { assertNotThrottled, clearFailures, isKnownAddress, recordFailure, retryAfter, throttleRules, type ThrottleRule } from './throttle.ts'
import { hashToken, issueToken, issueTokenPair, newToken } from './tokens.ts'
import { consumeSecondFactor, hasTwoFactor, hashRecoveryCode, newEnrolment, newRecoveryCodes } from './two-factor.ts'

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000

/** What a sign-in service needs from the request. */
export type AuthContext = { db: Kysely<DB>; now: Date; client: Client; requestId: string }

// One message for every password failure, so that none tells an attacker which part was wrong.
const BAD_CREDENTIALS = 'The username or password is incorrect'
const BAD_CODE = 'The code is not valid'

const normaliseEmail = (email: string) => email.trim().toLowerCase()

/** The scope of a user acting on their own behalf (sign-in flows have no bearer yet). */
export const selfScope = (user: User, requestId: string): Scope => ({
  actor: { userId: user.id, label: user.email, homeAccountId: user.account_id, roles: user.roles, abilities: user.abilities },
  accountId: user.account_id,
  requestId,
})

const log = (ctx: AuthContext, event: AuthEventInput) => recordAuthEvent(ctx.db, ctx.client, event, ctx.now)

/** A refusal that is logged first; the log entry outlives the failed request. */
async function refuse(ctx: AuthContext, event: Omit<AuthEventInput, 'outcome'>, error: AppError): Promise<never> {
  await log(ctx, { ...event, outcome: 'failure' })
  throw error
}

/** Runs a throttle check; a throttled attempt is logged and answered 429 with Retry-After. */
async function throttled(ctx: AuthContext, rules: Parameters<typeof assertNotThrottled>[1], event: Omit<AuthEventInput, 'outcome' | 'reason'>) {
  try {
    await assertNotThrottled(ctx.db, rules, ctx.now)
  } catch (error) {
    await log(ctx, { ...event, outcome: 'failure', reason: 'throttled' })
    throw error
  }
}

export type LoginResult = { access_token: string; refresh_token: string } | { access_token: string; refresh_token: ''; two_factor_required: true }

/** Username (email) and password; with a second factor on, a token good only for the code step. */
export async function login(ctx: AuthContext, username: string, password: string): Promise<LoginResult> {
  const email = normaliseEmail(username)
  const rules = throttleRules.login(email, ctx.client.ip)
  const [nameRule, addressRule] = rules as [ThrottleRule, ThrottleRule]
  // The address's limit always holds; the name's lock not for an address this name signed in from
  // lately, so that anyone who knows the name cannot keep its owner out (decision 012).
  await throttled(ctx, [addressRule], { kind: 'password', email })
  if ((await retryAfter(ctx.db, [nameRule], ctx.now)) > 0 && !(await isKnownAddress(ctx.db, email, ctx.client.ip, ctx.now))) {
    await throttled(ctx, [nameRule], { kind: 'password', email })
  }
  const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()
  // verifyPassword spends the same scrypt time for an unknown user, so timing tells nothing.
  const valid = await verifyPassword(password, user?.password_hash ?? null)
  if (!user || !valid) {
    await recordFailure(ctx.db, rules, ctx.now)
    return refuse(ctx, { kind: 'password', user, email, reason: user ? 'wrong_password' : 'unknown_user' }, unauthorized(BAD_CREDENTIALS))
  }
  if (user.status !== 'active') return refuse(ctx, { kind: 'password', user, reason: 'disabled' }, unauthorized(BAD_CREDENTIALS))
  await clearFailures(ctx.db, [rules[0]!.key])

  if (await hasTwoFactor(ctx.db, user.id)) {
    const step = await issueToken(ctx.db, user.id, 'two_factor', { now: ctx.now })
    await log(ctx, { kind: 'password', outcome: 'success', reason: 'two_factor_required', user })
    return { access_token: step.token, refresh_token: '', two_factor_required: true }
  }
  const pair = await ctx.db.transaction().execute(async (tx) => {
    await tx.updateTable('users').set({ last_sign_in_at: ctx.now }).where('id', '=', user.id).execute()
    await recordAuthEvent(tx, ctx.client, { kind: 'password', outcome: 'success', reason: 'signed_in', user }, ctx.now)
    return issueTokenPair(tx, user.id, undefined, ctx.now)
  })
  return { access_token: pair.access_token, refresh_token: pair.refresh_token }
}

/** The second step: a TOTP or recovery code with the two-factor token of the first. */
export async function completeTwoFactor(ctx: AuthContext, tokenId: string, code: string) {
  const token = await ctx.db.selectFrom('auth_tokens').selectAll().where('id', '=', tokenId).executeTakeFirstOrThrow()
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', token.user_id).executeTakeFirstOrThrow()
  // An access token is no ticket to this step: only the unused token of a password step is.
  if (token.kind !== 'two_factor' || token.used_at) {
    return refuse(ctx, { kind: 'two_factor', user, reason: 'invalid_token' }, unauthorized('Sign in again'))
  }
  const rules = throttleRules.twoFactor(user.id, ctx.client.ip)
  await throttled(ctx, rules, { kind: 'two_factor', user })
  const result = await consumeSecondFactor(ctx.db, user.id, code, ctx.now, { allowRecovery: true })
  if (!result.ok) {
    await recordFailure(ctx.db, rules, ctx.now)
    return refuse(ctx, { kind: 'two_factor', user, reason: result.reason }, codeError(result.reason))
  }
  await clearFailures(ctx.db, [rules[0]!.key, `login:user:${user.email}`])
  return ctx.db.transaction().execute(async (tx) => {
    const spent = await tx.updateTable('auth_tokens').set({ used_at: ctx.now, revoked_at: ctx.now }).where('id', '=', token.id).where('used_at', 'is', null).returning('id').executeTakeFirst()
    if (!spent) throw unauthorized('Sign in again')
    const signedIn = await tx.updateTable('users').set({ last_sign_in_at: ctx.now }).where('id', '=', user.id).returningAll().executeTakeFirstOrThrow()
    await recordAuthEvent(tx, ctx.client, { kind: 'two_factor', outcome: 'success', reason: result.method, user }, ctx.now)
    const pair = await issueTokenPair(tx, user.id, undefined, ctx.now)
    return { user: publicUser(signedIn), access_token: pair.access_token, refresh_token: pair.refresh_token }
  })
}

function codeError(reason: 'invalid_code' | 'replayed_code') {
  const field = { field: 'code', message: reason === 'replayed_code' ? 'This code was used already; wait for the next one' : BAD_CODE, code: `two_factor.${reason}` }
  return badRequest(field.message, [field as FieldError])
}

/** Rotates a refresh token; a token used twice revokes its whole family (RFC 9700 §4.14.2). */
export async function refresh(ctx: AuthContext, refreshToken: string) {
  const hash = hashToken(refreshToken)
  const rotated = await ctx.db.transaction().execute(async (tx) => {
    const used = await tx
      .updateTable('auth_tokens')
      .set({ used_at: ctx.now })
      .where('token_hash', '=', hash)
      .where('kind', '=', 'refresh')
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', ctx.now)
      .returning(['id', 'user_id', 'family_id', 'expires_at'])
      .executeTakeFirst()
    if (!used) return null
    const user = await tx.selectFrom('users').selectAll().where('id', '=', used.user_id).executeTakeFirstOrThrow()
    if (user.status !== 'active') return { user, pair: null }
    // The access tokens issued before are retired with the refresh token they came with.
    await tx.updateTable('auth_tokens').set({ revoked_at: ctx.now }).where('family_id', '=', used.family_id).where('kind', '=', 'access').where('revoked_at', 'is', null).execute()
    const access = await issueToken(tx, user.id, 'access', { familyId: used.family_id, now: ctx.now })
    // The family keeps the expiry of the sign-in: rotation never extends a session past 12 hours.
    const next = await issueToken(tx, user.id, 'refresh', { familyId: used.family_id, now: ctx.now, ttlMs: used.expires_at.getTime() - ctx.now.getTime() })
    await recordAuthEvent(tx, ctx.client, { kind: 'refresh', outcome: 'success', reason: 'rotated', user }, ctx.now)
    return { user, pair: { access_token: access.token, refresh_token: next.token } }
  })
  if (rotated?.pair) return rotated.pair
  if (rotated) return refuse(ctx, { kind: 'refresh', user: rotated.user, reason: 'disabled' }, unauthorized('The session has ended'))

  const known = await ctx.db
    .selectFrom('auth_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.family_id', 't.used_at', 't.revoked_at', 't.expires_at', 't.kind', 'u.id', 'u.account_id', 'u.email'])
    .where('t.token_hash', '=', hash)
    .executeTakeFirst()
  if (!known || known.kind !== 'refresh') return refuse(ctx, { kind: 'refresh', reason: 'unknown_token' }, unauthorized('The session has ended'))
  const user = { id: known.id, account_id: known.account_id, email: known.email }
  if (known.used_at) {
    // Someone replays a rotated token: either the client or a thief holds a stolen copy. End it all.
    await ctx.db.updateTable('auth_tokens').set({ revoked_at: ctx.now }).where('family_id', '=', known.family_id).where('revoked_at', 'is', null).execute()
    return refuse(ctx, { kind: 'refresh', user, reason: 'reused_token' }, unauthorized('The session has ended'))
  }
  return refuse(ctx, { kind: 'refresh', user, reason: known.revoked_at ? 'revoked_token' : 'expired_token' }, unauthorized('The session has ended'))
}

/** Ends the sign-in family of the token used. */
export async function logout(ctx: AuthContext, tokenId: string) {
  const token = await ctx.db
    .selectFrom('auth_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.family_id', 'u.id', 'u.account_id', 'u.email'])
    .where('t.id', '=', tokenId)
    .executeTakeFirstOrThrow()
  await ctx.db.transaction().execute(async (tx) => {
    await tx.updateTable('auth_tokens').set({ revoked_at: ctx.now }).where('family_id', '=', token.family_id).where('revoked_at', 'is', null).execute()
    await recordAuthEvent(tx, ctx.client, { kind: 'logout', outcome: 'success', reason: 'signed_out', user: token }, ctx.now)
  })
}

/** Single sign-on: the provider vouches for the token, and its email must be the one claimed. */
export async function loginSso(ctx: AuthContext, issuer: string | undefined, emailInput: string, ssoToken: string, logger: Logger) {
  const email = normaliseEmail(emailInput)
  const rules = throttleRules.sso(ctx.client.ip)
  await throttled(ctx, rules, { kind: 'sso', email })
  const refused = async (reason: string, user?: User) => {
    await recordFailure(ctx.db, rules, ctx.now)
    return refuse(ctx, { kind: 'sso', email, user, reason }, unauthorized('Single sign-on failed; sign in again'))
  }
  if (!issuer) return refuse(ctx, { kind: 'sso', email, reason: 'sso_not_configured' }, unauthorized('Single sign-on is not available'))
  let identity
  try {
    identity = await verifySsoToken(issuer, ssoToken)
  } catch (error) {
    if (error instanceof SsoTokenError && error.reason === 'provider_unavailable') {
      logger.warn('single sign-on provider unavailable', { error: error.message })
      return refuse(ctx, { kind: 'sso', email, reason: 'provider_unavailable' }, new AppError(503, 'sso-unavailable', 'Single sign-on is unavailable; try again later'))
    }
    return refused('invalid_sso_token')
  }
  const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()
  if (!identity.email || normaliseEmail(identity.email) !== email || identity.email_verified === false) return refused('email_mismatch', user)
  if (!user) return refused('unknown_user')
  if (user.status !== 'active') return refused('disabled', user)
  return ctx.db.transaction().execute(async (tx) => {
    await tx.updateTable('users').set({ last_sign_in_at: ctx.now }).where('id', '=', user.id).execute()
    await recordAuthEvent(tx, ctx.client, { kind: 'sso', outcome: 'success', reason: 'signed_in', user }, ctx.now)
    const pair = await issueTokenPair(tx, user.id, undefined, ctx.now)
    return { access_token: pair.access_token, refresh_token: pair.refresh_token, user: { id: user.id, language: user.language } }
  })
}

/**
 * Mails a reset link when the address belongs to an active user; answers the same either way.
 * The mail is sent after the answer so that its delivery time does not tell either.
 */
export async function requestPasswordReset(ctx: AuthContext, deps: { mailer: Mailer; logger: Logger; baseUrl: string }, emailInput: string) {
  const email = normaliseEmail(emailInput)
  const rules = throttleRules.resetRequest(email, ctx.client.ip)
  await throttled(ctx, rules, { kind: 'reset', email })
  await recordFailure(ctx.db, rules, ctx.now)
  const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst()
  if (!user || user.status !== 'active') {
    await log(ctx, { kind: 'reset', outcome: 'failure', reason: user ? 'disabled' : 'unknown_user', email, user })
    return
  }
  const token = newToken()
  await ctx.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('password_resets')
      .values({ user_id: user.id, token_hash: hashToken(token), expires_at: new Date(ctx.now.getTime() + RESET_TOKEN_TTL_MS), requested_ip: ctx.client.ip, created_at: ctx.now })
      .execute()
    await recordAuthEvent(tx, ctx.client, { kind: 'reset', outcome: 'success', reason: 'requested', user }, ctx.now)
  })
  const link = `${deps.baseUrl.replace(/\/$/, '')}/reset?token=${encodeURIComponent(token)}`
  const t = mailTexts(user.language)
  void deps.mailer
    .send({ to: user.email, subject: t('reset.subject'), text: t('reset.body', { name: user.name || user.email, link }) })
    .catch((error: unknown) => deps.logger.error('password reset mail failed', { user_id: user.id, error }))
}

type ResetLookup = { ok: true; reset: { id: string; user_id: string } } | { ok: false; reason: 'unknown_token' | 'expired_token' | 'used_token'; user_id?: string }

async function lookupReset(db: Kysely<DB>, token: string, now: Date): Promise<ResetLookup> {
  const row = await db.selectFrom('password_resets').select(['id', 'user_id', 'expires_at', 'used_at']).where('token_hash', '=', hashToken(token)).executeTakeFirst()
  if (!row) return { ok: false, reason: 'unknown_token' }
  if (row.used_at) return { ok: false, reason: 'used_token', user_id: row.user_id }
  if (row.expires_at <= now) return { ok: false, reason: 'expired_token', user_id: row.user_id }
  return { ok: true, reset: row }
}

async function refuseReset(ctx: AuthContext, lookup: Extract<ResetLookup, { ok: false }>): Promise<never> {
  const user = lookup.user_id ? await ctx.db.selectFrom('users').select(['id', 'account_id', 'email']).where('id', '=', lookup.user_id).executeTakeFirst() : undefined
  return refuse(ctx, { kind: 'reset', user, reason: lookup.reason }, new AppError(404, 'not-found', 'This reset link is not valid any more; ask for a new one'))
}

/** True for a usable reset token; anything else is a 404 (logged). */
export async function checkPasswordReset(ctx: AuthContext, token: string) {
  const lookup = await lookupReset(ctx.db, token, ctx.now)
  if (!lookup.ok) return refuseReset(ctx, lookup)
  return { valid: true as const }
}

/** Sets the new password, spends the token, and ends every session of the user. */
export async function completePasswordReset(ctx: AuthContext, token: string, password: string) {
  const lookup = await lookupReset(ctx.db, token, ctx.now)
  if (!lookup.ok) return refuseReset(ctx, lookup)
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', lookup.reset.user_id).executeTakeFirstOrThrow()
  try {
    assertPasswordPolicy(password, user)
  } catch (error) {
    await log(ctx, { kind: 'reset', outcome: 'failure', reason: 'weak_password', user })
    throw error
  }
  const password_hash = await hashPassword(password)
  await change(ctx.db, selfScope(user, ctx.requestId), async (tx, audit) => {
    const spent = await tx.updateTable('password_resets').set({ used_at: ctx.now }).where('id', '=', lookup.reset.id).where('used_at', 'is', null).returning('id').executeTakeFirst()
    if (!spent) throw new AppError(404, 'not-found', 'This reset link is not valid any more; ask for a new one')
    // Any other link still out there dies with this one.
    await tx.updateTable('password_resets').set({ used_at: ctx.now }).where('user_id', '=', user.id).where('used_at', 'is', null).execute()
    // The users_revoke_tokens trigger revokes every token of the user with this update.
    await tx
      .updateTable('users')
      .set({ password_hash, updated_at: ctx.now, version: user.version + 1 })
      .where('id', '=', user.id)
      .execute()
    await audit.record({ area: 'users', entityType: 'user', entityId: user.id, accountId: user.account_id, action: 'password_reset', after: { password_changed_at: ctx.now.toISOString() } })
    await recordAuthEvent(tx, ctx.client, { kind: 'reset', outcome: 'success', reason: 'password_set', user }, ctx.now)
  })
  await clearFailures(ctx.db, [`login:user:${user.email}`])
}

/** The signed-in user's password change: needs the current one; every other session ends. */
export async function changePassword(ctx: AuthContext, userId: string, currentPassword: string, newPassword: string) {
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
  const rules = throttleRules.passwordChange(user.id, ctx.client.ip)
  await throttled(ctx, rules, { kind: 'password', user })
  if (!(await verifyPassword(currentPassword, user.password_hash))) {
    await recordFailure(ctx.db, rules, ctx.now)
    const field = { field: 'current_password', message: 'The current password is incorrect', code: 'password.current_incorrect' }
    return refuse(ctx, { kind: 'password', user, reason: 'wrong_current_password' }, badRequest(field.message, [field as FieldError]))
  }
  assertPasswordPolicy(newPassword, user, 'new_password')
  const password_hash = await hashPassword(newPassword)
  return change(ctx.db, selfScope(user, ctx.requestId), async (tx, audit) => {
    // The trigger revokes every token of the user, this session's included; it gets a new pair.
    await tx
      .updateTable('users')
      .set({ password_hash, updated_at: ctx.now, version: user.version + 1 })
      .where('id', '=', user.id)
      .execute()
    await audit.record({ area: 'users', entityType: 'user', entityId: user.id, accountId: user.account_id, action: 'password_changed', after: { password_changed_at: ctx.now.toISOString() } })
    await recordAuthEvent(tx, ctx.client, { kind: 'password', outcome: 'success', reason: 'password_changed', user }, ctx.now)
    const pair = await issueTokenPair(tx, user.id, undefined, ctx.now)
    return { access_token: pair.access_token, refresh_token: pair.refresh_token }
  })
}

/** Starts (or restarts) an enrolment: a pending secret until a first code confirms it. */
export async function startTwoFactor(ctx: AuthContext, userId: string) {
  const user = await ctx.db.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
  if (await hasTwoFactor(ctx.db, user.id)) throw conflict('Two-factor sign-in is already on; turn it off first')
  const enrolment = await newEnrolment(user.email)
  await ctx.db
    .insertInto('user_two_factor')
    .values({ user_id: user.id, secret: enrolment.secret, enabled_at: null, last_used_step: null, created_at: ctx.now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret: enrolment.secret, enabled_at: null, last_used_step: null, created_at: ctx.now }))
    .execute()
  return enrolment
}

/** Confirms an enrolment with a first code; answers the recovery codes, shown this once. */
export async function confirmTwoFactor(ctx: AuthContext, userId: string, code: string) {
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
  const rules = throttleRules.twoFactor(user.id, ctx.client.ip)
  await throttled(ctx, rules, { kind: 'two_factor', user })
  const codes = newRecoveryCodes()
  const outcome = await change(ctx.db, selfScope(user, ctx.requestId), async (tx, audit) => {
    const result = await consumeSecondFactor(tx, user.id, code, ctx.now, { pending: true })
    if (!result.ok) return result
    await tx.updateTable('user_two_factor').set({ enabled_at: ctx.now }).where('user_id', '=', user.id).execute()
    await tx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', user.id).execute()
    await tx
      .insertInto('two_factor_recovery_codes')
      .values(codes.map((c) => ({ user_id: user.id, code_hash: hashRecoveryCode(c), created_at: ctx.now })))
      .execute()
    await audit.record({ area: 'users', entityType: 'user', entityId: user.id, accountId: user.account_id, action: 'two_factor_enabled', after: { two_factor: true } })
    await recordAuthEvent(tx, ctx.client, { kind: 'two_factor', outcome: 'success', reason: 'enabled', user }, ctx.now)
    return result
  })
  if (!outcome.ok) {
    await recordFailure(ctx.db, rules, ctx.now)
    return refuse(ctx, { kind: 'two_factor', user, reason: outcome.reason }, codeError(outcome.reason))
  }
  return { recovery_codes: codes }
}

/** Turns the second factor off; needs a fresh code (or a recovery code). */
export async function disableTwoFactor(ctx: AuthContext, userId: string, code: string) {
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
  if (!(await hasTwoFactor(ctx.db, user.id))) throw conflict('Two-factor sign-in is not on')
  const rules = throttleRules.twoFactor(user.id, ctx.client.ip)
  await throttled(ctx, rules, { kind: 'two_factor', user })
  const outcome = await change(ctx.db, selfScope(user, ctx.requestId), async (tx, audit) => {
    const result = await consumeSecondFactor(tx, user.id, code, ctx.now, { allowRecovery: true })
    if (!result.ok) return result
    await tx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', user.id).execute()
    await tx.deleteFrom('user_two_factor').where('user_id', '=', user.id).execute()
    await audit.record({ area: 'users', entityType: 'user', entityId: user.id, accountId: user.account_id, action: 'two_factor_disabled', before: { two_factor: true }, after: { two_factor: false } })
    await recordAuthEvent(tx, ctx.client, { kind: 'two_factor', outcome: 'success', reason: 'disabled', user }, ctx.now)
    return result
  })
  if (!outcome.ok) {
    await recordFailure(ctx.db, rules, ctx.now)
    return refuse(ctx, { kind: 'two_factor', user, reason: outcome.reason }, codeError(outcome.reason))
  }
}

export const SUPPORTED_LANGUAGES = ['en', 'ar', 'ca', 'cs', 'de', 'es', 'fi', 'fr', 'hu', 'id', 'it', 'ja', 'ko', 'nb', 'nl', 'pl', 'pt-BR', 'ru', 'sk', 'sv', 'th', 'zh', 'zh-TW'] as const

/** The user's own preferences: language and theme. */
export async function updateProfile(ctx: AuthContext, userId: string, patch: { language?: string; dark_theme?: boolean }) {
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow()
  return change(ctx.db, selfScope(user, ctx.requestId), async (tx, audit) => {
    const updated = await tx
      .updateTable('users')
      .set({ ...patch, updated_at: ctx.now, version: user.version + 1 })
      .where('id', '=', user.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'users', entityType: 'user', entityId: user.id, accountId: user.account_id, action: 'update_profile', before: publicUser(user), after: publicUser(updated) })
    return publicUser(updated)
  })
}
