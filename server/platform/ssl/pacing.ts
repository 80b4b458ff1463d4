import type { AcmeSettings } from '#server/integrations/acme/client.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

/** How many new orders a CA takes in an interval (decision 401); none: unpaced. */
export type OrderLimit = { orders: number; intervalSeconds: number }

/** "300/10800": 300 orders per 10,800 seconds. */
export function parseOrderLimit(text: string | undefined): OrderLimit | undefined {
  const match = text?.trim().match(/^(\d+)\s*\/\s*(\d+)$/)
  if (!match) return undefined
  const [orders, intervalSeconds] = [Number(match[1]), Number(match[2])]
  return orders > 0 && intervalSeconds > 0 ? { orders, intervalSeconds } : undefined
}

// Slots are kept a day at least (what a bench or a person reads of the pacing), then dropped.
const KEEP_MS = 86_400_000

/**
 * Takes a slot of the CA's interval for a new order of `certificateId` (a sliding window over the
 * orders sent, under the lock of the CA's pacing row, so every worker and process counts the same
 * slots). Answers 0 when taken, else the seconds until the oldest slot of the interval leaves it.
 */
export async function takeOrderSlot(deps: Pick<PlatformDeps, 'db' | 'now'>, acme: Pick<AcmeSettings, 'directoryUrl' | 'orderLimit'>, certificateId: string): Promise<number> {
  const limit = acme.orderLimit
  if (!limit) return 0
  const directory = acme.directoryUrl
  return deps.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('ssl_ca_pacing')
      .values({ directory_url: directory })
      .onConflict((oc) => oc.column('directory_url').doNothing())
      .execute()
    await tx.selectFrom('ssl_ca_pacing').select('directory_url').where('directory_url', '=', directory).forUpdate().executeTakeFirstOrThrow()
    const now = deps.now()
    const intervalMs = limit.intervalSeconds * 1000
    await tx
      .deleteFrom('ssl_ca_orders')
      .where('directory_url', '=', directory)
      .where('ordered_at', '<', new Date(now.getTime() - Math.max(intervalMs, KEEP_MS)))
      .execute()
    const recent = await tx
      .selectFrom('ssl_ca_orders')
      .select('ordered_at')
      .where('directory_url', '=', directory)
      .where('ordered_at', '>', new Date(now.getTime() - intervalMs))
      .orderBy('ordered_at', 'desc')
      .limit(limit.orders)
      .execute()
    if (recent.length >= limit.orders) {
      const oldest = new Date(recent[limit.orders - 1]!.ordered_at).getTime()
      return Math.max(0.001, (oldest + intervalMs - now.getTime()) / 1000)
    }
    await tx.insertInto('ssl_ca_orders').values({ directory_url: directory, certificate_id: certificateId, ordered_at: now }).execute()
    return 0
  })
}
