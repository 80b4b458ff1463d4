import { AppError } from '#server/platform/core/errors.ts'

/**
 * Rules on a domain that hold for every path that changes it (PATCH, bulk items, material change
 * requests and their approval), so that what the registry would refuse is refused here first,
 * with a code the portal translates, before anything is sent or mailed.
 */

/** 409 `domain.registry_locked`: the registry lock is on, so the registry refuses updates to the domain. */
export const registryLocked = (name: string) =>
  new AppError(
    409,
    'domain.registry_locked',
    `${name} has the registry lock on, so its nameservers and contacts cannot be changed. Turn the registry lock off first, make the change, then turn the lock back on.`,
    { extra: { domain: name } },
  )

/**
 * Refuses a nameserver or contact change on a registry-locked domain (the lock's
 * clientUpdateProhibited makes the registry refuse it), unless the same change turns the lock off.
 */
export function refuseWhileLocked(domain: { name: string; registry_lock: boolean }, wanted: { registry_lock?: boolean; touchesRegistryRecord: boolean }): void {
  if (domain.registry_lock && wanted.registry_lock !== false && wanted.touchesRegistryRecord) throw registryLocked(domain.name)
}
