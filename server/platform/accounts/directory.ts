import { AppError, type FieldError } from '#server/platform/core/errors.ts'
import { isStaff, type Scope } from '#server/platform/core/scope.ts'

/**
 * Shared rules of the directory areas (accounts, users, contacts, TLDs): stable error codes the
 * portal localises, the permission check and the reach of a scope.
 */

/** A field error with a stable code (e.g. `phone.invalid`) beside its English message. */
export type CodedFieldError = FieldError & { code: string }

export const fieldError = (field: string, code: string, message: string, allowed?: string[]): CodedFieldError =>
  allowed ? { field, code, message, allowed } : { field, code, message }

/** 400 with per-field errors; the problem's own code names the first rule broken. */
export const invalid = (code: string, message: string, errors: CodedFieldError[]) => new AppError(400, code, message, { errors })

/** 409 for a rule on stored state (in use, last admin, duplicate). */
export const refused = (code: string, message: string, errors?: CodedFieldError[], extra?: Record<string, unknown>) =>
  new AppError(409, code, message, { ...(errors ? { errors } : {}), ...(extra ? { extra } : {}) })

/** 409 when the row changed since the client read it: the one refusal of decision 006. */
export { staleVersion } from '#server/platform/core/errors.ts'

/** 403 unless the actor holds the permission: the one check, in core/scope.ts. */
export { requirePermission } from '#server/platform/core/scope.ts'

/**
 * The account a scope reaches, or null for every account: staff acting in their own group work
 * across all accounts (spec §6); anyone in a client context reaches that account only.
 */
export function reachOf(scope: Scope): string | null {
  if (isStaff(scope.actor) && (scope.accountId === null || scope.accountId === scope.actor.homeAccountId)) return null
  return scope.accountId
}
