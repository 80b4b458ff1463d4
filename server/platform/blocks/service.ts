import { sql, type Kysely, type UpdateQueryBuilder, type UpdateResult } from 'kysely'
import { blockLabelCode, parseBlockLabel } from '#common/block-label.ts'
import { BLOCK_EXPIRING_DAYS, blockProviderProduct, type BlockState } from '#common/blocks.ts'
import { BLOCKS_LIST } from '#common/lists/blocks.ts'
import type { Quote } from '#common/pricing.ts'
import type { DB } from '#server/db/schema.ts'
import type { Block } from '#server/db/schema-blocks.ts'
import { RegistryError, registryErrorToAppError, type BlockProvider, type BlockRecord } from '#server/integrations/registry/index.ts'
import { chargeKey, refuseChangedPrice, releaseCharge, reserveCharges, settleCharge, type Charge, type ExpectedPrice } from '#server/platform/billing/transactions.ts'
import { change, txRunner, type Audit, type Tx } from '#server/platform/core/change.ts'
import { AppError, type CodedFieldError, fieldError, invalid, notFound, refused } from '#server/platform/core/errors.ts'
import { reachOf, requirePermission, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { listResource, type ListResource } from '#server/platform/list/engine.ts'
import { accountQuoter } from '#server/platform/pricing/service.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { accountById, joinAccounts } from '#server/platform/accounts/reads.ts'
import { activeProductsCoded, activeProductsOf, productById } from '#server/platform/pricing/reads.ts'
import { chargesKeyed } from '#server/platform/billing/reads.ts'

/**
 * Blocks (decision 302): a trademark label blocked across the TLDs of a block product with the
 * provider, for a term. An order is priced now (the pricing engine's quote for the account), its
 * charge reserved in the transaction that stores the block and queues the job that places it
 * (refused past the balance or credit limit before anything reaches the provider); the job
 * settles the charge when the provider confirms and releases it when the provider refuses. A
 * renewal is charged the same way around its own round trip; a cancellation gives nothing back
 * once placed (the provider keeps the fee), and releases the charge of a block not placed yet.
 */

export const BLOCK_JOBS = { place: 'blocks.place', expiry: 'blocks.expiry' } as const
const AREA = 'blocks'

/** The state a person sees: an active block near its expiry is expiring, past it expired. */
const STATE_SQL = `CASE WHEN b.status = 'active' AND b.expires_at <= now() THEN 'expired' WHEN b.status = 'active' AND b.expires_at <= now() + interval '${BLOCK_EXPIRING_DAYS} days' THEN 'expiring' ELSE b.status END`

export function stateOf(block: Pick<Block, 'status' | 'expires_at'>, now: Date): BlockState {
  if (block.status !== 'active' || !block.expires_at) return block.status
  if (block.expires_at <= now) return 'expired'
  return block.expires_at.getTime() - now.getTime() <= BLOCK_EXPIRING_DAYS * 86_400_000 ? 'expiring' : 'active'
}

/** /blocks as a list resource; client scopes add the account column. */
export const blocksResource = listResource(BLOCKS_LIST, {
  from: `blocks b ${joinAccounts('a', 'b.account_id')}`,
  tiebreak: 'b.id',
  columns: {
    id: 'b.id',
    group_id: 'b.account_id',
    'account.name': 'a.name',
    label: 'b.label',
    label_unicode: 'b.label_unicode',
    product_code: 'b.product_code',
    status: STATE_SQL,
    trademark_ref: 'b.trademark_ref',
    period_years: 'b.period_years',
    covered_tlds: "array_to_string(b.covered_tlds, ' ')",
    expires_at: 'b.expires_at',
    created_at: 'b.created_at',
    updated_at: 'b.updated_at',
  },
})
export const scopedBlocksResource: ListResource = { ...blocksResource, accountColumn: 'b.account_id' }

function provider(deps: Pick<PlatformDeps, 'registries'>): BlockProvider {
  const blocks = deps.registries?.blocks
  if (!blocks) throw refused('block.no-provider', 'Blocks cannot be ordered here: no block provider is configured')
  return blocks
}

// --- prices --------------------------------------------------------------------------------------

export type BlockProductOffer = { code: string; name: string; periods: number[]; prices: { period_years: number; order_minor: number; renew_minor: number; currency: string }[] }

const renewCode = (code: string) => code.replace(/:order$/, ':renew')

async function quoteCode(db: Kysely<DB>, accountId: string, code: string, action: 'order' | 'renew', years: number, now: Date): Promise<Quote> {
  const quoter = await accountQuoter(db, accountId, now)
  const [quote] = await quoter.quote([{ tld: '', action, period: years, field: 'product_code', code }])
  return quote!
}

/** The account's price of a block product for a period (a renewal at `block:{p}:renew` where one is sold, else the order's product); unpriced: refused beside the product. */
async function quoteBlock(db: Kysely<DB>, accountId: string, code: string, action: 'order' | 'renew', years: number, now: Date): Promise<{ quote: Quote; code: string }> {
  let priced = code
  if (action === 'renew') {
    const renew = await activeProductsCoded(db, [renewCode(code)])
      .select('code')
      .executeTakeFirst()
    if (renew) priced = renew.code
  }
  try {
    return { quote: await quoteCode(db, accountId, priced, action, years, now), code: priced }
  } catch (error) {
    if (error instanceof AppError && error.status === 409) throw refused('block.no-price', error.message, [fieldError('product_code', 'block.no-price', error.message)], error.extra)
    throw error
  }
}

/** The block products on sale (kind block, action order) with the account's price of each period; an unpriced period is left out. */
export async function blockOffers(db: Kysely<DB>, accountId: string | null, now: Date): Promise<BlockProductOffer[]> {
  const products = await activeProductsOf(db, 'block', 'order').select(['code', 'name', 'periods']).orderBy('code').execute()
  const offers: BlockProductOffer[] = []
  for (const p of products) {
    const prices: BlockProductOffer['prices'] = []
    if (accountId)
      for (const years of p.periods) {
        const order = await quoteBlock(db, accountId, p.code, 'order', years, now).catch(() => null)
        if (!order) continue
        const renew = await quoteBlock(db, accountId, p.code, 'renew', years, now).catch(() => order)
        prices.push({ period_years: years, order_minor: order.quote.total_minor, renew_minor: renew.quote.total_minor, currency: order.quote.currency })
      }
    offers.push({ code: p.code, name: p.name, periods: p.periods, prices })
  }
  return offers
}

// --- reading -------------------------------------------------------------------------------------

async function findBlock(db: Kysely<DB> | Tx, scope: Scope, id: string, lock = false): Promise<Block> {
  const reach = reachOf(scope)
  let query = db.selectFrom('blocks').selectAll().where('id', '=', id)
  if (reach !== null) query = query.where('account_id', '=', reach)
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst()
  if (!row) throw notFound('Block not found')
  return row
}

export type BlockCharge = { transaction_id: string; idempotency_key: string; state: string; action: string; amount_minor: number; currency: string; period: number; created_at: Date }
export type BlockDetail = { block: Block; state: BlockState; account_name: string; product_name: string | null; transactions: BlockCharge[] }

/** What a block's charge is for: its order, or the renewal of the term ending at `expiry`; `blockCharge` adds the terms to the key. */
const orderOf = (id: string) => `block-order:${id}`
const renewalOf = (id: string, expiry: Date) => `block-renew:${id}:${expiry.toISOString().slice(0, 10)}`

/** A block's charge at its quote, keyed by what it is for and its terms (product, period, price: `chargeKey`). */
function blockCharge(of: string, action: 'order' | 'renew', label: string, years: number, price: { quote: Quote; code: string }): Charge {
  const terms = { product_code: price.code, period: years, amount_minor: price.quote.total_minor, currency: price.quote.currency }
  return { key: chargeKey(of, terms), kind: 'block', action, object_name: label, quote: price.quote, ...terms }
}

/** Every charge of a block (its order and its renewals), newest first. */
async function chargesOf(db: Kysely<DB> | Tx, id: string): Promise<BlockCharge[]> {
  // An order charged before its key named its terms (block-order:{id} alone) is its order too.
  const rows = await chargesKeyed(db, [orderOf(id)], [`${orderOf(id)}|`, `block-renew:${id}:`])
    .select(['id', 'idempotency_key', 'state', 'action', 'amount_minor', 'currency', 'period', 'created_at'])
    .orderBy('created_at', 'desc')
    .execute()
  return rows.map((r) => ({
    transaction_id: r.id,
    idempotency_key: r.idempotency_key,
    state: r.state,
    action: r.action,
    amount_minor: Number(r.amount_minor),
    currency: r.currency.trim(),
    period: Number(r.period),
    created_at: r.created_at,
  }))
}

export async function getBlock(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, id: string): Promise<BlockDetail> {
  const block = await findBlock(deps.db, scope, id)
  const account = await accountById(deps.db, block.account_id).select('name').executeTakeFirstOrThrow()
  const product = block.product_id ? await productById(deps.db, block.product_id).select('name').executeTakeFirst() : null
  return { block, state: stateOf(block, deps.now()), account_name: account.name, product_name: product?.name ?? null, transactions: await chargesOf(deps.db, block.id) }
}

// --- ordering ------------------------------------------------------------------------------------

export type BlockOrderInput = { label: string; product_code: string; period_years: number; trademark_ref: string; expected?: ExpectedPrice }

/**
 * Orders a block: the label is one DNS label (an IDN converted to punycode), the product a block
 * product on sale with the period among its periods, the trademark reference given. In one
 * transaction: the row (pending), its charge reserved (refused past the limit, the shortfall
 * stated: nothing is written and nothing goes to the provider) and the job that places it.
 */
export async function orderBlock(deps: PlatformDeps, scope: Scope, input: BlockOrderInput): Promise<Block> {
  requirePermission(scope.actor, 'domain-manager')
  const accountId = scope.accountId
  if (!accountId) throw notFound('Account not found')
  provider(deps)
  const errors: CodedFieldError[] = []
  const label = parseBlockLabel(input.label)
  if (!label.ok) errors.push(fieldError('label', blockLabelCode(label.error), 'Not a valid label'))
  const product = await activeProductsOf(deps.db, 'block', 'order').select(['id', 'code', 'periods']).where('code', '=', input.product_code).executeTakeFirst()
  if (!product) errors.push(fieldError('product_code', 'block.product-unknown', 'Choose one of the block products offered'))
  else if (!product.periods.includes(input.period_years)) errors.push(fieldError('period_years', 'block.period-unknown', 'Choose one of the periods offered', product.periods.map(String)))
  const mark = input.trademark_ref.trim()
  if (!mark) errors.push(fieldError('trademark_ref', 'field.required', 'This field is required'))
  else if (mark.length > 255) errors.push(fieldError('trademark_ref', 'block.trademark-too-long', 'At most 255 characters'))
  if (errors.length || !label.ok || !product) throw invalid('block.order-invalid', 'The block order is not valid', errors)
  const now = deps.now()
  const price = await quoteBlock(deps.db, accountId, product.code, 'order', input.period_years, now)
  return change(deps.db, scope, async (tx, audit) => {
    // A block of the label whose term ended no longer holds it: the row says so before the label is taken again.
    await expireBlocks(tx, audit, now, (q) => q.where('account_id', '=', accountId).where('label', '=', label.ascii))
    const block = await tx
      .insertInto('blocks')
      .values({
        account_id: accountId,
        label: label.ascii,
        label_unicode: label.unicode,
        product_id: product.id,
        product_code: product.code,
        provider_product: blockProviderProduct(product.code),
        period_years: input.period_years,
        trademark_ref: mark,
        created_by: scope.actor.label,
        created_at: now,
        updated_at: now,
      })
      // The predicate of the partial index blocks_live_label, as literals: with parameters, a generic plan (a prepared
      // statement's sixth run) cannot prove the index applies and PostgreSQL refuses the insert.
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'label', 'product_code'])
          .where(sql<boolean>`status IN ('pending', 'active')`)
          .doNothing(),
      )
      .returningAll()
      .executeTakeFirst()
    if (!block)
      throw refused('block.already-blocked', `The label ${label.ascii} is already blocked by this account`, [fieldError('label', 'block.already-blocked', 'This account blocks this label already')])
    const charge = blockCharge(orderOf(block.id), 'order', label.ascii, input.period_years, price)
    // The price the person confirmed, else nothing is ordered (issue 28).
    refuseChangedPrice(input.expected, { amount_minor: charge.amount_minor, currency: charge.currency })
    // Reserved before the job that reaches the provider is queued: past the limit nothing is ordered.
    await reserveCharges(tx, scope, accountId, [charge])
    const row = await tx.updateTable('blocks').set({ charge_key: charge.key }).where('id', '=', block.id).returningAll().executeTakeFirstOrThrow()
    await audit.record({ area: AREA, entityType: 'block', entityId: row.id, accountId, action: 'order', after: auditFields(row) })
    await deps.jobs.send(BLOCK_JOBS.place, { blockId: row.id }, { runner: txRunner(tx), retryLimit: 8, singletonKey: row.id })
    return row
  })
}

const auditFields = (b: Block) => ({
  label: b.label,
  product_code: b.product_code,
  period_years: b.period_years,
  trademark_ref: b.trademark_ref,
  status: b.status,
  expires_at: b.expires_at?.toISOString() ?? null,
  provider_id: b.provider_id,
  failure_reason: b.failure_reason,
})

/** A block event's data (decision 021's catalogue: BlockData in webhooks/http.ts): the block as the API names it, and what the event adds. */
export const blockEventData = (b: Block, extra: Record<string, unknown> = {}) => ({
  id: b.id,
  label: b.label,
  label_unicode: b.label_unicode,
  product_code: b.product_code,
  trademark_ref: b.trademark_ref,
  covered_tlds: b.covered_tlds,
  expires_at: b.expires_at?.toISOString() ?? null,
  ...extra,
})

type ExpiringQuery = UpdateQueryBuilder<DB, 'blocks', 'blocks', UpdateResult>

/**
 * Marks expired the active blocks (narrowed by `where`) whose term has ended: each with its audit
 * entry and its `block.expired` event in the caller's transaction. The expiry job's sweep, and an
 * order of a label whose old block ended.
 */
export async function expireBlocks(tx: Tx, audit: Audit, now: Date, where: (q: ExpiringQuery) => ExpiringQuery = (q) => q): Promise<Block[]> {
  const ended = await where(
    tx
      .updateTable('blocks')
      .set({ status: 'expired', updated_at: now, version: sql`version + 1` })
      .where('status', '=', 'active')
      .where('expires_at', '<=', now),
  )
    .returningAll()
    .execute()
  for (const row of ended) {
    await audit.record({ area: AREA, entityType: 'block', entityId: row.id, accountId: row.account_id, action: 'expire', before: { ...auditFields(row), status: 'active' }, after: auditFields(row) })
    await recordEvent(tx, { accountId: row.account_id, type: 'block.expired', data: blockEventData(row) })
  }
  return ended
}

const refusalText = (error: RegistryError) => (error.reason ? `${error.registryMessage}: ${error.reason}` : error.registryMessage)

/**
 * The job: places a pending block with the provider. Confirmed: active with the provider's id,
 * covered TLDs and expiry, the charge settled — one transaction. Refused: failed with the
 * provider's reason, the charge released. Unreachable: thrown, the job retries. A retry after a
 * placement whose answer was lost finds the provider's "already blocked by you (id)" and reads that
 * block back instead of failing (decision 102).
 */
export async function placeBlock(deps: PlatformDeps, blockId: string): Promise<void> {
  const block = await deps.db.selectFrom('blocks').selectAll().where('id', '=', blockId).executeTakeFirst()
  if (block?.status !== 'pending') return
  const blocks = provider(deps)
  const scope: Scope = { actor: { userId: null, label: 'blocks', homeAccountId: null, roles: ['staff'], abilities: [] }, accountId: block.account_id, requestId: null }
  let placed: BlockRecord
  try {
    placed = await blocks.createBlock({ label: block.label, product: block.provider_product, years: block.period_years, mark: block.trademark_ref })
  } catch (error) {
    const ours = error instanceof RegistryError && error.code === 2302 ? /by you \(([^)]+)\)/.exec(error.reason ?? '')?.[1] : undefined
    // Ours only when no other row of ours names that block (another account's block of the same mark stays theirs).
    const claimed = ours ? await deps.db.selectFrom('blocks').select('id').where('provider_id', '=', ours).where('id', '!=', blockId).executeTakeFirst() : undefined
    if (ours && !claimed) placed = await blocks.infoBlock(ours)
    else if (error instanceof RegistryError) return void (await finish(deps, scope, blockId, { failed: refusalText(error) }))
    else throw error
  }
  await finish(deps, scope, blockId, { placed, provider: blocks.provider })
}

async function finish(deps: PlatformDeps, scope: Scope, blockId: string, outcome: { placed: BlockRecord; provider: string } | { failed: string }) {
  const undo = await change(deps.db, scope, async (tx, audit) => {
    const block = await tx.selectFrom('blocks').selectAll().where('id', '=', blockId).forUpdate().executeTakeFirstOrThrow()
    // Cancelled while the provider placed it: the provider's block is taken back below, nothing charged.
    if (block.status !== 'pending') return 'placed' in outcome ? outcome.placed.id : null
    const now = deps.now()
    if ('placed' in outcome) {
      const row = await tx
        .updateTable('blocks')
        .set({
          status: 'active',
          provider: outcome.provider,
          provider_id: outcome.placed.id,
          covered_tlds: outcome.placed.tlds,
          placed_at: now,
          expires_at: outcome.placed.expiresAt,
          version: block.version + 1,
          updated_at: now,
        })
        .where('id', '=', blockId)
        .returningAll()
        .executeTakeFirstOrThrow()
      if (block.charge_key) await settleCharge(tx, scope, block.charge_key)
      await audit.record({ area: AREA, entityType: 'block', entityId: blockId, accountId: block.account_id, action: 'place', before: auditFields(block), after: auditFields(row) })
      await recordEvent(tx, { accountId: block.account_id, type: 'block.placed', data: blockEventData(row, { provider_id: row.provider_id, period_years: row.period_years }) })
    } else {
      const row = await tx
        .updateTable('blocks')
        .set({ status: 'failed', failure_reason: outcome.failed.slice(0, 500), version: block.version + 1, updated_at: now })
        .where('id', '=', blockId)
        .returningAll()
        .executeTakeFirstOrThrow()
      if (block.charge_key) await releaseCharge(tx, scope, block.charge_key, outcome.failed)
      await audit.record({ area: AREA, entityType: 'block', entityId: blockId, accountId: block.account_id, action: 'fail', before: auditFields(block), after: auditFields(row) })
      await recordEvent(tx, { accountId: block.account_id, type: 'block.failed', data: blockEventData(row, { reason: row.failure_reason }) })
    }
    return null
  })
  if (undo) await provider(deps).deleteBlock(undo)
}

// --- renewal and cancellation --------------------------------------------------------------------

/**
 * Renews an active block by a period: priced now, reserved in a transaction of its own before the
 * provider is asked (refused past the limit), settled with the new expiry, released when the
 * provider refuses (its reason as the refusal). The key names the term renewed and the renewal's
 * terms, so a retry of the same renewal charges nothing more and one for another period is its own.
 */
export async function renewBlock(deps: PlatformDeps, scope: Scope, id: string, input: { period_years: number; expected?: ExpectedPrice }): Promise<Block> {
  requirePermission(scope.actor, 'domain-manager')
  const block = await findBlock(deps.db, scope, id)
  const now = deps.now()
  if (stateOf(block, now) === 'expired' || !['active'].includes(block.status) || !block.expires_at || !block.provider_id)
    throw refused('block.not-renewable', 'Only an active block can be renewed', undefined, { state: stateOf(block, now) })
  const product = block.product_id ? await productById(deps.db, block.product_id).select('periods').executeTakeFirst() : null
  const periods = product?.periods ?? [block.period_years]
  if (!periods.includes(input.period_years))
    throw invalid('block.renew-invalid', 'The renewal is not valid', [fieldError('period_years', 'block.period-unknown', 'Choose one of the periods offered', periods.map(String))])
  const blocks = provider(deps)
  const price = await quoteBlock(deps.db, block.account_id, block.product_code, 'renew', input.period_years, now)
  const charge = blockCharge(renewalOf(block.id, block.expires_at), 'renew', block.label, input.period_years, price)
  const key = charge.key
  const chargeScope: Scope = { ...scope, accountId: block.account_id }
  await change(deps.db, scope, async (tx) => {
    // The price the person confirmed, else nothing is charged or renewed (issue 28).
    refuseChangedPrice(input.expected, { amount_minor: charge.amount_minor, currency: charge.currency })
    await reserveCharges(tx, chargeScope, block.account_id, [charge])
  })
  let renewed: { expiresAt: Date }
  try {
    renewed = await blocks.renewBlock({ id: block.provider_id, currentExpiry: block.expires_at, years: input.period_years })
  } catch (error) {
    if (error instanceof RegistryError) await change(deps.db, scope, (tx) => releaseCharge(tx, chargeScope, key, refusalText(error)))
    throw registryErrorToAppError(error)
  }
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .updateTable('blocks')
      .set({ expires_at: renewed.expiresAt, version: sql`version + 1`, updated_at: deps.now() })
      .where('id', '=', block.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await settleCharge(tx, chargeScope, key)
    await audit.record({
      area: AREA,
      entityType: 'block',
      entityId: block.id,
      accountId: block.account_id,
      action: 'renew',
      before: auditFields(block),
      after: { ...auditFields(row), renewed_years: input.period_years },
    })
    await recordEvent(tx, { accountId: block.account_id, type: 'block.renewed', data: blockEventData(row, { period_years: input.period_years }) })
    return row
  })
}

/**
 * Cancels a block. Pending: nothing was placed — cancelled, its charge released. Active: the
 * provider deletes it (the label is free again at once), cancelled; what was paid stays paid (the
 * provider keeps the fee). Any other state: refused.
 */
export async function cancelBlock(deps: PlatformDeps, scope: Scope, id: string): Promise<Block> {
  requirePermission(scope.actor, 'domain-manager')
  const block = await findBlock(deps.db, scope, id)
  const state = stateOf(block, deps.now())
  if (state !== 'pending' && state !== 'active' && state !== 'expiring') throw refused('block.not-cancellable', `A block that is ${state} cannot be cancelled`, undefined, { state })
  if (block.status === 'active' && block.provider_id) {
    try {
      await provider(deps).deleteBlock(block.provider_id)
    } catch (error) {
      // Gone at the provider already (2303): cancelled here too.
      if (!(error instanceof RegistryError && error.code === 2303)) throw registryErrorToAppError(error)
    }
  }
  return change(deps.db, scope, async (tx, audit) => {
    const current = await findBlock(tx, scope, id, true)
    if (current.status !== 'pending' && current.status !== 'active')
      throw refused('block.not-cancellable', `A block that is ${current.status} cannot be cancelled`, undefined, { state: current.status })
    const now = deps.now()
    const row = await tx
      .updateTable('blocks')
      .set({ status: 'cancelled', cancelled_at: now, version: current.version + 1, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    if (current.status === 'pending' && current.charge_key) await releaseCharge(tx, { ...scope, accountId: current.account_id }, current.charge_key, 'Cancelled before it was placed')
    await audit.record({ area: AREA, entityType: 'block', entityId: id, accountId: current.account_id, action: 'cancel', before: auditFields(current), after: auditFields(row) })
    await recordEvent(tx, { accountId: current.account_id, type: 'block.cancelled', data: blockEventData(row, { previous_status: current.status }) })
    return row
  })
}
