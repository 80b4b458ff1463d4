import { toUnicodeName } from '#common/domain-name.ts'
import { RegistryConnectionError, RegistryError, RegistryThrottled, type DomainContact, type DomainInfo, type RegistryConnection, type TransferResult } from '#server/integrations/registry/index.ts'
import { AppError } from '#server/platform/core/errors.ts'
import { registryColumns } from '#server/platform/domains/lifecycle.ts'
import type { Tx } from '#server/platform/core/change.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

/*
 * The thin layer between orders and the registries. The domains core service (issue 6, other
 * helper) will own register/transfer/renew; until then orders call the RegistryConnection of
 * `deps.registries` here, so switching is a change of this file only.
 */

/** The connection serving a TLD, or a 422 naming the TLD when none is configured. */
export function registryFor(deps: Pick<PlatformDeps, 'registries'>, tld: string): RegistryConnection {
  const connection = deps.registries?.forTld(tld) ?? null
  if (!connection) {
    throw new AppError(422, 'no-registry', `No registry is connected for .${tld}`, { extra: { reason: 'no-registry', tld } })
  }
  return connection
}

/** The message of a registry refusal as people see it: its text plus the reason when given. */
export const registryMessage = (error: RegistryError) => (error.reason ? `${error.registryMessage}: ${error.reason}` : error.registryMessage)

/** Transient: the registry could not be reached or our rate limit held the call back; retry later. */
export const isTransient = (error: unknown) => error instanceof RegistryConnectionError || error instanceof RegistryThrottled

export async function registerAtRegistry(connection: RegistryConnection, input: { name: string; period: number; authCode: string; registrant?: string; contacts?: DomainContact[] }) {
  try {
    const created = await connection.createDomain({
      name: input.name,
      years: input.period,
      authInfo: input.authCode,
      ...(input.registrant ? { registrant: input.registrant } : {}),
      ...(input.contacts?.length ? { contacts: input.contacts } : {}),
    })
    return { expiresAt: created.expiresAt ?? null }
  } catch (error) {
    // A create whose answer was lost may have run: 2302 with our own auth code means it is ours.
    if (error instanceof RegistryError && error.code === 2302) {
      const info = await connection.infoDomain(input.name, { authInfo: input.authCode }).catch(() => null)
      if (info?.authInfo === input.authCode) return { expiresAt: info.expiresAt ?? null }
    }
    throw error
  }
}

export async function requestTransfer(connection: RegistryConnection, input: { name: string; period: number; authCode: string }): Promise<TransferResult> {
  return connection.transferDomain({ op: 'request', name: input.name, authInfo: input.authCode, years: input.period })
}

export async function queryTransfer(connection: RegistryConnection, input: { name: string; authCode: string }): Promise<TransferResult> {
  return connection.transferDomain({ op: 'query', name: input.name, authInfo: input.authCode })
}

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

/**
 * Records the outcome in the portfolio inside the item's transaction: a new domain for a
 * registration or transfer, a new expiry for a renewal. Returns the domain id.
 */
export async function recordDomain(
  tx: Tx,
  input: {
    accountId: string
    name: string
    tld: string
    expiresAt: Date | null
    type: 'register' | 'transfer' | 'renew'
    /** What the registry holds after a registration or transfer (statuses, name servers, DS, dates), when it could be read. */
    atRegistry?: { info: DomainInfo; registry: string; now: Date } | null
  },
): Promise<{ id: string; created: boolean; before: Record<string, unknown> | null }> {
  // Recorded as the registry holds it, so that the reconciliation finds no difference to report.
  const held = input.atRegistry ? { ...registryColumns(input.atRegistry.info, input.atRegistry.registry, input.atRegistry.now), registered_at: input.atRegistry.info.createdAt ?? null } : null
  const existing = await tx.selectFrom('domains').select(['id', 'account_id', 'status', 'expires_at', 'version']).where('name', '=', input.name).where('status', '<>', 'deleted').executeTakeFirst()
  if (existing && existing.account_id === input.accountId) {
    await tx
      .updateTable('domains')
      .set({ status: 'active', ...(input.expiresAt ? { expires_at: input.expiresAt } : {}), ...(held ?? {}), version: existing.version + 1, updated_at: new Date() })
      .where('id', '=', existing.id)
      .execute()
    return { id: existing.id, created: false, before: { status: existing.status, expires_at: existing.expires_at } }
  }
  if (existing) {
    // Held by another account in our records (e.g. transferred between two of our clients): the old record ends.
    await tx
      .updateTable('domains')
      .set({ status: 'deleted', version: existing.version + 1, updated_at: new Date() })
      .where('id', '=', existing.id)
      .execute()
  }
  const row = await tx
    .insertInto('domains')
    .values({ account_id: input.accountId, name: input.name, unicode_name: toUnicodeName(input.name), tld: input.tld, status: 'active', expires_at: input.expiresAt, ...(held ?? {}) })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { id: row.id, created: true, before: null }
}
