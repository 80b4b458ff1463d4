import { toUnicodeName } from '#common/domain-name.ts'
import type { DomainInfo } from '#server/integrations/registry/index.ts'
import type { Tx } from '#server/platform/core/change.ts'
import type { DB } from '#server/db/schema.ts'
import type { Kysely } from 'kysely'
import { registryColumns } from './lifecycle.ts'
import { liveDomainNamed } from './reads.ts'

/**
 * The changes other areas make to the domains area's tables (decision 024), each inside the
 * caller's transaction when it passes one: the SQL stays here, beside the reads.
 */

/**
 * Records a registration's, transfer's or renewal's outcome in the portfolio inside the order
 * item's transaction: a new domain for a registration or transfer, a new expiry for a renewal.
 * Returns the domain id.
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
  const existing = await liveDomainNamed(tx, input.name).select(['id', 'account_id', 'status', 'expires_at', 'version']).executeTakeFirst()
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

/** Marks a domain signed or not once its zone's DNSSEC has changed (the DNS area's signing job); no domain is nothing. */
export async function setDomainDnssec(db: Kysely<DB>, domainId: string | null, signed: boolean): Promise<void> {
  if (domainId === null) return
  await db.updateTable('domains').set({ dnssec: signed }).where('id', '=', domainId).execute()
}

/** Marks domains of an account material or not; returns the ids that changed (each is audited by the caller). */
export async function markMaterial(tx: Tx, accountId: string, ids: string[], isMaterial: boolean): Promise<string[]> {
  const rows = await tx
    .updateTable('domains')
    .set({ is_material: isMaterial, updated_at: new Date() })
    .where('id', 'in', ids)
    .where('account_id', '=', accountId)
    .where('is_material', '<>', isMaterial)
    .returning(['id'])
    .execute()
  return rows.map((row) => row.id)
}
