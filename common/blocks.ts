/**
 * Blocks (decision 302): a trademark label blocked across the TLDs of a block product (DPML, brand
 * blocks) for a term. The words both sides use. Browser-safe, no I/O.
 */

/** What a person sees: pending (ordered, being placed) → active → expiring → expired, or cancelled, or failed (the provider refused). */
export const BLOCK_STATES = ['pending', 'active', 'expiring', 'expired', 'cancelled', 'failed'] as const
export type BlockState = (typeof BLOCK_STATES)[number]
/** What a row stores; "expiring" is an active block within BLOCK_EXPIRING_DAYS of its expiry. */
export type BlockStoredState = Exclude<BlockState, 'expiring'>

export const BLOCK_EXPIRING_DAYS = 30

/** The provider's product id of a block product code (`block:dpml:order` → `dpml`). */
export const blockProviderProduct = (code: string) => code.split(':')[1] ?? ''
