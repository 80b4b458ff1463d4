import { randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_MAX_CIDRS, API_TOKEN_MAX_DAYS, API_TOKEN_MAX_TAGS, DOMAIN_TAG_PATTERN, type ApiTokenView } from '#common/api-tokens.ts'
import { expandPermissions } from '#common/permissions.ts'
import type { DB, User } from '#server/db/schema.ts'
import type { ApiToken } from '#server/db/schema-api-tokens.ts'
import { hashToken } from '#server/platform/auth/tokens.ts'
import { change } from '#server/platform/core/change.ts'
import { AppError, type CodedFieldError, fieldError, invalid, notFound } from '#server/platform/core/errors.ts'
import { type Actor, isStaff, reachOf, requirePermission, type Scope } from '#server/platform/core/scope.ts'
import { ADMIN_ROLE, publicUser } from '#server/platform/users/service.ts'
import { hintOf, newApiTokenSecret, parseCidr } from './format.ts'
import { accountById } from '#server/platform/accounts/reads.ts'

const DAY_MS = 24 * 60 * 60 * 1000

export type NewApiToken = {
  name: string
  permissions: string[]
  account_id?: string | null
  domain_tags?: string[]
  cidrs?: string[]
  expires_in_days?: number
}

/** A token is never made with a token: the secret that makes tokens is a person's session. */
function requireSession(actor: Actor): void {
  if (actor.token) throw new AppError(403, 'token.not_allowed', 'API tokens cannot be managed with an API token; sign in')
}

function view(token: ApiToken, use?: { used_at: Date; address: string } | null): ApiTokenView {
  return {
    id: token.id,
    number: Number(token.number),
    name: token.name,
    hint: token.hint,
    user_id: token.user_id,
    permissions: token.permissions,
    account_id: token.account_id,
    domain_tags: token.domain_tags,
    cidrs: token.cidrs,
    expires_at: new Date(token.expires_at).toISOString(),
    revoked_at: token.revoked_at?.toISOString() ?? null,
    created_at: new Date(token.created_at).toISOString(),
    created_by: token.created_by,
    last_used_at: use?.used_at ? new Date(use.used_at).toISOString() : null,
    last_used_address: use?.address ?? null,
  }
}

/** A user's tokens, newest first, with their last use. */
export async function listTokensOf(db: Kysely<DB>, userId: string): Promise<ApiTokenView[]> {
  const rows = await db
    .selectFrom('api_tokens as t')
    .leftJoin('api_token_uses as u', 'u.token_id', 't.id')
    .selectAll('t')
    .select(['u.used_at', 'u.address'])
    .where('t.user_id', '=', userId)
    .orderBy('t.number', 'desc')
    .execute()
  return rows.map((row) => view(row, row.used_at ? { used_at: row.used_at, address: row.address ?? '' } : null))
}

/**
 * Makes a token for `owner`, by `scope.actor` (the owner, or an account admin for a service user).
 * It may hold only what the creator holds and the owner holds (never more); it reaches one
 * account at most, the domains carrying its tags when it names any, from the address ranges it
 * names; it lives at most a year. Answers the secret once: only its hash is stored.
 */
export async function createToken(db: Kysely<DB>, scope: Scope, owner: User, input: NewApiToken, now: Date): Promise<{ token: ApiTokenView; secret: string }> {
  requireSession(scope.actor)
  const errors: CodedFieldError[] = []
  const name = input.name.trim()
  if (!name) errors.push(fieldError('name', 'token.name_required', 'Give the token a name'))
  const creatorHolds = expandPermissions(scope.actor.roles, scope.actor.abilities)
  const ownerHolds = expandPermissions(owner.roles, owner.abilities)
  const permissions = [...new Set(input.permissions)]
  const accountId = input.account_id?.toLowerCase() || null
  if (!permissions.length) errors.push(fieldError('permissions', 'token.permissions_required', 'Choose at least one permission'))
  permissions.forEach((p, i) => {
    if (!(creatorHolds.has(p) || creatorHolds.has('staff')) || !(ownerHolds.has(p) || ownerHolds.has('staff')))
      errors.push(fieldError(`permissions.${i}`, 'token.permission_not_held', `'${p}' is not a permission you can give this token`))
    // A token bound to an account acts as a member of it: staff (every account) would not be bound.
    else if (p === 'staff' && accountId) errors.push(fieldError(`permissions.${i}`, 'token.staff_bound', 'A token bound to an account cannot hold staff'))
  })
  const tags = [...new Set((input.domain_tags ?? []).map((t) => t.trim().toLowerCase()).filter(Boolean))]
  if (tags.length > API_TOKEN_MAX_TAGS) errors.push(fieldError('domain_tags', 'token.too_many', `At most ${API_TOKEN_MAX_TAGS} tags`))
  tags.forEach((t, i) => {
    if (!DOMAIN_TAG_PATTERN.test(t)) errors.push(fieldError(`domain_tags.${i}`, 'token.tag_invalid', `'${t}' is not a tag (letters, digits, . - _)`))
  })
  const cidrs: string[] = []
  for (const [i, text] of (input.cidrs ?? [])
    .map((c) => c.trim())
    .filter(Boolean)
    .entries()) {
    const cidr = parseCidr(text)
    if (cidr) cidrs.push(cidr)
    else errors.push(fieldError(`cidrs.${i}`, 'token.cidr_invalid', `'${text}' is not an address range such as 203.0.113.0/24`))
  }
  if (cidrs.length > API_TOKEN_MAX_CIDRS) errors.push(fieldError('cidrs', 'token.too_many', `At most ${API_TOKEN_MAX_CIDRS} ranges`))
  const days = input.expires_in_days ?? API_TOKEN_DEFAULT_DAYS
  if (!Number.isInteger(days) || days < 1 || days > API_TOKEN_MAX_DAYS) errors.push(fieldError('expires_in_days', 'token.expiry_invalid', `The expiry is 1 to ${API_TOKEN_MAX_DAYS} days`))
  if (accountId) {
    // The owner must reach the account: their own, or any for staff.
    const ownerIsStaff = ownerHolds.has('staff')
    const exists = await accountById(db, accountId).select('id').executeTakeFirst()
    if (!exists || (accountId !== owner.account_id && !ownerIsStaff) || (accountId !== scope.actor.homeAccountId && !isStaff(scope.actor))) {
      errors.push(fieldError('account_id', 'token.account_invalid', 'The token cannot be bound to this account'))
    }
  }
  if (errors.length) throw invalid(errors[0]!.code, 'The API token is not valid', errors)

  const secret = newApiTokenSecret()
  return change(db, scope, async (tx, audit) => {
    const token = await tx
      .insertInto('api_tokens')
      .values({
        user_id: owner.id,
        created_by: scope.actor.userId,
        name,
        token_hash: hashToken(secret),
        hint: hintOf(secret),
        permissions,
        account_id: accountId,
        domain_tags: tags,
        cidrs,
        expires_at: new Date(now.getTime() + days * DAY_MS),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    const shown = view(token)
    await audit.record({ area: 'users', entityType: 'api_token', entityId: token.id, accountId: owner.account_id, action: 'create', after: { ...shown, user: owner.email } })
    return { token: shown, secret }
  })
}

/** Revokes one of a user's tokens; a revoked token is refused by the next request (decision 011). */
export async function revokeToken(db: Kysely<DB>, scope: Scope, owner: User, tokenId: string, now: Date): Promise<ApiTokenView> {
  requireSession(scope.actor)
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('api_tokens').selectAll().where('id', '=', tokenId).where('user_id', '=', owner.id).forUpdate().executeTakeFirst()
    if (!before) throw notFound('API token not found')
    if (before.revoked_at) return view(before)
    const after = await tx.updateTable('api_tokens').set({ revoked_at: now }).where('id', '=', tokenId).returningAll().executeTakeFirstOrThrow()
    await audit.record({ area: 'users', entityType: 'api_token', entityId: tokenId, accountId: owner.account_id, action: 'revoke', before: view(before), after: view(after) })
    return view(after)
  })
}

/** The signed-in user, for their own tokens. */
export async function selfOf(db: Kysely<DB>, actor: Actor): Promise<User> {
  requireSession(actor)
  const user = await db.selectFrom('users').selectAll().where('id', '=', actor.userId!).executeTakeFirst()
  if (!user) throw notFound('User not found')
  return user
}

/**
 * A service user the scope's admin manages tokens for: in the scope's reach, a service user, and
 * the actor an account admin. Anything else is 404 (a person's tokens are their own).
 */
export async function serviceUserOf(db: Kysely<DB>, scope: Scope, id: string): Promise<User> {
  requireSession(scope.actor)
  let query = db.selectFrom('users').selectAll().where('id', '=', id).where('kind', '=', 'service')
  const reach = reachOf(scope)
  if (reach !== null) query = query.where('account_id', '=', reach)
  const user = await query.executeTakeFirst()
  if (!user) throw notFound('Service user not found')
  requirePermission(scope.actor, ADMIN_ROLE)
  return user
}

/**
 * A service user in the scope's account: it never signs in (no password, no invitation) and holds
 * only what the admin holds. Its address is made up (`…@service.invalid`, a name that cannot be mailed).
 */
export async function createServiceUser(db: Kysely<DB>, scope: Scope, input: { name: string; roles: string[]; abilities?: string[] }) {
  requireSession(scope.actor)
  if (!scope.accountId) throw notFound('Account not found')
  requirePermission(scope.actor, ADMIN_ROLE)
  const holds = expandPermissions(scope.actor.roles, scope.actor.abilities)
  const errors: CodedFieldError[] = []
  const name = input.name.trim()
  if (!name) errors.push(fieldError('name', 'token.name_required', 'Give the service user a name'))
  for (const key of ['roles', 'abilities'] as const) {
    ;(input[key] ?? []).forEach((p, i) => {
      if (!holds.has(p) && !holds.has('staff')) errors.push(fieldError(`${key}.${i}`, 'token.permission_not_held', `'${p}' is not a permission you hold`))
    })
  }
  if (errors.length) throw invalid(errors[0]!.code, 'The service user is not valid', errors)
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'service'
  const email = `${slug}.${randomBytes(4).toString('hex')}@service.invalid`
  const accountId = scope.accountId
  return change(db, scope, async (tx, audit) => {
    const user = await tx
      .insertInto('users')
      .values({ account_id: accountId, email, name, password_hash: null, roles: input.roles, abilities: input.abilities ?? [], kind: 'service' })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'users', entityType: 'user', entityId: user.id, accountId, action: 'create-service-user', after: publicUser(user) })
    return user
  })
}
