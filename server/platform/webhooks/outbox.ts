import type { WebhookEventType } from '#common/webhooks.ts'
import { sql, type RawBuilder } from 'kysely'
import type { Tx } from '#server/platform/core/change.ts'

/**
 * Writes a webhook event to the outbox inside the change's own transaction: the event exists if
 * and only if the change committed (never lost, never sent for a change rolled back). Fanning it
 * out to endpoints and delivering are the webhook jobs' (delivery.ts).
 */
export async function recordEvent(tx: Pick<Tx, 'insertInto'>, event: { accountId: string; type: WebhookEventType; data: Record<string, unknown> }): Promise<string> {
  const row = await tx
    .insertInto('webhook_events')
    .values({ account_id: event.accountId, type: event.type, data: JSON.stringify(event.data) })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/**
 * Writes the events a SELECT yields — its columns account_id, type, data (jsonb) — in one
 * statement inside the change's transaction: a batch's events (an invoice run's invoice.issued).
 * The SELECT is the caller's trusted SQL.
 */
export async function recordEventsSelected(tx: Tx, select: RawBuilder<unknown>): Promise<void> {
  await sql`INSERT INTO webhook_events (account_id, type, data) ${select}`.execute(tx)
}
