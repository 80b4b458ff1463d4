import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { Actor } from '#server/platform/core/scope.ts'
import { expandAbilities, expandPermissions } from '#common/permissions.ts'
import { API_TOKEN_PREFIX } from '#common/api-tokens.ts'
import { isApiTokenSecret } from '#server/platform/api-tokens/format.ts'
import type { ApiTokenLimits, TokenCache, TokenRow } from './token-cache.ts'

export const ACCESS_TOKEN_TTL_MS = 60 * 60 * 1000
export const REFRESH_TOKEN_TTL_MS = 12 * 60 * 60 * 1000
export const TWO_FACTOR_TOKEN_TTL_MS = 5 * 60 * 1000

type Db = Pick<Kysely<DB>, 'insertInto' | 'selectFrom' | 'updateTable'>

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url')

/** Issues a token of a kind for a user and returns the plain value (stored only as a hash). */
export async function issueToken(
  db: Db,
  userId: string,
  kind: 'access' | 'refresh' | 'two_factor',
  options: { familyId?: string; now?: Date; ttlMs?: number } = {},
): Promise<{ token: string; id: string; familyId: string; expiresAt: Date }> {
  const token = newToken()
  const now = options.now ?? new Date()
  const familyId = options.familyId ?? randomUUID()
  const ttl = options.ttlMs ?? (kind === 'access' ? ACCESS_TOKEN_TTL_MS : kind === 'refresh' ? REFRESH_TOKEN_TTL_MS : TWO_FACTOR_TOKEN_TTL_MS)
  const expiresAt = new Date(now.getTime() + ttl)
  const row = await db
    .insertInto('auth_tokens')
    .values({ user_id: userId, kind, token_hash: hashToken(token), family_id: familyId, expires_at: expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { token, id: row.id, familyId, expiresAt }
}

/** Issues the access and refresh pair of one sign-in family. */
export async function issueTokenPair(db: Db, userId: string, familyId?: string, now?: Date) {
  const access = await issueToken(db, userId, 'access', { familyId, now })
  const refresh = await issueToken(db, userId, 'refresh', { familyId: access.familyId, now })
  return { access_token: access.token, refresh_token: refresh.token, familyId: access.familyId }
}

export type VerifiedToken = { tokenId: string; familyId: string; kind: 'access' | 'two_factor' | 'api'; actor: Actor; api?: ApiTokenLimits }

/**
 * Resolves a bearer token to its active user, or null when unknown, expired, revoked or disabled.
 * With a cache, a token seen before is judged from what was read then (see TokenCache).
 */
export async function verifyBearer(db: Db, token: string, now = new Date(), cache?: TokenCache): Promise<VerifiedToken | null> {
  const api = token.startsWith(API_TOKEN_PREFIX)
  // A look-alike (bad checksum) costs no statement.
  if (api && !isApiTokenSecret(token)) return null
  const hash = hashToken(token)
  let row: TokenRow | undefined = cache?.get(hash)
  if (!row) {
    const mark = cache?.mark() ?? 0
    row = api
      ? await lookUpApiToken(db, hash)
      : await db
          .selectFrom('auth_tokens as t')
          .innerJoin('users as u', 'u.id', 't.user_id')
          .select(['t.id', 't.kind', 't.family_id', 't.expires_at', 'u.id as user_id', 'u.email', 'u.account_id', 'u.roles', 'u.abilities', 'u.status'])
          .where('t.token_hash', '=', hash)
          .where('t.revoked_at', 'is', null)
          .executeTakeFirst()
    if (row) cache?.keep(hash, row, mark)
  }
  if (!row || row.kind === 'refresh' || row.status !== 'active' || row.expires_at <= now) return null
  const actor: Actor = { userId: row.user_id, label: row.email, homeAccountId: row.account_id, roles: row.roles, abilities: row.abilities }
  if (row.kind === 'api' && row.api) {
    // The token holds what it was given and its user still holds (staff holds every permission).
    // A binding binds whatever the permissions: a token bound to one account acts as a member of
    // it, so it never holds `staff` (which reaches every account and the registrar's own settings).
    const holds = expandPermissions(row.roles, row.abilities)
    const bound = row.api.account_id
    const kept = row.api.permissions.filter((p) => (holds.has(p) || holds.has('staff')) && !(bound && p === 'staff'))
    const abilities = new Set(expandAbilities(row.abilities))
    return {
      tokenId: row.id,
      familyId: row.family_id,
      kind: 'api',
      api: row.api,
      actor: {
        ...actor,
        label: `token ${row.api.number} of user ${row.email}`,
        // Staff's token bound to an account acts as a member of it, with the token's permissions.
        homeAccountId: bound && holds.has('staff') ? bound : row.account_id,
        roles: kept.filter((p) => !abilities.has(p)),
        abilities: kept.filter((p) => abilities.has(p)),
        token: { id: row.id, number: row.api.number, accountId: row.api.account_id, domainTags: row.api.domain_tags },
      },
    }
  }
  return { tokenId: row.id, familyId: row.family_id, kind: row.kind as 'access' | 'two_factor', actor }
}

/** An API token not revoked, as a TokenRow (its own id stands for the family). */
async function lookUpApiToken(db: Db, hash: string): Promise<TokenRow | undefined> {
  const row = await db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select([
      't.id',
      't.number',
      't.permissions',
      't.account_id as token_account_id',
      't.domain_tags',
      't.cidrs',
      't.expires_at',
      'u.id as user_id',
      'u.email',
      'u.account_id',
      'u.roles',
      'u.abilities',
      'u.status',
    ])
    .where('t.token_hash', '=', hash)
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    id: row.id,
    kind: 'api',
    family_id: row.id,
    expires_at: row.expires_at,
    user_id: row.user_id,
    email: row.email,
    account_id: row.account_id,
    roles: row.roles,
    abilities: row.abilities,
    status: row.status,
    api: { number: Number(row.number), permissions: row.permissions, account_id: row.token_account_id, domain_tags: row.domain_tags, cidrs: row.cidrs },
  }
}
