import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of blocks (decision 024). A block covers a label in the TLDs its
 * provider named (`covered_tlds`) while it is active and not past its expiry.
 */

/** The account's blocks in force: each label (ASCII) with the TLDs it covers. */
export function blocksInForce(db: Pick<Kysely<DB>, 'selectFrom'>, accountId: string, now: Date) {
  return db
    .selectFrom('blocks')
    .select(['blocks.id', 'blocks.label', 'blocks.covered_tlds', 'blocks.product_code'])
    .where('blocks.account_id', '=', accountId)
    .where('blocks.status', '=', 'active')
    .where('blocks.expires_at', '>', now)
}
