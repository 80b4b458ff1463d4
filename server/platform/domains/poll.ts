import type { PollMessage } from '#server/integrations/registry/index.ts'
import { change } from '#server/platform/core/change.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { checkTransfer } from '#server/platform/orders/jobs.ts'
import { processingTransferItems } from '#server/platform/orders/reads.ts'
import { servedRegistries } from '#server/platform/registries/registries.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { liveDomainNamed } from './reads.ts'

/** Messages read per registry and run: the queue drains over a few runs rather than in one burst. */
export const POLL_BATCH = 200

export type PollOutcome = { registry: string; id: string; domain: string | null; outcome: string }

type Deps = Pick<PlatformDeps, 'db' | 'registries' | 'now' | 'logger' | 'jobs'>

/**
 * Reads each registry's message queue (RFC 5730 poll), oldest first, acting on what concerns our
 * domains and acknowledging each message once handled — a message whose handling fails stays in the
 * queue for the next run. What is done, per transfer notice (RFC 5731 trnData):
 * - a transfer of one of our domains approved to another registrar (by the losing side, or by the
 *   registry once its waiting time ran out): the domain left us — it leaves the portfolio, audited;
 * - a transfer we requested approved: the domain is ours and active, with the new expiry; when an
 *   order asked for it, its item completes now (the item's own check would come later);
 * - a transfer we requested rejected or cancelled: the pending record goes;
 * - a transfer requested away from us: recorded on the domain's log (it completes by itself after
 *   the registry's waiting time unless the registrant rejects it at the registry).
 * Every message is written to the domain's log when it names one of our domains.
 */
export async function pollRegistries(deps: Deps, batch = POLL_BATCH): Promise<PollOutcome[]> {
  const outcomes: PollOutcome[] = []
  for (const { connection, clientId: ourId } of (await servedRegistries(deps)).values()) {
    for (let n = 0; n < batch; n++) {
      const message = await connection.poll()
      if (!message) break
      const outcome = await handleMessage(deps, connection.registry, ourId, message)
      outcomes.push({ registry: connection.registry, id: message.id, ...outcome })
      await connection.ackPoll(message.id)
    }
  }
  return outcomes
}

async function handleMessage(deps: Deps, registry: string, ourId: string | null, message: PollMessage): Promise<{ domain: string | null; outcome: string }> {
  const transfer = message.transfer
  if (!transfer) {
    deps.logger.info('registry message', { registry, id: message.id, message: message.message })
    return { domain: null, outcome: 'logged' }
  }
  const domain = await liveDomainNamed(deps.db, transfer.name.toLowerCase()).select(['id', 'account_id', 'name', 'status', 'expires_at']).executeTakeFirst()
  const weRequested = ourId !== null && transfer.requestedBy === ourId
  if (!domain) {
    // A transfer an order asked for (the domain is recorded when it completes): its item looks at
    // the registry now instead of at its next scheduled check, up to an hour away.
    if (weRequested) {
      const items = await processingTransferItems(deps.db, transfer.name.toLowerCase())
      for (const item of items) await checkTransfer(deps, item)
      if (items.length) return { domain: transfer.name, outcome: 'order-checked' }
    }
    return { domain: transfer.name, outcome: 'not-ours' }
  }
  const approved = transfer.status === 'clientApproved' || transfer.status === 'serverApproved'
  let outcome = 'recorded'
  await change(deps.db, systemScope(`registry ${registry}`, domain.account_id), async (tx, audit) => {
    const note = { message: message.message, transfer_status: transfer.status, requested_by: transfer.requestedBy, registry_message_id: message.id }
    if (approved && !weRequested) {
      await tx.updateTable('domains').set({ status: 'deleted', auto_renew: false, updated_at: deps.now() }).where('id', '=', domain.id).execute()
      await audit.record({ area: 'domains', entityType: 'domain', entityId: domain.id, action: 'transferred-away', before: { status: domain.status }, after: { status: 'deleted', ...note } })
      outcome = 'transferred-away'
      await recordEvent(tx, { accountId: domain.account_id, type: 'domain.transferred_out', data: { id: domain.id, name: domain.name, requested_by: transfer.requestedBy ?? null } })
    } else if (approved && weRequested && domain.status === 'transferring') {
      const expires = transfer.expiresAt ?? domain.expires_at
      await tx.updateTable('domains').set({ status: 'active', expires_at: expires, updated_at: deps.now() }).where('id', '=', domain.id).execute()
      await audit.record({
        area: 'domains',
        entityType: 'domain',
        entityId: domain.id,
        action: 'transfer-completed',
        before: { status: domain.status, expires_at: domain.expires_at },
        after: { status: 'active', expires_at: expires, ...note },
      })
      outcome = 'transfer-completed'
      await recordEvent(tx, { accountId: domain.account_id, type: 'domain.transferred_in', data: { id: domain.id, name: domain.name, expires_at: expires?.toISOString() ?? null } })
    } else if (!approved && transfer.status !== 'pending' && weRequested && domain.status === 'transferring') {
      await tx.updateTable('domains').set({ status: 'deleted', updated_at: deps.now() }).where('id', '=', domain.id).execute()
      await audit.record({ area: 'domains', entityType: 'domain', entityId: domain.id, action: 'transfer-failed', before: { status: domain.status }, after: { status: 'deleted', ...note } })
      outcome = 'transfer-failed'
    } else {
      await audit.record({ area: 'domains', entityType: 'domain', entityId: domain.id, action: 'registry-message', after: note })
    }
  })
  return { domain: domain.name, outcome }
}
