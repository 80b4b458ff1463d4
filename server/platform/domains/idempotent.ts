import { RegistryConnectionError, RegistryError, type DomainCreateInput, type DomainDeleteResult, type DomainInfo, type RegistryConnection } from '#server/integrations/registry/index.ts'
import { conflict } from '#server/platform/core/errors.ts'

/**
 * Registry writes that are safe to repeat (decision 102). A write whose answer never came (the
 * connection broke, the process died) may or may not have run at the registry, and a retry must
 * not do it twice nor report a refusal for work that was done. So before repeating, and when the
 * registry refuses or does not answer, these read back what the registry holds and decide from
 * that: a renewal whose expiry already moved by the period is done, a create whose domain carries
 * our auth code is ours, a delete whose domain is gone or in redemption happened.
 */

/** The calendar day (UTC) of an instant: what EPP's curExpDate compares (RFC 5731 §3.2.3). */
export const dayOf = (date: Date | null | undefined): string | null => (date ? date.toISOString().slice(0, 10) : null)

export function addYears(date: Date, years: number): Date {
  const next = new Date(date)
  next.setUTCFullYear(next.getUTCFullYear() + years)
  return next
}

/** A connection failure or a refusal: the cases where reading back can tell what happened. */
const readBackCase = (error: unknown) => error instanceof RegistryError || error instanceof RegistryConnectionError

/**
 * Renews `years` from the expiry `from`, once. `held`: what the registry holds, read before a
 * repeat; its expiry at `from` + years means the renewal is done (nothing is sent), at `from`
 * means it is still to do, anything else is a conflict (someone else moved it; nothing is sent
 * and the reconciliation shows the difference). Without `held` the renewal is sent; when it is
 * refused (a repeat is: its curExpDate no longer matches) or unanswered, the registry's expiry
 * decides again. `repeated`: the registry had it done before this call.
 */
export async function renewOnce(registry: RegistryConnection, input: { name: string; from: Date; years: number; held?: DomainInfo | null }): Promise<{ expiresAt: Date; repeated: boolean }> {
  const target = addYears(input.from, input.years)
  if (input.held) {
    const at = input.held.expiresAt
    if (at && dayOf(at) === dayOf(target)) return { expiresAt: at, repeated: true }
    if (dayOf(at) !== dayOf(input.from)) {
      throw conflict(
        `The registry holds ${dayOf(at) ?? 'no date'} as the expiry of ${input.name}, neither ${dayOf(input.from)} (before this renewal) nor ${dayOf(target)} (after it): not renewed again`,
        { registry_expires_at: at?.toISOString() ?? null },
      )
    }
  }
  try {
    const renewed = await registry.renewDomain({ name: input.name, currentExpiry: input.from, years: input.years })
    return { expiresAt: renewed.expiresAt ?? target, repeated: false }
  } catch (error) {
    if (!readBackCase(error)) throw error
    const held = await registry.infoDomain(input.name).catch(() => null)
    if (held?.expiresAt && dayOf(held.expiresAt) === dayOf(target)) return { expiresAt: held.expiresAt, repeated: true }
    throw error
  }
}

/**
 * Creates a domain, once: when the registry answers "exists" or does not answer, the domain is
 * ours from this very create if the registry shows it with the auth code we just chose (nobody
 * else knows it).
 */
export async function createOnce(registry: RegistryConnection, input: DomainCreateInput): Promise<{ createdAt: Date; expiresAt?: Date; repeated: boolean }> {
  try {
    const created = await registry.createDomain(input)
    return { createdAt: created.createdAt, ...(created.expiresAt ? { expiresAt: created.expiresAt } : {}), repeated: false }
  } catch (error) {
    if (!(error instanceof RegistryConnectionError || (error instanceof RegistryError && error.code === 2302))) throw error
    const held = await registry.infoDomain(input.name, { authInfo: input.authInfo }).catch(() => null)
    if (held && held.authInfo === input.authInfo) return { createdAt: held.createdAt ?? new Date(), ...(held.expiresAt ? { expiresAt: held.expiresAt } : {}), repeated: true }
    throw error
  }
}

/**
 * Deletes a domain, once: "does not exist" means it is gone already; a refusal or no answer
 * while the registry shows it in redemption or pending delete means an earlier delete ran.
 */
export async function deleteOnce(registry: RegistryConnection, name: string): Promise<DomainDeleteResult & { repeated: boolean }> {
  try {
    return { ...(await registry.deleteDomain(name)), repeated: false }
  } catch (error) {
    if (error instanceof RegistryError && error.code === 2303) return { immediate: true, refunded: false, message: error.registryMessage, repeated: true }
    if (!readBackCase(error)) throw error
    let held: DomainInfo
    try {
      held = await registry.infoDomain(name)
    } catch (readError) {
      if (readError instanceof RegistryError && readError.code === 2303) return { immediate: true, refunded: false, message: readError.registryMessage, repeated: true }
      throw error
    }
    if (held.rgpStatuses.includes('redemptionPeriod') || held.rgpStatuses.includes('pendingDelete') || held.statuses.includes('pendingDelete')) {
      return { immediate: false, refunded: false, message: 'Deleted already: the registry holds the domain for redemption', repeated: true }
    }
    throw error
  }
}

/** Restores a domain in redemption, once: refused or unanswered while it is no longer in redemption means it was restored. */
export async function restoreOnce(registry: RegistryConnection, name: string): Promise<{ repeated: boolean }> {
  try {
    await registry.restoreDomain(name)
    return { repeated: false }
  } catch (error) {
    if (!readBackCase(error)) throw error
    const held = await registry.infoDomain(name).catch(() => null)
    // In redemption a domain is pendingDelete with rgp redemptionPeriod; restored, it is neither.
    const deleting = !held || held.statuses.includes('pendingDelete') || held.rgpStatuses.some((s) => s === 'redemptionPeriod' || s === 'pendingDelete')
    if (!deleting) return { repeated: true }
    throw error
  }
}
