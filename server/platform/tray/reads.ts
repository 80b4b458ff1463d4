import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { TrayEntityType } from '#server/db/schema-tray.ts'

/**
 * What other areas may read of a user's tray (decision 024), with the caller's executor.
 */

/** The ids a user's tray holds of one kind in an account, for a membership test (`id IN (…)`). */
export function trayEntityIds(db: Kysely<DB>, userId: string, accountId: string, entityType: TrayEntityType) {
  return db
    .selectFrom('tray_items')
    .select('tray_items.entity_id')
    .where('tray_items.user_id', '=', userId)
    .where('tray_items.account_id', '=', accountId)
    .where('tray_items.entity_type', '=', entityType)
}
