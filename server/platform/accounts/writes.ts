import type { Tx } from '#server/platform/core/change.ts'

/**
 * The changes other areas make to the accounts table (decision 024): the columns they added and
 * keep, each inside the caller's transaction (which audits it as its own change).
 */

/** Sets the billing entity paying for an account (null: none). */
export async function setAccountBillingEntity(tx: Tx, accountId: string, billingEntityId: string | null): Promise<void> {
  await tx.updateTable('accounts').set({ billing_entity_id: billingEntityId }).where('id', '=', accountId).execute()
}

/** Sets the price list of an account (null: the default one). */
export async function setAccountPricingEntity(tx: Tx, accountId: string, pricingEntityId: string | null): Promise<void> {
  await tx.updateTable('accounts').set({ pricing_entity_id: pricingEntityId }).where('id', '=', accountId).execute()
}
