import { sql, type Kysely } from 'kysely'
import { TRANSACTIONS_LIST } from '#common/lists/billing.ts'
import { currencyDecimals, formatMoney } from '#common/money.ts'
import type { Quote } from '#common/pricing.ts'
import type { DB } from '#server/db/schema.ts'
import type { Transaction } from '#server/db/schema-billing.ts'
import { reachOf, requirePermission } from '#server/platform/core/scope.ts'
import { auditWriter, change, type Tx } from '#server/platform/core/change.ts'
import { conflict, fieldError, invalid, notFound, refused } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { productByCode, productById, productNameOfCode } from '#server/platform/pricing/reads.ts'
import { listResource } from '#server/platform/list/engine.ts'
import { accountPricing } from '#server/platform/pricing/service.ts'
import { orderState } from '#server/platform/orders/reads.ts'
import { accountById, joinAccounts } from '#server/platform/accounts/reads.ts'

/**
 * Transactions (issue 18): one per billable action, written in the database transaction of the
 * action itself, at the quote the action was placed at. reserved → settled (the registry
 * confirmed), released (it failed or was cancelled: the money goes back), refunded (a credit
 * after it was settled). The idempotency key names the action, so a retry finds its row and never
 * charges twice. A charge locks the entity's money position of its currency (FOR UPDATE): two
 * orders at the same moment are charged one after the other, and the second is refused when the
 * first took what was left.
 */

const AREA = 'invoicing'

/**
 * The idempotency key of a charge: the action it is for (`action`, e.g. `renew:{domain}:{expiry}`:
 * the thing acted on and the state it is acted from) followed by its billable terms — product,
 * period, quantity and price. A retry of the same action at the same terms finds its row (and never
 * charges twice); the same action asked with other terms (a renewal for another period after a
 * refusal, a price changed since) is another charge, so a released charge is never reserved and
 * settled again for something it was not.
 */
export function chargeKey(action: string, terms: ChargeTerms): string {
  return `${action}|${termsOf(terms)}`
}

type ChargeTerms = { product_code: string; period: number | string; quantity?: number | string | undefined; amount_minor: number | string; currency: string }
/** What a charge bills, as a row stores it and as a charge asks it: one key is one of these, never two. */
const termsOf = (t: ChargeTerms) => `${t.product_code}|${Number(t.period)}|${Number(t.quantity ?? 1)}|${t.currency.trim()}${Number(t.amount_minor)}`

/** One billable action to charge. */
export type Charge = {
  key: string
  kind: string
  action: string
  object_name: string
  period: number
  quantity?: number
  amount_minor: number
  currency: string
  quote: Quote | null
  product_code?: string
  domain_id?: string | null
  order_id?: string | null
  order_item_id?: string | null
}

export type Shortfall = { currency: string; needed_minor: number; available_minor: number; shortfall_minor: number }

const moneyText = (minor: number, currency: string) => `${currency} ${(minor / 10 ** currencyDecimals(currency)).toFixed(currencyDecimals(currency))}`

/**
 * Takes the charges' sums from the paying entity's positions (each locked, in currency order so two
 * charges never wait on each other), or refuses the whole action (409 billing.insufficient_funds,
 * the shortfall per currency stated) before anything is written. An account no entity pays for yet
 * is charged without a limit.
 */
async function takeFunds(tx: Tx, billingEntityId: string | null, charges: { amount_minor: number; currency: string }[]): Promise<void> {
  if (!billingEntityId) return
  const sums = new Map<string, number>()
  for (const c of charges) sums.set(c.currency, (sums.get(c.currency) ?? 0) + c.amount_minor)
  const shortfalls: Shortfall[] = []
  const updates: { currency: string; balance: number }[] = []
  for (const currency of [...sums.keys()].sort()) {
    const needed = sums.get(currency)!
    const position = await tx
      .selectFrom('billing_balances')
      .select(['balance_minor', 'credit_limit_minor'])
      .where('billing_entity_id', '=', billingEntityId)
      .where('currency', '=', currency)
      .forUpdate()
      .executeTakeFirst()
    const available = position ? Number(position.balance_minor) + Number(position.credit_limit_minor) : 0
    if (needed > available) shortfalls.push({ currency, needed_minor: needed, available_minor: Math.max(0, available), shortfall_minor: needed - Math.max(0, available) })
    else updates.push({ currency, balance: Number(position!.balance_minor) - needed })
  }
  if (shortfalls.length) {
    const shortfall = shortfalls.map((s) => moneyText(s.shortfall_minor, s.currency)).join(', ')
    const available = shortfalls.map((s) => moneyText(s.available_minor, s.currency)).join(', ')
    throw refused(
      'billing.insufficient_funds',
      `The order goes past the balance or credit limit by ${shortfall} (available: ${available})`,
      [fieldError('(body)', 'billing.insufficient_funds', `Short by ${shortfall}`)],
      { shortfall, available, shortfalls },
    )
  }
  for (const u of updates) {
    await tx
      .updateTable('billing_balances')
      .set((eb) => ({ balance_minor: u.balance, version: eb('version', '+', 1), updated_at: new Date() }))
      .where('billing_entity_id', '=', billingEntityId)
      .where('currency', '=', u.currency)
      .execute()
  }
}

async function giveBack(tx: Tx, row: Pick<Transaction, 'billing_entity_id' | 'currency' | 'amount_minor'>): Promise<void> {
  if (!row.billing_entity_id) return
  await tx
    .updateTable('billing_balances')
    .set((eb) => ({ balance_minor: sql<number>`balance_minor + ${Number(row.amount_minor)}`, version: eb('version', '+', 1), updated_at: new Date() }))
    .where('billing_entity_id', '=', row.billing_entity_id)
    .where('currency', '=', row.currency)
    .execute()
}

/**
 * The one way a charge changes state: `row` (read FOR UPDATE) goes to `to`, with its reason and
 * any other column the move sets (a settlement's time), and the move is audited as `action`. The
 * money moves with the caller (takeFunds / giveBack), which knows whether it goes with the move.
 */
async function moveCharge(
  tx: Tx,
  scope: Scope,
  row: Pick<Transaction, 'id' | 'account_id' | 'state' | 'version'>,
  to: Transaction['state'],
  action: 'reserve' | 'settle' | 'release' | 'refund',
  reason = '',
  set: { settled_at?: Date; domain_id?: string | null } = {},
): Promise<void> {
  await tx
    .updateTable('transactions')
    .set({ state: to, reason: reason.slice(0, 500), version: row.version + 1, updated_at: new Date(), ...set })
    .where('id', '=', row.id)
    .execute()
  await auditWriter(tx, scope).record({
    area: AREA,
    entityType: 'transaction',
    entityId: row.id,
    accountId: row.account_id,
    action,
    before: { state: row.state },
    after: { state: to, ...(reason ? { reason } : {}) },
  })
}

const productCodeOf = (c: Charge) => c.quote?.product_code ?? c.product_code ?? `${c.kind}:${c.action}`

/**
 * Reserves the charges of one action for the scope's account, inside the action's transaction.
 * A key already reserved or settled is left as it is (a retry charges nothing); a released one is
 * reserved again (a failed item retried), with the same funds check. A key already holding other
 * terms (product, period, quantity, price) is refused whole: a charge is only ever taken again for
 * the action it was made for (`chargeKey` names the terms in the key).
 */
export async function reserveCharges(tx: Tx, scope: Scope, accountId: string, charges: Charge[]): Promise<void> {
  if (!charges.length) return
  const account = await accountById(tx, accountId).select('billing_entity_id').executeTakeFirstOrThrow()
  const existing = await tx
    .selectFrom('transactions')
    .selectAll()
    .where(
      'idempotency_key',
      'in',
      charges.map((c) => c.key),
    )
    .forUpdate()
    .execute()
  const byKey = new Map(existing.map((t) => [t.idempotency_key, t]))
  for (const c of charges) {
    const row = byKey.get(c.key)
    if (row && (row.account_id !== accountId || termsOf(row) !== termsOf({ ...c, product_code: productCodeOf(c) })))
      throw conflict(`The charge ${c.key} was made for other terms (${termsOf(row)}); it is not taken again for ${termsOf({ ...c, product_code: productCodeOf(c) })}`, {
        reason: 'billing.charge_terms',
      })
  }
  const fresh = charges.filter((c) => !byKey.has(c.key))
  const again = existing.filter((t) => t.state === 'released')
  await takeFunds(tx, account.billing_entity_id, [...fresh, ...again.map((t) => ({ amount_minor: Number(t.amount_minor), currency: t.currency.trim() }))])
  const audit = auditWriter(tx, scope)
  for (const c of fresh) {
    const row = await tx
      .insertInto('transactions')
      .values({
        idempotency_key: c.key,
        account_id: accountId,
        billing_entity_id: account.billing_entity_id,
        kind: c.kind,
        action: c.action,
        product_id: c.quote?.product_id ?? null,
        product_code: productCodeOf(c),
        object_name: c.object_name,
        domain_id: c.domain_id ?? null,
        order_id: c.order_id ?? null,
        order_item_id: c.order_item_id ?? null,
        period: c.period,
        quantity: c.quantity ?? 1,
        unit_minor: c.quote?.unit_minor ?? c.amount_minor,
        amount_minor: c.amount_minor,
        currency: c.currency,
        quote: c.quote ? JSON.stringify(c.quote) : null,
        actor_label: scope.actor.label,
        actor_user_id: scope.actor.userId,
      })
      .returning(['id'])
      .executeTakeFirstOrThrow()
    await audit.record({
      area: AREA,
      entityType: 'transaction',
      entityId: row.id,
      accountId,
      action: 'reserve',
      after: { state: 'reserved', product_code: productCodeOf(c), object_name: c.object_name, amount_minor: c.amount_minor, currency: c.currency },
    })
  }
  for (const t of again) await moveCharge(tx, scope, t, 'reserved', 'reserve')
}

/** What a direct action asks to charge (a renewal, a restore, a lock fee): the quote and the charge read it alike. */
export type DirectAction = { accountId: string; tld: string; action: string; period: number; unpricedIsFree?: boolean }

/** The price of a direct action as the engine quotes it for the account now, or null when nothing is charged. */
export type DirectPrice = { amount_minor: number; currency: string; quote: Quote } | null

/** What the person was shown and confirmed (null: no charge); the charge is refused when its quote is now otherwise. */
export type ExpectedPrice = { amount_minor: number; currency: string } | null

/**
 * The one price of a direct action: the account's quote (its price list, in its currency) for the
 * action's TLD, action and period — what the confirmation shows (GET …/renew/quote) and what the
 * charge takes (`reserveDirect`). Null when the account has no billing entity and the product no
 * price (nothing to charge it to), or for a fee the registrar may leave unpriced (`unpricedIsFree`).
 */
export async function quoteDirect(db: Kysely<DB>, input: DirectAction): Promise<DirectPrice> {
  const account = await accountById(db, input.accountId).select('billing_entity_id').executeTakeFirstOrThrow()
  try {
    const price = await (await accountPricing(db, input.accountId)).price({ name: input.tld, list_price_minor: null, currency: '' }, input.period, 'period', input.action)
    return { amount_minor: price.price_minor, currency: price.currency, quote: JSON.parse(price.quote) as Quote }
  } catch (error) {
    if (account.billing_entity_id && !input.unpricedIsFree) throw error
    return null
  }
}

const priceText = (p: ExpectedPrice) => (p ? moneyText(p.amount_minor, p.currency.trim()) : 'no charge')

/**
 * Refuses a charge whose price is not the one the person confirmed (`expected`, issue 28): 409
 * billing.quote_changed with both prices, thrown inside the charge's transaction so nothing is
 * charged. `charged` is the charge's own quote (null: nothing charged); an omitted `expected` is no
 * confirmation to hold to.
 */
export function refuseChangedPrice(expected: ExpectedPrice | undefined, charged: ExpectedPrice): void {
  if (expected === undefined || priceText(expected) === priceText(charged)) return
  const quoted = priceText(expected)
  const now = priceText(charged)
  throw refused(
    'billing.quote_changed',
    `The price changed since it was shown: ${quoted} was confirmed, the charge is now ${now}; nothing was charged`,
    [fieldError('(body)', 'billing.quote_changed', `Now ${now}`)],
    {
      quoted,
      now,
      amount_minor: charged?.amount_minor ?? null,
      currency: charged?.currency ?? null,
    },
  )
}

/**
 * A billable action done outside an order (a renewal from the domain's page, an auto-renewal, a
 * restore): priced on the account's list (`quoteDirect`), reserved in a transaction of its own
 * BEFORE the registry is asked (refused past the limit), then settled in the action's own
 * transaction or released when the registry refuses. `key` names the action
 * (renew:{domain}:{expiry}) and the charge's key adds its terms (`chargeKey`: product, period,
 * price), so a retried renewal finds its charge and a renewal for another period is charged on its
 * own. `expected` is the price the person confirmed: the quote taken in the charge's transaction
 * must be that one, else nothing is charged (409 billing.quote_changed, both prices stated): a
 * rule or rate changed between the confirmation and the charge. Returns the key to settle or
 * release, or null when nothing is charged.
 */
export async function reserveDirect(db: Kysely<DB>, scope: Scope, input: DirectAction & { key: string; objectName: string; domainId: string; expected?: ExpectedPrice }): Promise<string | null> {
  return change(db, scope, async (tx) => {
    const price = await quoteDirect(tx, input)
    refuseChangedPrice(input.expected, price)
    if (!price) return null
    const key = chargeKey(input.key, { product_code: price.quote.product_code, period: input.period, amount_minor: price.amount_minor, currency: price.currency })
    await reserveCharges(tx, scope, input.accountId, [
      {
        key,
        kind: 'domain',
        action: input.action,
        object_name: input.objectName,
        period: input.period,
        amount_minor: price.amount_minor,
        currency: price.currency,
        quote: price.quote,
        domain_id: input.domainId,
      },
    ])
    return key
  })
}

/** The registry refused a direct action: its charge is released (its own transaction). */
export async function releaseDirect(db: Kysely<DB>, scope: Scope, key: string | null, reason: string): Promise<void> {
  if (key) await change(db, scope, (tx) => releaseCharge(tx, scope, key, reason))
}

/** A registration deleted inside its add grace period: its settled charges are credited back. */
export async function refundDomainCharges(tx: Tx, scope: Scope, domainId: string, reason: string): Promise<void> {
  const rows = await tx.selectFrom('transactions').selectAll().where('domain_id', '=', domainId).where('action', 'in', ['register', 'transfer']).where('state', '=', 'settled').forUpdate().execute()
  for (const row of rows) {
    await giveBack(tx, row)
    await moveCharge(tx, scope, row, 'refunded', 'refund', reason)
  }
}

/** A released charge reserved again (a failed item retried), with the same funds check; any other state is left. */
export async function reserveAgain(tx: Tx, scope: Scope, key: string): Promise<void> {
  const row = await tx.selectFrom('transactions').selectAll().where('idempotency_key', '=', key).forUpdate().executeTakeFirst()
  if (row?.state !== 'released') return
  await takeFunds(tx, row.billing_entity_id, [{ amount_minor: Number(row.amount_minor), currency: row.currency.trim() }])
  await moveCharge(tx, scope, row, 'reserved', 'reserve')
}

/**
 * The registry or CA confirmed: the reserved charge is settled (the money was taken at reservation),
 * at the caller's clock (`deps.now()` where it has one: the month it settles in is the invoice it goes on).
 */
export async function settleCharge(tx: Tx, scope: Scope, key: string, domainId: string | null = null, at: Date = new Date()): Promise<void> {
  const row = await tx.selectFrom('transactions').selectAll().where('idempotency_key', '=', key).forUpdate().executeTakeFirst()
  if (row?.state !== 'reserved') return
  await moveCharge(tx, scope, row, 'settled', 'settle', '', { settled_at: at, domain_id: domainId ?? row.domain_id })
}

/** The action failed or was cancelled: a reserved charge is released and its money given back. */
export async function releaseCharge(tx: Tx, scope: Scope, key: string, reason: string): Promise<void> {
  const row = await tx.selectFrom('transactions').selectAll().where('idempotency_key', '=', key).forUpdate().executeTakeFirst()
  if (row?.state !== 'reserved') return
  await giveBack(tx, row)
  await moveCharge(tx, scope, row, 'released', 'release', reason)
}

/** Staff refund a settled charge (a credit back to the balance), with its reason. */
export async function refundTransaction(db: Kysely<DB>, scope: Scope, id: string, reason: string): Promise<TransactionDetail> {
  await findTransaction(db, scope, id)
  requirePermission(scope.actor, 'staff')
  const why = reason.trim()
  await change(db, scope, async (tx) => {
    const row = await findTransaction(tx, scope, id, true)
    if (!why) throw invalid('billing.reason_required', 'A refund needs its reason', [fieldError('reason', 'billing.reason_required', 'A refund needs its reason')])
    if (row.state !== 'settled') throw refused('billing.not_refundable', `Only a settled transaction can be refunded; this one is ${row.state}`, undefined, { state: row.state })
    await giveBack(tx, row)
    await moveCharge(tx, scope, row, 'refunded', 'refund', why)
  })
  return getTransaction(db, scope, id)
}

async function findTransaction(db: Kysely<DB> | Tx, scope: Scope, id: string, lock = false): Promise<Transaction> {
  const reach = reachOf(scope)
  let query = db.selectFrom('transactions').selectAll().where('id', '=', id)
  if (reach !== null) query = query.where('account_id', '=', reach)
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst()
  if (!row) throw notFound('Transaction not found')
  return row
}

export type TransactionDetail = Omit<Transaction, 'unit_minor' | 'amount_minor' | 'tax_minor' | 'currency' | 'created_at' | 'updated_at' | 'settled_at' | 'quote'> & {
  unit_minor: number
  amount_minor: number
  tax_minor: number
  currency: string
  amount_text: string
  account_name: string
  billing_entity_name: string | null
  product_name: string | null
  order_state: string | null
  /** The quote it was charged at; staff see the chain of rules, cost and rates, a client the price only. */
  quote: Partial<Quote> | null
  created_at: string
  updated_at: string
  settled_at: string | null
}

export async function getTransaction(db: Kysely<DB>, scope: Scope, id: string): Promise<TransactionDetail> {
  requirePermission(scope.actor, 'invoice-viewer')
  const row = await findTransaction(db, scope, id)
  const account = await accountById(db, row.account_id).select('name').executeTakeFirstOrThrow()
  const entity = row.billing_entity_id ? await db.selectFrom('billing_entities').select('name').where('id', '=', row.billing_entity_id).executeTakeFirst() : null
  const order = row.order_id ? { state: await orderState(db, row.order_id) } : null
  const product = await (row.product_id ? productById(db, row.product_id) : productByCode(db, row.product_code)).select('products.name').executeTakeFirst()
  const staff = reachOf(scope) === null
  const quote =
    row.quote &&
    (staff
      ? row.quote
      : {
          product_code: row.quote.product_code,
          currency: row.quote.currency,
          period: row.quote.period,
          unit_minor: row.quote.unit_minor,
          regular_minor: row.quote.regular_minor,
          total_minor: row.quote.total_minor,
          priced_at: row.quote.priced_at,
        })
  const currency = row.currency.trim()
  return {
    ...row,
    currency,
    unit_minor: Number(row.unit_minor),
    amount_minor: Number(row.amount_minor),
    tax_minor: Number(row.tax_minor),
    amount_text: formatMoney(Number(row.amount_minor), currency),
    account_name: account.name,
    billing_entity_name: entity?.name ?? null,
    product_name: product?.name ?? null,
    order_state: order?.state ?? null,
    quote,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    settled_at: row.settled_at?.toISOString() ?? null,
  }
}

const amountText = `t.currency || ' ' || CASE WHEN t.currency = 'JPY' THEN t.amount_minor::text ELSE to_char(t.amount_minor / 100.0, 'FM999999999990.00') END`
const columns = {
  id: 't.id',
  created_at: 't.created_at',
  state: 't.state',
  action: 't.action',
  product_code: 't.product_code',
  'product.name': { column: productNameOfCode('t.product_code'), joined: true },
  object_name: 't.object_name',
  period: 't.period',
  amount_minor: 't.amount_minor',
  currency: 't.currency',
  amount_text: amountText,
  account_id: 't.account_id',
  'account.name': { column: 'a.name', joined: true },
  billing_entity_id: 't.billing_entity_id',
  'billing_entity.name': { column: 'be.name', joined: true },
  domain_id: 't.domain_id',
  order_id: 't.order_id',
  actor_label: 't.actor_label',
  settled_at: 't.settled_at',
  updated_at: 't.updated_at',
} as const
// LEFT joins on primary keys: the page's key query, which reads no column of theirs, leaves them out (join removal).
const FROM = `transactions t ${joinAccounts('a', 't.account_id', { left: true })} LEFT JOIN billing_entities be ON be.id = t.billing_entity_id`

/** Every transaction (staff in their own group). */
export const transactionsResource = listResource(TRANSACTIONS_LIST, { from: FROM, tiebreak: 't.id', columns })
/** The transactions of the scope's account. */
export const scopedTransactionsResource = listResource(TRANSACTIONS_LIST, { from: FROM, accountColumn: 't.account_id', tiebreak: 't.id', columns })
