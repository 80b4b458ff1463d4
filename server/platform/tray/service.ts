import type { Kysely } from 'kysely'
import type { TrayEntityType } from '#server/db/schema-tray.ts'
import type { DB } from '#server/db/schema.ts'
import { reachOf } from '#server/platform/core/scope.ts'
import { badRequest, notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { TRAY_DOMAINS_LIST, TRAY_RECORDS_LIST } from '#common/lists/tray.ts'
import { domainIds, joinDomains, liveDomainsOf } from '#server/platform/domains/reads.ts'
import { joinRecordsAndZones, recordIds, recordsOf } from '#server/platform/dns/reads.ts'

export const TRAY_LIMIT = 10_000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The tray of one user in one account as a list resource. The user id is part of the trusted
 * condition; it comes from the verified token and is checked to be a UUID first.
 */
export function trayResource(userId: string, entityType: TrayEntityType): ListResource {
  if (!UUID.test(userId)) throw new Error('tray needs a user id')
  const common = {
    accountColumn: 't.account_id',
    tiebreak: 't.entity_id',
    where: `t.user_id = '${userId}' AND t.entity_type = '${entityType}'`,
  }
  const item = { id: 't.entity_id', entity_type: 't.entity_type', added_at: 't.added_at' }
  if (entityType === 'domain') {
    return listResource(TRAY_DOMAINS_LIST, {
      ...common,
      from: `tray_items t ${joinDomains('d', 't.entity_id')}`,
      columns: {
        ...item,
        name: 'd.name',
        unicode_name: 'd.unicode_name',
        tld: 'd.tld',
        status: 'd.status',
        expires_at: 'd.expires_at',
        auto_renew: 'd.auto_renew',
        registry_lock: 'd.registry_lock',
        is_material: 'd.is_material',
      },
    })
  }
  return listResource(TRAY_RECORDS_LIST, {
    ...common,
    from: `tray_items t ${joinRecordsAndZones('r', 'z', 't.entity_id')}`,
    columns: {
      ...item,
      name: 'r.name',
      type: 'r.type',
      content: 'r.content',
      ttl: 'r.ttl',
      zone: 'z.name',
    },
  })
}

function requireUserScope(scope: Scope): { userId: string; accountId: string } {
  if (!scope.actor.userId || !scope.accountId) throw badRequest('The tray belongs to a signed-in user in an account')
  return { userId: scope.actor.userId, accountId: scope.accountId }
}

/**
 * Adds entities to the user's tray. Each must be visible in the scope (another account's id is
 * 404, as everywhere); adding twice keeps one row. Returns the tray's size afterwards.
 */
export async function addToTray(db: Kysely<DB>, scope: Scope, entityType: TrayEntityType, ids: string[]): Promise<number> {
  const { userId, accountId } = requireUserScope(scope)
  const unique = [...new Set(ids.map((i) => i.toLowerCase()))]
  if (unique.length) {
    const reach = reachOf(scope)
    const rows = entityType === 'domain' ? await liveDomainsOf(db, reach).select('id').where('id', 'in', unique).execute() : await recordsOf(db, reach).select('id').where('id', 'in', unique).execute()
    const found = new Set(rows.map((r) => r.id))
    const missing = unique.filter((id) => !found.has(id))
    if (missing.length) throw notFound(`Not found: ${missing.slice(0, 5).join(', ')}`)
    const size = await countTray(db, scope, entityType)
    if (size + unique.length > TRAY_LIMIT) throw badRequest(`The tray holds at most ${TRAY_LIMIT} items`, [{ field: 'ids', message: `At most ${TRAY_LIMIT} items` }])
    await db
      .insertInto('tray_items')
      .values(unique.map((entity_id) => ({ user_id: userId, account_id: accountId, entity_type: entityType, entity_id })))
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
  return countTray(db, scope, entityType)
}

/** Removes the given entities from the tray, or empties it when no ids are given. */
export async function removeFromTray(db: Kysely<DB>, scope: Scope, entityType: TrayEntityType, ids?: string[]): Promise<number> {
  const { userId, accountId } = requireUserScope(scope)
  let query = db.deleteFrom('tray_items').where('user_id', '=', userId).where('account_id', '=', accountId).where('entity_type', '=', entityType)
  if (ids) {
    if (ids.length === 0) return countTray(db, scope, entityType)
    query = query.where(
      'entity_id',
      'in',
      ids.map((i) => i.toLowerCase()),
    )
  }
  await query.execute()
  return countTray(db, scope, entityType)
}

export async function countTray(db: Kysely<DB>, scope: Scope, entityType?: TrayEntityType): Promise<number> {
  const { userId, accountId } = requireUserScope(scope)
  let query = db
    .selectFrom('tray_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('account_id', '=', accountId)
  if (entityType) query = query.where('entity_type', '=', entityType)
  return Number((await query.executeTakeFirstOrThrow()).n)
}

/**
 * How many domains and records the user's tray holds in this account: the items the tray lists
 * (a record deleted since it was added no longer counts), in one query — the shell shows it on
 * every page.
 */
export async function traySizes(db: Kysely<DB>, scope: Scope): Promise<Record<TrayEntityType, number>> {
  const { userId, accountId } = requireUserScope(scope)
  const rows = await db
    .selectFrom('tray_items as t')
    .select(['t.entity_type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('t.user_id', '=', userId)
    .where('t.account_id', '=', accountId)
    .where((eb) => eb.or([eb.and([eb('t.entity_type', '=', 'domain'), eb('t.entity_id', 'in', domainIds(db))]), eb.and([eb('t.entity_type', '=', 'record'), eb('t.entity_id', 'in', recordIds(db))])]))
    .groupBy('t.entity_type')
    .execute()
  const sizes: Record<TrayEntityType, number> = { domain: 0, record: 0 }
  for (const row of rows) sizes[row.entity_type] = Number(row.n)
  return sizes
}

/** Domain ids in the user's tray, oldest first (the default target of a bulk action). */
export async function trayDomainIds(db: Kysely<DB>, scope: Scope): Promise<string[]> {
  const { userId, accountId } = requireUserScope(scope)
  const rows = await db
    .selectFrom('tray_items')
    .select('entity_id')
    .where('user_id', '=', userId)
    .where('account_id', '=', accountId)
    .where('entity_type', '=', 'domain')
    .orderBy('added_at')
    .orderBy('entity_id')
    .execute()
  return rows.map((r) => r.entity_id)
}
