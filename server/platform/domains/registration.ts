import { RegistryConnectionError, RegistryError, RegistryThrottled, type DomainContact, type RegistryConnection, type TransferResult } from '#server/integrations/registry/index.ts'
import { createOnce } from './idempotent.ts'

/*
 * The one path by which a domain is registered, transferred in or renewed at its registry
 * (decision 026): an order item's job and the domain lifecycle both call these, on the connection
 * `registryFor` (registries/connection.ts) gives for the TLD.
 */

/** The message of a registry refusal as people see it: its text plus the reason when given. */
export const registryMessage = (error: RegistryError) => (error.reason ? `${error.registryMessage}: ${error.reason}` : error.registryMessage)

/** Transient: the registry could not be reached or our rate limit held the call back; retry later. */
export const isTransient = (error: unknown) => error instanceof RegistryConnectionError || error instanceof RegistryThrottled

/**
 * Registers a domain, once (decision 102): `authCode` is chosen by the caller and kept for a retry,
 * so a create whose answer was lost (no answer, or "exists" on the retry) is recognised as ours
 * when the registry shows the domain with that code, and is not made twice nor refused.
 */
export async function registerAtRegistry(
  connection: RegistryConnection,
  input: { name: string; period: number; authCode: string; registrant?: string; contacts?: DomainContact[]; nameservers?: string[] },
): Promise<{ createdAt: Date; expiresAt: Date | null; repeated: boolean }> {
  const created = await createOnce(connection, {
    name: input.name,
    years: input.period,
    authInfo: input.authCode,
    ...(input.registrant ? { registrant: input.registrant } : {}),
    ...(input.contacts?.length ? { contacts: input.contacts } : {}),
    ...(input.nameservers?.length ? { nameservers: input.nameservers } : {}),
  })
  return { createdAt: created.createdAt, expiresAt: created.expiresAt ?? null, repeated: created.repeated }
}

/** Asks the registry to transfer a domain to us with its auth code (and, when given, a renewal period). */
export async function requestTransfer(connection: RegistryConnection, input: { name: string; period?: number; authCode: string }): Promise<TransferResult> {
  return connection.transferDomain({ op: 'request', name: input.name, authInfo: input.authCode, ...(input.period !== undefined ? { years: input.period } : {}) })
}

/** Where a requested transfer stands at the registry. */
export async function queryTransfer(connection: RegistryConnection, input: { name: string; authCode: string }): Promise<TransferResult> {
  return connection.transferDomain({ op: 'query', name: input.name, authInfo: input.authCode })
}

/** Renews a domain from the expiry the registry holds now. */
export async function renewAtRegistry(connection: RegistryConnection, input: { name: string; period: number }) {
  const info = await connection.infoDomain(input.name)
  if (!info.expiresAt) throw new RegistryError(2400, 'Command failed', { reason: 'The registry gave no expiry date to renew from' })
  const renewed = await connection.renewDomain({ name: input.name, currentExpiry: info.expiresAt, years: input.period })
  return { expiresAt: renewed.expiresAt ?? null }
}

/** Expiry from the registry after a completed transfer (the transfer answer may omit it). */
export async function expiryAfterTransfer(connection: RegistryConnection, name: string, result: TransferResult): Promise<Date | null> {
  if (result.expiresAt) return result.expiresAt
  const info = await connection.infoDomain(name).catch(() => null)
  return info?.expiresAt ?? null
}
