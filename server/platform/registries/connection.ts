import type { RegistryConnection } from '#server/integrations/registry/index.ts'
import { AppError } from '#server/platform/core/errors.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

/**
 * The registry connection serving a TLD (ASCII form, no dot), or a 422 `no-registry` naming the
 * TLD when none is configured: the one lookup orders, the domain lifecycle and the registration
 * path share (decision 026). Code that goes on without a registry reads `deps.registries?.forTld`.
 */
export function registryFor(deps: Pick<PlatformDeps, 'registries'>, tld: string): RegistryConnection {
  const connection = deps.registries?.forTld(tld) ?? null
  if (!connection) throw new AppError(422, 'no-registry', `No registry is connected for .${tld}`, { extra: { reason: 'no-registry', tld } })
  return connection
}
