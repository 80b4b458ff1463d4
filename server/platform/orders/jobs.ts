import { newAuthCode, RegistryError, type RegistryConnection, type TransferResult } from '#server/integrations/registry/index.ts'
import type { OrderContacts, OrderItem } from '#server/db/schema-orders.ts'
import { ensureRegistryHandle } from '#server/platform/contacts/registry-handles.ts'
import { setDomainContacts } from '#server/platform/contacts/writes.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { change, txRunner, type Tx } from '#server/platform/core/change.ts'
import { AppError } from '#server/platform/core/errors.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { expiryAfterTransfer, isTransient, queryTransfer, registerAtRegistry, registryMessage, renewAtRegistry, requestTransfer } from '#server/platform/domains/registration.ts'
import { registryFor } from '#server/platform/registries/connection.ts'
import { recordDomain } from '#server/platform/domains/writes.ts'
import { releaseCharge, settleCharge } from '#server/platform/billing/transactions.ts'
import { itemChargeKey, MAX_RUN_ATTEMPTS, ORDER_JOBS, refreshOrder } from './service.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'

type Deps = Pick<PlatformDeps, 'db' | 'registries' | 'jobs' | 'logger' | 'now'>
const ACTOR = 'order job'

/** Registers the order job handlers; called once when the Platform API is built. */
export function registerOrderJobs(deps: Deps) {
  deps.jobs.register<{ itemId: string }>(ORDER_JOBS.item, (data) => runItem(deps, data.itemId))
  deps.jobs.register<{ itemId: string }>(ORDER_JOBS.transferCheck, (data) => checkTransfer(deps, data.itemId))
}

/** Seconds before the n-th look at a pending transfer: 2, 4, 8 … up to an hour. */
export const transferCheckDelay = (checks: number) => Math.min(2 ** Math.max(1, checks), 3600)

async function event(tx: Tx, itemId: string, state: string, message: string, registryCode: number | null = null) {
  await tx.insertInto('order_item_events').values({ item_id: itemId, state, message, registry_code: registryCode, actor_label: ACTOR }).execute()
}

/** Takes the item for a run: pending (or processing after a crash) becomes processing, one attempt more. */
async function claim(deps: Deps, itemId: string): Promise<OrderItem | null> {
  return deps.db.transaction().execute(async (tx) => {
    const item = await tx.selectFrom('order_items').selectAll().where('id', '=', itemId).forUpdate().executeTakeFirst()
    if (!item || (item.state !== 'pending' && item.state !== 'processing')) return null
    // A transfer already requested is followed by its check job, never requested twice.
    if (item.state === 'processing' && item.type === 'transfer' && item.transfer_checks > 0) return null
    const claimed = await tx
      .updateTable('order_items')
      .set({
        state: 'processing',
        attempts: item.attempts + 1,
        run_attempts: item.run_attempts + 1,
        new_auth_code: item.type === 'register' ? (item.new_auth_code ?? newAuthCode()) : item.new_auth_code,
        updated_at: new Date(),
      })
      .where('id', '=', itemId)
      .returningAll()
      .executeTakeFirstOrThrow()
    await event(tx, itemId, 'processing', `Sent to the registry (attempt ${claimed.attempts})`)
    await refreshOrder(tx, item.order_id)
    return claimed
  })
}

/** One run of an order item against its registry. Transient failures throw so the job engine retries with backoff. */
export async function runItem(deps: Deps, itemId: string): Promise<void> {
  const item = await claim(deps, itemId)
  if (!item) return
  try {
    const connection = registryFor(deps, item.tld)
    if (item.type === 'register') {
      const contacts = await orderContactsOf(deps, item)
      const handles = contacts ? await registrationHandles(deps, item, contacts, connection) : null
      const created = await registerAtRegistry(connection, { name: item.name, period: item.period, authCode: item.new_auth_code!, ...(handles ?? {}) })
      await complete(deps, item, created.expiresAt, 'Registered', { contacts, atRegistry: await readBack(deps, connection, item.name) })
    } else if (item.type === 'renew') {
      const renewed = await renewAtRegistry(connection, { name: item.name, period: item.period })
      await complete(deps, item, renewed.expiresAt, 'Renewed')
    } else {
      const result = await requestTransfer(connection, { name: item.name, period: item.period, authCode: item.auth_code ?? '' })
      await transferAnswered(deps, item, result, connection)
    }
  } catch (error) {
    await failed(deps, item, error)
  }
}

/** Follows a requested transfer until the registry approves, rejects or cancels it. */
export async function checkTransfer(deps: Deps, itemId: string): Promise<void> {
  const item = await deps.db.selectFrom('order_items').selectAll().where('id', '=', itemId).executeTakeFirst()
  if (!item || item.state !== 'processing' || item.type !== 'transfer') return
  try {
    const connection = registryFor(deps, item.tld)
    const result = await queryTransfer(connection, { name: item.name, authCode: item.auth_code ?? '' })
    await transferAnswered(deps, item, result, connection)
  } catch (error) {
    if (isTransient(error)) {
      await change(deps.db, systemScope(ACTOR, item.account_id), async (tx) => {
        await event(tx, item.id, 'processing', `Could not ask the registry about the transfer (${(error as Error).message}); asking again later`)
        await scheduleCheck(deps, tx, item)
      })
      return
    }
    await failed(deps, item, error)
  }
}

async function transferAnswered(deps: Deps, item: OrderItem, result: TransferResult, connection: Parameters<typeof expiryAfterTransfer>[0]) {
  if (result.status === 'clientApproved' || result.status === 'serverApproved') {
    const expiresAt = await expiryAfterTransfer(connection, item.name, result)
    await complete(deps, item, expiresAt, 'Transferred in', { atRegistry: await readBack(deps, connection, item.name) })
    return
  }
  if (result.status === 'pending') {
    await change(deps.db, systemScope(ACTOR, item.account_id), async (tx) => {
      const current = await tx.selectFrom('order_items').select('state').where('id', '=', item.id).forUpdate().executeTakeFirst()
      if (current?.state !== 'processing') return
      if (item.transfer_checks === 0) await event(tx, item.id, 'processing', 'Transfer requested; waiting for the current registrar or the registry to approve it')
      await scheduleCheck(deps, tx, item)
    })
    return
  }
  const text = { clientRejected: 'The current registrar rejected the transfer', clientCancelled: 'The transfer was cancelled', serverCancelled: 'The registry cancelled the transfer' }[result.status]
  await fail(deps, item, text, null)
}

async function scheduleCheck(deps: Deps, tx: Tx, item: OrderItem) {
  const checks = item.transfer_checks + 1
  await tx.updateTable('order_items').set({ transfer_checks: checks, updated_at: new Date() }).where('id', '=', item.id).execute()
  // In the same transaction as the state, so a crash never leaves a transfer nobody follows.
  await deps.jobs.send(ORDER_JOBS.transferCheck, { itemId: item.id }, { runner: txRunner(tx), startAfterSeconds: transferCheckDelay(checks), retryLimit: 3, retryBackoff: false })
}

/** The contacts chosen at checkout for the item's order (null for orders from before they were asked). */
async function orderContactsOf(deps: Deps, item: OrderItem): Promise<OrderContacts | null> {
  const order = await deps.db.selectFrom('orders').select('contacts').where('id', '=', item.order_id).executeTakeFirst()
  return order?.contacts ?? null
}

/** The contacts' handles at the item's registry, each created there first when new to it. */
async function registrationHandles(deps: Deps, item: OrderItem, contacts: OrderContacts, connection: RegistryConnection) {
  const scope = { ...systemScope(ACTOR, item.account_id), accountId: item.account_id }
  const handles = new Map<string, string>()
  for (const role of CONTACT_ROLES) {
    const id = contacts[role]
    if (!handles.has(id)) handles.set(id, await ensureRegistryHandle(deps, scope, id, connection, `contacts.${role}`))
  }
  return {
    registrant: handles.get(contacts.registrant)!,
    contacts: (['admin', 'tech', 'billing'] as const).map((type) => ({ type, id: handles.get(contacts[type])! })),
  }
}

/**
 * What the registry holds of a name just registered or transferred in (statuses such as inactive,
 * name servers, DS, its dates), or null when the read fails: the name is ours either way.
 */
async function readBack(deps: Deps, connection: RegistryConnection, name: string) {
  const info = await connection.infoDomain(name).catch(() => null)
  return info ? { info, registry: connection.registry, now: deps.now() } : null
}

async function complete(
  deps: Deps,
  item: OrderItem,
  expiresAt: Date | null,
  verb: string,
  { contacts = null, atRegistry = null }: { contacts?: OrderContacts | null; atRegistry?: Parameters<typeof recordDomain>[1]['atRegistry'] } = {},
) {
  await change(deps.db, systemScope(ACTOR, item.account_id), async (tx, audit) => {
    const current = await tx.selectFrom('order_items').select('state').where('id', '=', item.id).forUpdate().executeTakeFirst()
    if (current?.state !== 'processing') return
    const domain = await recordDomain(tx, { accountId: item.account_id, name: item.name, tld: item.tld, expiresAt, type: item.type, atRegistry })
    if (contacts) {
      // The roles as registered: the domain's four contacts from now on.
      await setDomainContacts(
        tx,
        domain.id,
        CONTACT_ROLES.map((role) => ({ role, contactId: contacts[role] })),
      )
    }
    await tx.updateTable('order_items').set({ state: 'completed', last_error: null, registry_code: null, domain_id: domain.id, updated_at: new Date() }).where('id', '=', item.id).execute()
    // The registry confirmed: the item's charge is settled with the domain it bought.
    await settleCharge(tx, systemScope(ACTOR, item.account_id), itemChargeKey(item.id), domain.id)
    await event(tx, item.id, 'completed', `${verb}${expiresAt ? `; expires ${expiresAt.toISOString().slice(0, 10)}` : ''}`)
    await refreshOrder(tx, item.order_id)
    // Webhooks (issue 20): in the outbox with the change itself.
    const done = { order_id: item.order_id, item_id: item.id, type: item.type, name: item.name, domain_id: domain.id, expires_at: expiresAt?.toISOString() ?? null }
    await recordEvent(tx, { accountId: item.account_id, type: 'order.completed', data: done })
    const domainEvent = ({ register: 'domain.registered', renew: 'domain.renewed', transfer: 'domain.transferred_in' } as const)[item.type]
    await recordEvent(tx, { accountId: item.account_id, type: domainEvent, data: { id: domain.id, name: item.name, expires_at: done.expires_at, order_id: item.order_id } })
    await audit.record({
      area: 'domains',
      entityType: 'domain',
      entityId: domain.id,
      action: item.type === 'transfer' ? 'transfer-in' : item.type,
      before: domain.before,
      after: { name: item.name, status: 'active', expires_at: expiresAt, order_id: item.order_id, period: item.period, ...(contacts ? { contacts } : {}) },
    })
  })
}

async function fail(deps: Deps, item: OrderItem, message: string, registryCode: number | null) {
  await change(deps.db, systemScope(ACTOR, item.account_id), async (tx, audit) => {
    const current = await tx.selectFrom('order_items').select('state').where('id', '=', item.id).forUpdate().executeTakeFirst()
    if (current?.state !== 'processing') return
    await tx.updateTable('order_items').set({ state: 'failed', last_error: message, registry_code: registryCode, updated_at: new Date() }).where('id', '=', item.id).execute()
    // It failed: the reserved charge is released and its money given back.
    await releaseCharge(tx, systemScope(ACTOR, item.account_id), itemChargeKey(item.id), message)
    await event(tx, item.id, 'failed', message, registryCode)
    await refreshOrder(tx, item.order_id)
    await recordEvent(tx, {
      accountId: item.account_id,
      type: 'order.failed',
      data: { order_id: item.order_id, item_id: item.id, type: item.type, name: item.name, error: message, registry_code: registryCode },
    })
    await audit.record({ area: 'domains', entityType: 'order-item', entityId: item.id, action: 'fail', after: { name: item.name, type: item.type, error: message, registry_code: registryCode } })
  })
}

/** Sorts a failure: the registry's refusal is final; an unreachable registry is retried until the run's attempts are spent. */
async function failed(deps: Deps, item: OrderItem, error: unknown) {
  if (error instanceof RegistryError) return fail(deps, item, registryMessage(error), error.code)
  if (error instanceof AppError && error.status < 500) return fail(deps, item, error.message, null)
  const message = isTransient(error) ? `The registry could not be reached: ${(error as Error).message}` : 'An unexpected error occurred'
  if (!isTransient(error)) deps.logger.error('order item failed unexpectedly', { item_id: item.id, error })
  if (item.run_attempts >= MAX_RUN_ATTEMPTS) return fail(deps, item, message, null)
  await change(deps.db, systemScope(ACTOR, item.account_id), async (tx) => {
    await tx.updateTable('order_items').set({ state: 'pending', last_error: message, updated_at: new Date() }).where('id', '=', item.id).where('state', '=', 'processing').execute()
    await event(tx, item.id, 'pending', `${message}; trying again later`)
    await refreshOrder(tx, item.order_id)
  })
  // The job engine retries this job with exponential backoff.
  throw error instanceof Error ? error : new Error(String(error))
}
