import { createHash, randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { expandAbilities, expandPermissions, expandRoles, KNOWN_ABILITIES, KNOWN_ROLES, onlyStaffGrants } from '#common/permissions.ts'
import type { DB, User } from '#server/db/schema.ts'
import { LANGUAGES } from '#server/platform/accounts/service.ts'
import { hashPassword } from '#server/platform/auth/passwords.ts'
import { assertPasswordPolicy } from '#server/platform/auth/password-policy.ts'
import { auditWriter, change, type Tx } from '#server/platform/core/change.ts'
import { AppError, type CodedFieldError, fieldError, invalid, notFound, refused, staleVersion } from '#server/platform/core/errors.ts'
import { isStaff, reachOf, requirePermission, type Scope } from '#server/platform/core/scope.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { USERS_LIST } from '#common/lists/directory.ts'
import { accountById, joinAccounts } from '#server/platform/accounts/reads.ts'

export type CreateUserInput = {
  account_id: string
  email: string
  name?: string
  password?: string
  roles?: string[]
  abilities?: string[]
  language?: string
}

/** The role that manages an account's users; an account always keeps one active holder. */
export const ADMIN_ROLE = 'user-admin'
/** An invitation link is good for a week. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PERMISSION_NAME = /^[a-z][a-z0-9_-]{0,63}$/

/** Public shape of a user: never the password hash or second-factor secrets. */
export function publicUser(user: User) {
  return {
    id: user.id,
    group_id: user.account_id,
    email: user.email,
    name: user.name,
    roles: user.roles,
    abilities: user.abilities,
    language: user.language,
    dark_theme: user.dark_theme,
    status: user.status,
    kind: user.kind,
    last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
    created_at: user.created_at.toISOString(),
  }
}

// The second factor lives in the sign-in area's table; "on" means an enrolment confirmed by a code.
const TWO_FACTOR_ON = `EXISTS (SELECT 1 FROM user_two_factor tf WHERE tf.user_id = u.id AND tf.enabled_at IS NOT NULL)`

/** A user's status as the list shows it: an active person who never set a password is a pending invitation. */
const USER_STATUS = `(CASE WHEN u.status = 'active' AND u.password_hash IS NULL AND u.kind = 'person' THEN 'invited' ELSE u.status END)`

/** Users as a list resource; a client scope adds the account column, staff in their group see all. */
export const usersResource = listResource(USERS_LIST, {
  from: `users u ${joinAccounts('a', 'u.account_id')}`,
  tiebreak: 'u.id',
  columns: {
    id: 'u.id',
    group_id: 'u.account_id',
    'account.name': 'a.name',
    email: 'u.email',
    name: 'u.name',
    roles: 'u.roles',
    abilities: 'u.abilities',
    language: 'u.language',
    status: USER_STATUS,
    two_factor: TWO_FACTOR_ON,
    invited: '(u.password_hash IS NULL)',
    last_sign_in_at: 'u.last_sign_in_at',
    version: 'u.version',
    created_at: 'u.created_at',
    updated_at: 'u.updated_at',
  },
})

export const scopedUsersResource: ListResource = { ...usersResource, accountColumn: 'u.account_id' }

function normaliseEmail(email: string) {
  return email.trim().toLowerCase()
}

/**
 * Checks role and ability names; only staff may hand out staff and the registrar's own roles
 * (`grantedBy: 'staff'` in the registry, common/permissions.ts) — `held`, the names the user
 * already holds, stay (updateUser keeps them through anyone else's edit).
 */
function checkGrants(scope: Scope, input: { roles?: string[]; abilities?: string[] }, held: readonly string[] = []): CodedFieldError[] {
  const errors: CodedFieldError[] = []
  for (const key of ['roles', 'abilities'] as const) {
    input[key]?.forEach((name, index) => {
      if (!PERMISSION_NAME.test(name)) errors.push(fieldError(`${key}.${index}`, 'permission.invalid', `'${name}' is not a valid ${key === 'roles' ? 'role' : 'ability'} name`))
      else if (onlyStaffGrants(name) && !held.includes(name) && !isStaff(scope.actor)) errors.push(fieldError(`${key}.${index}`, 'permission.not_grantable', `Only staff can grant ${name}`))
    })
  }
  return errors
}

const emailTaken = () => refused('user.email_taken', 'A user with this email already exists', [fieldError('email', 'user.email_taken', 'A user with this email already exists')])

/** Creates a user in an account; the email is unique across the platform. */
export async function createUser(db: Kysely<DB>, scope: Scope, input: CreateUserInput): Promise<User> {
  const email = normaliseEmail(input.email)
  if (!EMAIL.test(email)) throw invalid('email.invalid', 'The email address is not valid', [fieldError('email', 'email.invalid', 'Please enter a valid email')])
  const password_hash = input.password ? await hashPassword(input.password) : null
  return change(db, scope, async (tx, audit) => {
    const user = await insertUser(tx, { ...input, email }, password_hash)
    await audit.record({ area: 'users', entityType: 'user', entityId: user.id, accountId: user.account_id, action: 'create', after: publicUser(user) })
    return user
  })
}

async function insertUser(tx: Tx, input: CreateUserInput, password_hash: string | null): Promise<User> {
  const existing = await tx.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst()
  if (existing) throw emailTaken()
  return tx
    .insertInto('users')
    .values({
      account_id: input.account_id,
      email: input.email,
      name: input.name ?? '',
      password_hash,
      roles: input.roles ?? [],
      abilities: input.abilities ?? [],
      language: input.language ?? 'en',
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A user the scope reaches, or 404 (the same answer whether the id exists elsewhere or not). */
async function findUser(db: Pick<Kysely<DB>, 'selectFrom'>, scope: Scope, id: string, lock = false): Promise<User> {
  let query = db.selectFrom('users').selectAll().where('id', '=', id)
  const reach = reachOf(scope)
  if (reach !== null) query = query.where('account_id', '=', reach)
  const user = await (lock ? query.forUpdate() : query).executeTakeFirst()
  if (!user) throw notFound('User not found')
  return user
}

export type UserDetail = ReturnType<typeof publicUser> & {
  version: number
  updated_at: string
  account: { id: string; name: string }
  two_factor: boolean
  invited: boolean
  /** What each held role grants once expanded (an -admin role grants -manager and -viewer). */
  role_grants: Record<string, string[]>
  ability_grants: Record<string, string[]>
  permissions: string[]
}

/** One user with the expansion of their roles and abilities. */
export async function getUser(db: Kysely<DB>, scope: Scope, id: string): Promise<UserDetail> {
  const user = await findUser(db, scope, id)
  requirePermission(scope.actor, 'user-viewer')
  return userDetail(db, user)
}

async function userDetail(db: Pick<Kysely<DB>, 'selectFrom'>, user: User): Promise<UserDetail> {
  const account = await accountById(db, user.account_id).select(['id', 'name']).executeTakeFirstOrThrow()
  const twoFactor = await sql<{ on: boolean }>`SELECT ${sql.raw(TWO_FACTOR_ON)} AS on FROM users u WHERE u.id = ${user.id}`.execute(db as Kysely<DB>)
  return {
    ...publicUser(user),
    version: user.version,
    updated_at: user.updated_at.toISOString(),
    account,
    two_factor: Boolean(twoFactor.rows[0]?.on),
    invited: user.password_hash === null,
    role_grants: Object.fromEntries(user.roles.map((role) => [role, expandRoles([role]).filter((r) => r !== role)])),
    ability_grants: Object.fromEntries(user.abilities.map((a) => [a, expandAbilities([a]).filter((x) => x !== a)])),
    permissions: [...expandPermissions(user.roles, user.abilities)].sort(),
  }
}

/** What an invitation asks for; the account is the scope's. */
export type InviteInput = { email: string; name: string; roles: string[]; abilities?: string[]; language?: string }

/** Something that sends mail, if the deps have one; without it the link goes to the log. */
export type InviteMailer = (message: { to: string; subject: string; text: string }) => Promise<void>

/**
 * Invites a user into the scope's account: the user exists at once without a password, and an
 * invitation token (stored as a SHA-256) lets them set one. Returns the plain token for the mail.
 */
export async function inviteUser(db: Kysely<DB>, scope: Scope, input: InviteInput, now = new Date()): Promise<{ user: User; token: string }> {
  if (!scope.accountId) throw notFound('Account not found')
  requirePermission(scope.actor, ADMIN_ROLE)
  const email = normaliseEmail(input.email)
  const errors: CodedFieldError[] = []
  if (!EMAIL.test(email)) errors.push(fieldError('email', 'email.invalid', 'Please enter a valid email'))
  errors.push(...checkGrants(scope, input))
  // An invitation grants at least one role, each one a role or ability of the registry (a held name outside it stays editable).
  if (!input.roles.length) errors.push(fieldError('roles', 'user.roles_required', 'Choose at least one role'))
  input.roles.forEach((name, index) => {
    if (!KNOWN_ROLES.has(name) && !errors.some((e) => e.field === `roles.${index}`)) errors.push(fieldError(`roles.${index}`, 'user.role_unknown', `'${name}' is not a known role`))
  })
  input.abilities?.forEach((name, index) => {
    if (!KNOWN_ABILITIES.has(name) && !errors.some((e) => e.field === `abilities.${index}`)) errors.push(fieldError(`abilities.${index}`, 'user.ability_unknown', `'${name}' is not a known ability`))
  })
  if (errors.length) throw invalid(errors[0]!.code, 'The invitation is not valid', errors)
  const accountId = scope.accountId
  return change(db, scope, async (tx, audit) => {
    const user = await insertUser(tx, { account_id: accountId, email, name: input.name, roles: input.roles, abilities: input.abilities, language: input.language }, null)
    const token = randomBytes(32).toString('base64url')
    await tx
      .insertInto('user_invites')
      .values({ user_id: user.id, token_hash: hashInviteToken(token), expires_at: new Date(now.getTime() + INVITE_TTL_MS) })
      .execute()
    await audit.record({ area: 'users', entityType: 'user', entityId: user.id, accountId, action: 'invite', after: publicUser(user) })
    return { user, token }
  })
}

export const hashInviteToken = (token: string) => createHash('sha256').update(token).digest('base64url')

/** The invited user of a usable invitation token, or 404 (unknown, used or expired alike). */
export async function findInvite(db: Kysely<DB>, token: string, now = new Date()): Promise<{ email: string; name: string }> {
  const row = await db
    .selectFrom('user_invites as i')
    .innerJoin('users as u', 'u.id', 'i.user_id')
    .select(['u.email', 'u.name', 'i.used_at', 'i.expires_at', 'u.status'])
    .where('i.token_hash', '=', hashInviteToken(token))
    .executeTakeFirst()
  if (!row || row.used_at || row.expires_at <= now || row.status !== 'active') throw notFound('This invitation link is not valid any more')
  return { email: row.email, name: row.name }
}

/** Accepts an invitation: sets the password once; an unknown, used or expired token is a 404. */
export async function acceptInvite(db: Kysely<DB>, token: string, password: string, now = new Date()): Promise<User> {
  const invited = await findInvite(db, token, now)
  // The sign-in area's policy (length, not the email, not a common password), with its codes.
  assertPasswordPolicy(password, invited)
  const password_hash = await hashPassword(password)
  return db.transaction().execute(async (tx) => {
    const invite = await tx.selectFrom('user_invites').selectAll().where('token_hash', '=', hashInviteToken(token)).forUpdate().executeTakeFirst()
    if (!invite || invite.used_at || invite.expires_at <= now) throw notFound('This invitation link is not valid any more')
    await tx.updateTable('user_invites').set({ used_at: now }).where('id', '=', invite.id).execute()
    const user = await tx.updateTable('users').set({ password_hash, updated_at: now }).where('id', '=', invite.user_id).returningAll().executeTakeFirstOrThrow()
    const scope: Scope = { actor: { userId: user.id, label: user.email, homeAccountId: user.account_id, roles: user.roles, abilities: user.abilities }, accountId: user.account_id, requestId: null }
    await auditWriter(tx, scope).record({ area: 'users', entityType: 'user', entityId: user.id, action: 'accept-invite', after: { invited: false } })
    return user
  })
}

export type UserPatch = { name?: string; language?: string; roles?: string[]; abilities?: string[]; version: number }

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n')

/** Refuses a change that would leave the user's account without an active user-admin. */
async function keepAnAdmin(tx: Tx, before: User, after: { roles: string[]; status: string }) {
  const wasAdmin = before.status === 'active' && before.roles.includes(ADMIN_ROLE)
  const staysAdmin = after.status === 'active' && after.roles.includes(ADMIN_ROLE)
  if (!wasAdmin || staysAdmin) return
  // Lock the account's admins so two concurrent demotions cannot both pass the check.
  const others = await tx
    .selectFrom('users')
    .select('id')
    .where('account_id', '=', before.account_id)
    .where('id', '<>', before.id)
    .where('status', '=', 'active')
    .where(sql<boolean>`${ADMIN_ROLE} = ANY(roles)`)
    .forUpdate()
    .execute()
  if (others.length === 0) {
    throw refused('user.last_admin', 'This is the last active user-admin of the account; make someone else an admin first', [
      fieldError(after.status === 'active' ? 'roles' : 'status', 'user.last_admin', 'The account needs at least one active user-admin'),
    ])
  }
}

/** Edits a user's name, language, roles and abilities; nobody edits their own roles. */
export async function updateUser(db: Kysely<DB>, scope: Scope, id: string, patch: UserPatch): Promise<UserDetail> {
  const { version, ...fields } = patch
  return change(db, scope, async (tx, audit) => {
    const before = await findUser(tx, scope, id, true)
    // A role only staff grant is only staff's to take away: anyone else's edit keeps it held.
    if (fields.roles && !isStaff(scope.actor)) fields.roles = [...fields.roles, ...before.roles.filter((r) => onlyStaffGrants(r) && !fields.roles!.includes(r))]
    const editsGrants = (fields.roles !== undefined && !sameSet(fields.roles, before.roles)) || (fields.abilities !== undefined && !sameSet(fields.abilities, before.abilities))
    const self = scope.actor.userId === id
    // People edit their own name and language on /my-profile; roles are someone else's call.
    if (!(self && !editsGrants)) requirePermission(scope.actor, ADMIN_ROLE)
    if (self && editsGrants) {
      throw invalid('user.own_roles', 'You cannot change your own roles or abilities', [
        fieldError(fields.roles !== undefined ? 'roles' : 'abilities', 'user.own_roles', 'Ask another admin to change your roles'),
      ])
    }
    const errors = checkGrants(scope, fields, [...before.roles, ...before.abilities])
    if (fields.language !== undefined && !(LANGUAGES as readonly string[]).includes(fields.language))
      errors.push(fieldError('language', 'language.invalid', 'Not a supported language', [...LANGUAGES]))
    if (errors.length) throw invalid(errors[0]!.code, 'The user is not valid', errors)
    if (before.version !== version) throw staleVersion(before.version)
    const roles = fields.roles ? [...new Set(fields.roles)] : before.roles
    await keepAnAdmin(tx, before, { roles, status: before.status })
    const after = await tx
      .updateTable('users')
      .set({ ...fields, roles, ...(fields.abilities ? { abilities: [...new Set(fields.abilities)] } : {}), version: before.version + 1, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'users',
      entityType: 'user',
      entityId: id,
      accountId: after.account_id,
      action: editsGrants ? 'change-roles' : 'update',
      before: publicUser(before),
      after: publicUser(after),
    })
    return userDetail(tx, after)
  })
}

/** Disables or enables a user; disabling ends their sessions (a database trigger revokes tokens). */
export async function setUserStatus(db: Kysely<DB>, scope: Scope, id: string, status: 'active' | 'disabled'): Promise<UserDetail> {
  return change(db, scope, async (tx, audit) => {
    const before = await findUser(tx, scope, id, true)
    requirePermission(scope.actor, ADMIN_ROLE)
    if (scope.actor.userId === id) throw invalid('user.own_status', 'You cannot disable or enable yourself', [fieldError('status', 'user.own_status', 'Ask another admin')])
    if (before.status === status) return userDetail(tx, before)
    await keepAnAdmin(tx, before, { roles: before.roles, status })
    const after = await tx
      .updateTable('users')
      .set({ status, version: before.version + 1, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    if (status === 'disabled') await revokeSessions(tx, id)
    await audit.record({
      area: 'users',
      entityType: 'user',
      entityId: id,
      accountId: after.account_id,
      action: status === 'disabled' ? 'disable' : 'enable',
      before: { status: before.status },
      after: { status },
    })
    return userDetail(tx, after)
  })
}

async function revokeSessions(tx: Tx, userId: string): Promise<number> {
  const result = await tx.updateTable('auth_tokens').set({ revoked_at: new Date() }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst()
  return Number(result.numUpdatedRows ?? 0)
}

/** Ends every session of a user by revoking all their tokens. */
export async function endSessions(db: Kysely<DB>, scope: Scope, id: string): Promise<{ revoked: number }> {
  return change(db, scope, async (tx, audit) => {
    const user = await findUser(tx, scope, id)
    requirePermission(scope.actor, ADMIN_ROLE)
    const revoked = await revokeSessions(tx, id)
    await audit.record({ area: 'users', entityType: 'user', entityId: id, accountId: user.account_id, action: 'end-sessions', after: { revoked_tokens: revoked } })
    return { revoked }
  })
}

/**
 * Removes a user's second factor and recovery codes, so that they enrol again at next sign-in.
 * An API token never weakens its own user's sign-in (issue 26): their second factor goes with a
 * code of it, on their profile, in a session.
 */
export async function resetTwoFactor(db: Kysely<DB>, scope: Scope, id: string): Promise<UserDetail> {
  return change(db, scope, async (tx, audit) => {
    const user = await findUser(tx, scope, id, true)
    requirePermission(scope.actor, ADMIN_ROLE)
    if (scope.actor.token && scope.actor.userId === user.id) throw new AppError(403, 'token.not_allowed', 'An API token cannot reset its own user’s second factor; sign in')
    const removed = await sql`DELETE FROM user_two_factor WHERE user_id = ${id}`.execute(tx)
    await sql`DELETE FROM two_factor_recovery_codes WHERE user_id = ${id}`.execute(tx)
    await audit.record({
      area: 'users',
      entityType: 'user',
      entityId: id,
      accountId: user.account_id,
      action: 'reset-two-factor',
      after: { two_factor_removed: Number(removed.numAffectedRows ?? 0) > 0 },
    })
    return userDetail(tx, user)
  })
}
