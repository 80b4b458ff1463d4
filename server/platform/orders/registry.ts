import { toUnicodeName } from '#common/domain-name.ts'
import type { DomainInfo } from '#server/integrations/registry/index.ts'
import { registryColumns } from '#server/platform/domains/lifecycle.ts'
import type { Tx } from '#server/platform/core/change.ts'

/*
 * An order item's outcome in the portfolio. Its way to the registry is the domains area's one
 * registration path (domains/registration.ts, decision 026), on the connection of
 * registries/connection.ts.
 */

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
