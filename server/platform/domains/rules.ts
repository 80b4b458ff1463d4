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

/**
 * 409 `domain.subordinate_hosts`: the registry refused the delete (EPP 2305, RFC 5731 §3.2.2)
 * because host objects under the domain exist there, which other domains may use as name servers.
 */
export const subordinateHosts = (name: string, hosts: string[], cause?: unknown) =>
  new AppError(
    409,
    'domain.subordinate_hosts',
    `${name} cannot be deleted while the registry holds name servers under it${hosts.length ? ` (${hosts.join(', ')})` : ''}: delete them or rename them out of ${name} first. Nothing was deleted.`,
    { extra: { domain: name, hosts, registry_code: 2305 }, cause },
  )
