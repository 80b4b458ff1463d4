/**
 * The directory's helpers became every area's and moved to core/: the coded errors beside AppError
 * (errors.ts), the permission check and the reach of a scope (scope.ts). Re-exported here until no
 * area imports them from this file.
 */

/** The coded errors every area uses live with AppError (core/errors.ts); kept here for the areas that import them from here. */
export { fieldError, invalid, refused, type CodedFieldError } from '#server/platform/core/errors.ts'

/** 409 when the row changed since the client read it: the one refusal of decision 006. */
export { staleVersion } from '#server/platform/core/errors.ts'

/** 403 unless the actor holds the permission: the one check, in core/scope.ts. */
export { requirePermission } from '#server/platform/core/scope.ts'

/** The accounts a scope reaches: core/scope.ts. */
export { reachOf } from '#server/platform/core/scope.ts'
