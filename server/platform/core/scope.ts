import { expandPermissions, type Permission } from '#common/permissions.ts'
import { AppError } from './errors.ts'

/** Who is acting. System work (seed, jobs) acts without a user. */
export type Actor = {
  userId: string | null
  label: string
  /** The account the user belongs to (their own group). */
  homeAccountId: string | null
  roles: string[]
  abilities: string[]
  /** Set when the request came with an API token: the token and what it restricts (issue 20). */
  token?: { id: string; number: number; accountId: string | null; domainTags: string[] }
}

/** One request's view of the world: the actor, the account it acts in, and the request id. */
export type Scope = {
  actor: Actor
  /** The account (context) the request acts in. */
  accountId: string | null
  requestId: string | null
}

export const systemActor = (label = 'system'): Actor => ({
  userId: null,
  label,
  homeAccountId: null,
  roles: ['staff'],
  abilities: [],
})

export const systemScope = (label = 'system', accountId: string | null = null): Scope => ({
  actor: systemActor(label),
  accountId,
  requestId: null,
})

/**
 * Staff may act in any account; everyone else only in their own. An API token bound to an account
 * is never staff, whatever it holds: its reach is that account (decision 021).
 */
export function isStaff(actor: Actor): boolean {
  return !actor.token?.accountId && expandPermissions(actor.roles, actor.abilities).has('staff')
}

/** True when the actor holds the permission (roles and abilities expanded). */
export function can(actor: Actor, permission: Permission): boolean {
  const granted = expandPermissions(actor.roles, actor.abilities)
  return granted.has(permission) || granted.has('staff')
}

/** 403 unless the actor holds the permission (the route's declared access checks it first; a rule may again). */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (!can(actor, permission)) throw new AppError(403, 'forbidden', `This needs the ${permission} permission`, { extra: { permission } })
}

/**
 * The account a scope reaches, or null for every account: staff acting in their own group work
 * across all accounts (spec §6); anyone in a client context reaches that account only.
 */
export function reachOf(scope: Scope): string | null {
  if (isStaff(scope.actor) && (scope.accountId === null || scope.accountId === scope.actor.homeAccountId)) return null
  return scope.accountId
}
