import { sql } from 'kysely'
import { BLOCK_EXPIRING_DAYS } from '#common/blocks.ts'
import { change } from '#server/platform/core/change.ts'
import { listMail, mailAccountUsers } from '#server/platform/core/notices.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { BLOCK_JOBS, blockEventData, expireBlocks, placeBlock } from './service.ts'

const DAY = 86_400_000

/** The expiry job's sweep: active blocks past their term are stored expired, each with its audit entry and `block.expired` event. */
export async function sweepExpiredBlocks(deps: Pick<PlatformDeps, 'db' | 'now'>): Promise<{ expired: number }> {
  const ended = await change(deps.db, systemScope('blocks'), (tx, audit) => expireBlocks(tx, audit, deps.now()))
  return { expired: ended.length }
}

/**
 * Expiry notices: an active block within BLOCK_EXPIRING_DAYS of its expiry is mailed to its
 * account's domain managers (who may renew it), each in their own language, one mail per account
 * listing its blocks. Once per term: the row keeps the expiry it was noticed for
 * (`expiry_noticed_for`), so a renewal's new term is noticed in its turn. Recorded after sending,
 * with the `block.expiring` event in the same transaction, so a failed send is retried by the next
 * run and an event stands for each notice.
 */
export async function runBlockExpiryNotices(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'now'>): Promise<{ blocks: number; mails: number }> {
  const now = deps.now()
  const rows = await deps.db
    .selectFrom('blocks')
    .selectAll()
    .where('status', '=', 'active')
    .where('expires_at', '>', now)
    .where('expires_at', '<=', new Date(now.getTime() + BLOCK_EXPIRING_DAYS * DAY))
    .where(sql<boolean>`expiry_noticed_for IS DISTINCT FROM expires_at`)
    .orderBy('expires_at')
    .orderBy('label')
    .execute()
  const byAccount = Map.groupBy(rows, (b) => b.account_id)
  let mails = 0
  for (const [accountId, list] of byAccount) {
    const daysLeft = (expires: Date) => Math.ceil((expires.getTime() - now.getTime()) / DAY)
    mails += await mailAccountUsers(deps, accountId, 'domain-manager', (t) =>
      listMail(
        t,
        'blockExpiry',
        list.map((b) => t('blockExpiry.line', { label: b.label_unicode, product: b.product_code, date: b.expires_at!.toISOString().slice(0, 10), count: daysLeft(b.expires_at!) })),
      ),
    )
    for (const b of list)
      await deps.db.transaction().execute(async (tx) => {
        const noticed = await tx
          .updateTable('blocks')
          .set({ expiry_noticed_for: b.expires_at })
          .where('id', '=', b.id)
          .where('expires_at', '=', b.expires_at!)
          .where(sql<boolean>`expiry_noticed_for IS DISTINCT FROM expires_at`)
          .executeTakeFirst()
        // Another run noticed it meanwhile: one event per term all the same.
        if (noticed.numUpdatedRows) await recordEvent(tx, { accountId, type: 'block.expiring', data: blockEventData(b, { days_left: daysLeft(b.expires_at!) }) })
      })
  }
  return { blocks: rows.length, mails }
}

export function registerBlockJobs(deps: PlatformDeps) {
  deps.jobs.register<{ blockId: string }>(BLOCK_JOBS.place, (data) => placeBlock(deps, data.blockId))
  deps.jobs.register(BLOCK_JOBS.expiry, async () => {
    await sweepExpiredBlocks(deps)
    await runBlockExpiryNotices(deps)
  })
  deps.jobs.schedule(BLOCK_JOBS.expiry, '25 * * * *')
}
