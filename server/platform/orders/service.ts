import type { Kysely } from 'kysely'
import { checkTldScripts, IDN_NAME_MESSAGES, parseDomainName, type DomainNameError } from '#common/domain-name.ts'
import { tldScripts } from '#common/idna.ts'
import { currencyDecimals } from '#common/money.ts'
import { registryErrorToAppError } from '#server/integrations/registry/index.ts'
import type { DB } from '#server/db/schema.ts'
import {
  ORDER_ITEM_STATES,
  ORDER_STATES,
  type CartItem,
  type MoneyTotal,
  type Order,
  type OrderItem,
  type OrderItemEvent,
  type OrderContacts,
  type OrderItemType,
  type OrderState,
} from '#server/db/schema-orders.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { change, txRunner, type Tx } from '#server/platform/core/change.ts'
import { AppError, badRequest, conflict, notFound, type FieldError } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { CONTACT_ROLES } from '#common/vocabulary.ts'
import { listResource } from '#server/platform/list/engine.ts'
import { ORDERS_LIST } from '#common/lists/orders.ts'
import { releaseCharge, reserveAgain, reserveCharges, type Charge } from '#server/platform/billing/transactions.ts'
import { checkTemplateValues } from '#server/platform/products/templates.ts'
import { liveDomainNamed } from '#server/platform/domains/reads.ts'
import { joinAccounts } from '#server/platform/accounts/reads.ts'
import { contactsOfAccount } from '#server/platform/contacts/reads.ts'
import { tldNamed } from '#server/platform/tlds/reads.ts'
import { accountPricing } from '#server/platform/pricing/service.ts'
import { registryFor } from '#server/platform/registries/connection.ts'

export const ORDER_JOBS = { item: 'orders.item', transferCheck: 'orders.transfer-check' } as const
/** Automatic runs of an item before a transient failure becomes final (pg-boss retries = this − 1). */
export const MAX_RUN_ATTEMPTS = 6

type Deps = Pick<PlatformDeps, 'db' | 'registries' | 'jobs'>

/** Why an item is refused before it is ordered; the portal localises by this reason. */
export type RefusalReason =
  | 'invalid-name'
  | 'tld-not-offered'
  | 'period-not-allowed'
  | 'auth-code-required'
  | 'unavailable'
  | 'not-registered'
  | 'already-held'
  | 'in-cart'
  | 'no-registry'
  | 'not-held'
  | 'registrant-required'
  | 'unknown-contact'
  | 'no-exchange-rate'
  | 'price-changed'

const refusal = (status: number, reason: RefusalReason, field: string, message: string, extra: Record<string, unknown> = {}) =>
  new AppError(status, status === 409 ? 'conflict' : 'invalid-request', message, { errors: [{ field, message }], extra: { reason, ...extra } })

export type ItemInput = { type: OrderItemType; name: string; period: number; auth_code?: string | null | undefined; template_values?: Record<string, unknown> | undefined }
type PricedItem = {
  type: OrderItemType
  name: string
  unicode_name: string
  tld: string
  period: number
  auth_code: string | null
  price_minor: number
  currency: string
  quote?: string
  template_values?: string | null
}

const NAME_MESSAGES: Record<DomainNameError, string> = {
  ...IDN_NAME_MESSAGES,
  empty: 'Enter a domain name',
  'too-long': 'The name is longer than 253 characters',
  'label-empty': 'The name has an empty label',
  'label-too-long': 'A label is longer than 63 characters',
  'label-hyphen-edge': 'A label starts or ends with a hyphen',
  'label-hyphen-34': 'Hyphens in places 3 and 4 are only allowed in xn-- labels',
  'label-characters': 'Only letters, digits and hyphens are allowed',
  'idn-round-trip': 'The internationalised name does not convert back to itself',
  'single-label': 'Enter a full name with its TLD, like example.com',
  'label-space': 'A domain name has no spaces: write it without them, or put each name on its own line',
  'unknown-tld': 'The TLD is not in the list of TLDs',
}

/**
 * Validates one item: the name (label rules, known TLD), the TLD offered with a list price, the
 * period among the TLD's periods, the auth code for a transfer, and the registry's availability.
 * `prefix` names the field in errors (`items.0.` for orders, '' for the cart).
 */
export async function priceItem(deps: Deps, scope: Scope, input: ItemInput, prefix = ''): Promise<PricedItem> {
  const accountId = scope.accountId!
  const parsed = parseDomainName(input.name)
  if (!parsed.ok) throw refusal(400, 'invalid-name', `${prefix}name`, `Invalid domain name: ${NAME_MESSAGES[parsed.error]}`, { name_error: parsed.error })
  const { ascii, unicode, tld } = parsed.domain
  const tldRow = await tldNamed(deps.db, tld).select(['name', 'unicode_name', 'is_offered', 'periods', 'list_price_minor', 'currency', 'idn_scripts']).executeTakeFirst()
  if (!tldRow?.is_offered || tldRow.list_price_minor === null) throw refusal(400, 'tld-not-offered', `${prefix}name`, `.${unicode.split('.').at(-1)} is not offered`)
  // The scripts the TLD takes (its catalogue entry, else the default: issue 26).
  const scriptError = checkTldScripts(parsed.domain, tldScripts(tldRow.name, tldRow.unicode_name, tldRow.idn_scripts))
  if (scriptError) throw refusal(400, 'invalid-name', `${prefix}name`, `Invalid domain name: ${NAME_MESSAGES[scriptError]}`, { name_error: scriptError })
  if (input.type !== 'renew' && !tldRow.periods.includes(input.period)) {
    throw new AppError(400, 'invalid-request', `A period of ${input.period} year(s) is not allowed for .${tld}`, {
      errors: [{ field: `${prefix}period`, message: `Allowed periods for .${tld}: ${tldRow.periods.join(', ')} year(s)`, allowed: tldRow.periods.map(String) }],
      extra: { reason: 'period-not-allowed', allowed_periods: tldRow.periods },
    })
  }
  const authCode = input.auth_code?.trim() || null
  if (input.type === 'transfer' && !authCode) throw refusal(400, 'auth-code-required', `${prefix}auth_code`, 'A transfer needs the auth code from the current registrar')

  const held = await liveDomainNamed(deps.db, ascii).select(['id', 'account_id']).executeTakeFirst()
  if (input.type === 'renew') {
    if (held?.account_id !== accountId) throw refusal(404, 'not-held', `${prefix}name`, `${unicode} is not in this account's portfolio`)
  } else if (held?.account_id === accountId) {
    throw refusal(409, 'already-held', `${prefix}name`, `${unicode} is already in this account's portfolio`)
  }

  if (input.type !== 'renew') {
    const connection = registryFor(deps, tld)
    let available: boolean
    let reason: string | undefined
    try {
      const [result] = await connection.checkDomains([ascii])
      available = result?.available ?? false
      reason = result?.reason
    } catch (error) {
      throw registryErrorToAppError(error)
    }
    if (input.type === 'register' && !available) {
      throw refusal(409, 'unavailable', `${prefix}name`, `${unicode} is not available${reason ? ` (${reason})` : ''}`, { registry_reason: reason ?? null })
    }
    if (input.type === 'transfer' && available) throw refusal(400, 'not-registered', `${prefix}name`, `${unicode} is not registered, so it cannot be transferred`)
  }
  const price = await (await accountPricing(deps.db, accountId)).price({ name: tld, list_price_minor: tldRow.list_price_minor, currency: tldRow.currency }, input.period, `${prefix}name`, input.type)
  return { type: input.type, name: ascii, unicode_name: unicode, tld, period: input.period, auth_code: input.type === 'transfer' ? authCode : null, ...price }
}

/** Sums per currency (never across currencies), sorted by currency code. */
export function totalsOf(items: { price_minor: number | string; currency: string }[]): MoneyTotal[] {
  const sums = new Map<string, number>()
  for (const item of items) sums.set(item.currency, (sums.get(item.currency) ?? 0) + Number(item.price_minor))
  return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, minor]) => ({ currency, minor }))
}

/** Totals as plain text for CSV and sorting: "EUR 25.98; JPY 3900". */
export const totalsText = (totals: MoneyTotal[]) => totals.map((t) => `${t.currency} ${(t.minor / 10 ** currencyDecimals(t.currency)).toFixed(currencyDecimals(t.currency))}`).join('; ')

// ------------------------------------------------------------------ cart

function requireUserScope(scope: Scope): { accountId: string; userId: string } {
  if (!scope.accountId || !scope.actor.userId) throw badRequest('A signed-in user acting in an account is required')
  return { accountId: scope.accountId, userId: scope.actor.userId }
}

export type CartView = { items: CartItemJson[]; totals: MoneyTotal[] }
export type CartItemJson = Omit<CartItem, 'auth_code' | 'price_minor' | 'created_at' | 'updated_at' | 'account_id' | 'user_id'> & {
  /** What checkout charges for it now (the account's quote at this moment). */
  price_minor: number
  /** The price when it was added to the cart (or its period last changed). */
  added_price_minor: number
  added_currency: string
  /** The price now differs from the price when it was added (a pricing rule or rate changed since). */
  price_changed: boolean
  has_auth_code: boolean
  created_at: string
}

/** A cart item as the API shows it; `now` is its price at this moment where it was quoted again (the cart), else the price it was stored at. */
const cartItemJson = (row: CartItem, now?: { price_minor: number; currency: string }): CartItemJson => {
  const added = { price_minor: Number(row.price_minor), currency: row.currency.trim() }
  const price = now ?? added
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    unicode_name: row.unicode_name,
    tld: row.tld,
    period: row.period,
    currency: price.currency,
    price_minor: price.price_minor,
    added_price_minor: added.price_minor,
    added_currency: added.currency,
    price_changed: price.price_minor !== added.price_minor || price.currency !== added.currency,
    has_auth_code: Boolean(row.auth_code),
    created_at: row.created_at.toISOString(),
  }
}

type AccountPricing = Awaited<ReturnType<typeof accountPricing>>

/**
 * What checkout charges for a cart item now: the account's quote of its product and period, each
 * item quoted on its own. The cart shows it and checkout charges it — one function, so the total
 * shown is the total charged (issue 26), whatever rule or rate changed since the item was added.
 */
const quoteCartItem = (pricing: AccountPricing, row: Pick<CartItem, 'tld' | 'period' | 'type'>, field = 'name') =>
  pricing.price({ name: row.tld, list_price_minor: null, currency: '' }, row.period, field, row.type)

/**
 * The user's cart, each item at what checkout would charge now beside its price when added (flagged
 * where they differ). An item that cannot be quoted now (its TLD no longer priced, no exchange
 * rate) shows the price it was added at: checkout refuses it, saying why.
 */
export async function getCart(db: Kysely<DB>, scope: Scope): Promise<CartView> {
  requirePermission(scope.actor, 'domain-viewer')
  const { accountId, userId } = requireUserScope(scope)
  const rows = await db.selectFrom('cart_items').selectAll().where('account_id', '=', accountId).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute()
  if (!rows.length) return { items: [], totals: [] }
  // A refusal (no price, no rate) leaves the stored price shown; anything else is a failure.
  const unquoted = (error: unknown) => {
    if (error instanceof AppError && error.status < 500) return undefined
    throw error
  }
  const pricing = await accountPricing(db, accountId).catch(unquoted)
  const items: CartItemJson[] = []
  for (const row of rows) items.push(cartItemJson(row, pricing ? await quoteCartItem(pricing, row).catch(unquoted) : undefined))
  return { items, totals: totalsOf(items) }
}

export async function addToCart(deps: Deps, scope: Scope, input: ItemInput): Promise<CartItemJson> {
  requirePermission(scope.actor, 'domain-manager')
  const { accountId, userId } = requireUserScope(scope)
  if (input.type === 'renew') throw badRequest('Renewals are ordered from the domain, not the cart', [{ field: 'type', message: 'Choose register or transfer', allowed: ['register', 'transfer'] }])
  const parsed = parseDomainName(input.name)
  if (parsed.ok) {
    const inCart = await deps.db.selectFrom('cart_items').select('id').where('account_id', '=', accountId).where('user_id', '=', userId).where('name', '=', parsed.domain.ascii).executeTakeFirst()
    if (inCart) throw refusal(409, 'in-cart', 'name', `${parsed.domain.unicode} is in the cart already`)
  }
  const priced = await priceItem(deps, scope, input)
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .insertInto('cart_items')
      .values({ account_id: accountId, user_id: userId, ...priced })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'domains',
      entityType: 'cart-item',
      entityId: row.id,
      action: 'add',
      after: { name: row.name, type: row.type, period: row.period, price_minor: Number(row.price_minor), currency: row.currency },
    })
    return cartItemJson(row)
  })
}

/** Changes the period (re-priced, re-checked against the TLD's periods) or the auth code of a cart item. */
export async function updateCartItem(deps: Deps, scope: Scope, id: string, patch: { period?: number; auth_code?: string | null }): Promise<CartItemJson> {
  requirePermission(scope.actor, 'domain-manager')
  const { accountId, userId } = requireUserScope(scope)
  const current = await deps.db.selectFrom('cart_items').selectAll().where('id', '=', id).where('account_id', '=', accountId).where('user_id', '=', userId).executeTakeFirst()
  if (!current) throw notFound('Cart item not found')
  const tld = await tldNamed(deps.db, current.tld).select(['periods', 'list_price_minor', 'currency', 'is_offered']).executeTakeFirstOrThrow()
  const period = patch.period ?? current.period
  if (!tld.periods.includes(period)) {
    throw new AppError(400, 'invalid-request', `A period of ${period} year(s) is not allowed for .${current.tld}`, {
      errors: [{ field: 'period', message: `Allowed periods for .${current.tld}: ${tld.periods.join(', ')} year(s)`, allowed: tld.periods.map(String) }],
      extra: { reason: 'period-not-allowed', allowed_periods: tld.periods },
    })
  }
  if (!tld.is_offered || tld.list_price_minor === null) throw refusal(400, 'tld-not-offered', 'name', `.${current.tld} is not offered`)
  const authCode = patch.auth_code === undefined ? current.auth_code : patch.auth_code?.trim() || null
  if (current.type === 'transfer' && !authCode) throw refusal(400, 'auth-code-required', 'auth_code', 'A transfer needs the auth code from the current registrar')
  const price = await (await accountPricing(deps.db, accountId)).price({ name: current.tld, list_price_minor: tld.list_price_minor, currency: tld.currency }, period, 'name', current.type)
  return change(deps.db, scope, async (tx, audit) => {
    const row = await tx
      .updateTable('cart_items')
      .set({ period, auth_code: authCode, ...price, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'domains',
      entityType: 'cart-item',
      entityId: id,
      action: 'update',
      before: { period: current.period, price_minor: Number(current.price_minor) },
      after: { period: row.period, price_minor: Number(row.price_minor) },
    })
    return cartItemJson(row)
  })
}

export async function removeCartItem(db: Kysely<DB>, scope: Scope, id: string): Promise<void> {
  requirePermission(scope.actor, 'domain-manager')
  const { accountId, userId } = requireUserScope(scope)
  await change(db, scope, async (tx, audit) => {
    const row = await tx.deleteFrom('cart_items').where('id', '=', id).where('account_id', '=', accountId).where('user_id', '=', userId).returningAll().executeTakeFirst()
    if (!row) throw notFound('Cart item not found')
    await audit.record({ area: 'domains', entityType: 'cart-item', entityId: id, action: 'remove', before: { name: row.name, type: row.type, period: row.period } })
  })
}

/**
 * Turns the user's cart into an order (prices and periods checked again now) and empties it. With
 * `expected_totals` (the totals the cart showed), a cart whose quote changed since is refused
 * (409 price-changed, the new totals stated) and nothing is ordered: what is charged is what was shown.
 */
export async function checkoutCart(
  deps: Deps,
  scope: Scope,
  input: { contacts?: ContactsInput | undefined; template_values?: Record<string, Record<string, unknown>> | undefined; expected_totals?: MoneyTotal[] | undefined } = {},
): Promise<OrderView> {
  requirePermission(scope.actor, 'domain-manager')
  const { accountId, userId } = requireUserScope(scope)
  const rows = await deps.db.selectFrom('cart_items').selectAll().where('account_id', '=', accountId).where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute()
  if (!rows.length) throw badRequest('The cart is empty', [{ field: '(body)', message: 'Add a name to the cart first' }], { reason: 'cart-empty' })
  const priced: PricedItem[] = []
  const tlds = new Map<string, { periods: number[]; list_price_minor: number | string | null; currency: string; is_offered: boolean }>()
  const errors: FieldError[] = []
  const pricing = await accountPricing(deps.db, accountId)
  // Each item at what the cart shows now (quoteCartItem), not the price it was added at.
  for (const [index, row] of rows.entries()) {
    let tld = tlds.get(row.tld)
    if (!tld) {
      tld = await tldNamed(deps.db, row.tld).select(['periods', 'list_price_minor', 'currency', 'is_offered']).executeTakeFirstOrThrow()
      tlds.set(row.tld, tld)
    }
    if (!tld.is_offered || tld.list_price_minor === null) errors.push({ field: `items.${index}.name`, message: `.${row.tld} is not offered any more` })
    else if (!tld.periods.includes(row.period))
      errors.push({ field: `items.${index}.period`, message: `Allowed periods for .${row.tld}: ${tld.periods.join(', ')} year(s)`, allowed: tld.periods.map(String) })
    else {
      const price = await quoteCartItem(pricing, row, `items.${index}.name`)
      priced.push({ type: row.type, name: row.name, unicode_name: row.unicode_name, tld: row.tld, period: row.period, auth_code: row.auth_code, ...price, template_values: null })
    }
  }
  // The registrar template's fields of each item (issue 17), checked against its schema and kept on the order item.
  const templates = await checkTemplateValues(deps.db, rows, input.template_values)
  errors.push(...templates.errors)
  for (const [index, item] of priced.entries()) item.template_values = templates.kept.get(rows[index]!.id) ?? null
  if (errors.length) throw badRequest('Some items of the cart cannot be ordered', errors)
  if (input.expected_totals) {
    const totals = totalsOf(priced)
    const key = (list: MoneyTotal[]) =>
      list
        .map((t) => `${t.currency} ${t.minor}`)
        .sort()
        .join('; ')
    if (key(totals) !== key(input.expected_totals)) throw refusal(409, 'price-changed', '(body)', `The cart's prices changed since it was shown: it now totals ${totalsText(totals)}`, { totals })
  }
  const contacts = await orderContacts(deps.db, accountId, priced, input.contacts)
  return createOrderFromItems(deps, scope, priced, contacts, async (tx) => {
    await tx
      .deleteFrom('cart_items')
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute()
  })
}

// ------------------------------------------------------------------ orders

/** POST /orders: every item validated (all or nothing), then one order whose items run as jobs. */
export async function createOrder(deps: Deps, scope: Scope, items: ItemInput[], contactsInput?: ContactsInput): Promise<OrderView> {
  requirePermission(scope.actor, 'domain-manager')
  const { accountId } = requireUserScope(scope)
  const names = new Set<string>()
  const priced: PricedItem[] = []
  const errors: FieldError[] = []
  let reason: unknown
  for (const [index, item] of items.entries()) {
    try {
      const p = await priceItem(deps, scope, item, `items.${index}.`)
      if (names.has(p.name)) throw refusal(400, 'in-cart', `items.${index}.name`, `${p.unicode_name} is in the order twice`)
      names.add(p.name)
      priced.push(p)
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500 || error.status === 429 || !error.errors) throw error
      errors.push(...error.errors)
      reason ??= error.extra?.reason
    }
  }
  if (errors.length) throw badRequest('Some items cannot be ordered', errors, reason ? { reason } : undefined)
  // The registrar template's fields of each item (issue 17), as at checkout: refused at items.<i>.template_values.<property>.
  const templates = await checkTemplateValues(
    deps.db,
    priced.map((p, index) => ({ id: String(index), tld: p.tld, type: p.type })),
    Object.fromEntries(items.map((item, index) => [String(index), item.template_values ?? {}])),
    (id, property) => `items.${id}.template_values.${property}`,
  )
  if (templates.errors.length) throw badRequest('Some items cannot be ordered', templates.errors)
  for (const [index, p] of priced.entries()) p.template_values = templates.kept.get(String(index)) ?? null
  return createOrderFromItems(deps, scope, priced, await orderContacts(deps.db, accountId, priced, contactsInput))
}

export type ContactsInput = { registrant?: string | undefined; admin?: string | undefined; tech?: string | undefined; billing?: string | undefined }

/**
 * The contacts an order registers with: a registration needs a registrant; admin, tech and
 * billing are the registrant unless chosen; every one a contact of the order's account. Orders
 * without registrations keep none (a transfer keeps the contacts it has at the registry).
 */
async function orderContacts(db: Kysely<DB>, accountId: string, items: PricedItem[], input: ContactsInput | undefined): Promise<OrderContacts | null> {
  if (!items.some((i) => i.type === 'register')) return null
  if (!input?.registrant) throw refusal(400, 'registrant-required', 'contacts.registrant', 'A registration needs a registrant contact')
  const contacts: OrderContacts = { registrant: input.registrant, admin: input.admin || input.registrant, tech: input.tech || input.registrant, billing: input.billing || input.registrant }
  const known = new Set(
    (
      await contactsOfAccount(db, accountId)
        .select('id')
        .where('id', 'in', [...new Set(Object.values(contacts))])
        .execute()
    ).map((c) => c.id),
  )
  const unknown = CONTACT_ROLES.filter((role) => !known.has(contacts[role]))
  if (unknown.length) {
    throw new AppError(400, 'invalid-request', 'Unknown contact', {
      errors: unknown.map((role) => ({ field: `contacts.${role}`, message: 'Unknown contact' })),
      extra: { reason: 'unknown-contact' satisfies RefusalReason },
    })
  }
  return contacts
}

async function createOrderFromItems(deps: Deps, scope: Scope, items: PricedItem[], contacts: OrderContacts | null, alsoInTx?: (tx: Tx) => Promise<void>): Promise<OrderView> {
  const { accountId, userId } = requireUserScope(scope)
  const totals = totalsOf(items)
  const orderId = await change(deps.db, scope, async (tx, audit) => {
    const order = await tx
      .insertInto('orders')
      .values({
        account_id: accountId,
        user_id: userId,
        created_by: scope.actor.label,
        item_count: items.length,
        names: items.map((i) => i.unicode_name).join(' '),
        totals: JSON.stringify(totals),
        total_text: totalsText(totals),
        contacts: contacts ? JSON.stringify(contacts) : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    const charges: Charge[] = []
    for (const [position, item] of items.entries()) {
      const row = await tx
        .insertInto('order_items')
        .values({ order_id: order.id, account_id: accountId, position, ...item })
        .returning('id')
        .executeTakeFirstOrThrow()
      charges.push(itemCharge({ ...item, id: row.id, order_id: order.id }))
      await tx
        .insertInto('order_item_events')
        .values({ item_id: row.id, state: 'pending', message: `Ordered: ${item.type} ${item.unicode_name} for ${item.period} year(s)`, actor_label: scope.actor.label })
        .execute()
      // The job is part of this transaction: no order without its jobs, no job without its order.
      await deps.jobs.send(ORDER_JOBS.item, { itemId: row.id }, { runner: txRunner(tx), retryLimit: MAX_RUN_ATTEMPTS - 1 })
    }
    // Charged in this transaction at the quote the item was placed at; past the balance or credit
    // limit the whole order is refused here, before any job reaches a registry (issue 18).
    await reserveCharges(tx, scope, accountId, charges)
    await alsoInTx?.(tx)
    await audit.record({
      area: 'domains',
      entityType: 'order',
      entityId: order.id,
      action: 'create',
      after: { items: items.map((i) => ({ type: i.type, name: i.name, period: i.period, price_minor: i.price_minor, currency: i.currency })), totals, ...(contacts ? { contacts } : {}) },
    })
    return order.id
  })
  return getOrder(deps.db, scope, orderId)
}

/** An order item's charge: its idempotency key names the item, so a retry never charges twice. */
export const itemChargeKey = (itemId: string) => `order-item:${itemId}`
function itemCharge(item: PricedItem & { id: string; order_id: string }): Charge {
  const quote = item.quote ? (JSON.parse(item.quote) as Charge['quote']) : null
  return {
    key: itemChargeKey(item.id),
    kind: 'domain',
    action: item.type,
    object_name: item.unicode_name,
    period: item.period,
    amount_minor: item.price_minor,
    currency: item.currency,
    quote,
    product_code: `domain:${item.tld}:${item.type}`,
    order_id: item.order_id,
    order_item_id: item.id,
  }
}

export type OrderItemJson = Omit<OrderItem, 'auth_code' | 'new_auth_code' | 'price_minor' | 'created_at' | 'updated_at' | 'account_id' | 'run_attempts' | 'transfer_checks'> & {
  price_minor: number
  /** The registrar template's values it was ordered with (issue 17). */
  template_values: Record<string, unknown> | null
  created_at: string
  updated_at: string
  retryable: boolean
  cancellable: boolean
  log: { occurred_at: string; state: string; message: string; registry_code: number | null; actor_label: string }[]
}
export type OrderView = Omit<Order, 'created_at' | 'updated_at' | 'user_id'> & { created_at: string; updated_at: string; items: OrderItemJson[] }

const eventJson = (e: OrderItemEvent) => ({ occurred_at: e.occurred_at.toISOString(), state: e.state, message: e.message, registry_code: e.registry_code, actor_label: e.actor_label })

export async function getOrder(db: Kysely<DB>, scope: Scope, id: string): Promise<OrderView> {
  requirePermission(scope.actor, 'domain-viewer')
  if (!scope.accountId) throw notFound('Order not found')
  const order = await db.selectFrom('orders').selectAll().where('id', '=', id).where('account_id', '=', scope.accountId).executeTakeFirst()
  if (!order) throw notFound('Order not found')
  const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', id).orderBy('position').execute()
  const events = items.length
    ? await db
        .selectFrom('order_item_events')
        .selectAll()
        .where(
          'item_id',
          'in',
          items.map((i) => i.id),
        )
        .orderBy('occurred_at')
        .orderBy('id')
        .execute()
    : []
  const { user_id: _user, ...rest } = order
  return {
    ...rest,
    created_at: order.created_at.toISOString(),
    updated_at: order.updated_at.toISOString(),
    items: items.map((item) => ({
      id: item.id,
      order_id: item.order_id,
      position: item.position,
      type: item.type,
      name: item.name,
      unicode_name: item.unicode_name,
      tld: item.tld,
      period: item.period,
      currency: item.currency,
      price_minor: Number(item.price_minor),
      state: item.state,
      attempts: item.attempts,
      last_error: item.last_error,
      registry_code: item.registry_code,
      domain_id: item.domain_id,
      template_values: item.template_values ?? null,
      created_at: item.created_at.toISOString(),
      updated_at: item.updated_at.toISOString(),
      retryable: item.state === 'failed',
      cancellable: item.state === 'pending',
      log: events.filter((e) => e.item_id === item.id).map(eventJson),
    })),
  }
}

/** Derives the order's state from its items: the one place where that rule lives. */
export function orderStateOf(states: string[]): OrderState {
  const count = (s: string) => states.filter((x) => x === s).length
  const live = states.length - count('cancelled')
  if (live === 0) return 'cancelled'
  if (count('pending') + count('processing') > 0) return count('pending') === live ? 'pending' : 'processing'
  if (count('completed') === live) return 'completed'
  if (count('failed') === live) return 'failed'
  return 'partial'
}

/** Recomputes the order's state and counts after one of its items changed (same transaction). */
export async function refreshOrder(tx: Tx, orderId: string): Promise<void> {
  const items = await tx.selectFrom('order_items').select('state').where('order_id', '=', orderId).execute()
  const states = items.map((i) => i.state)
  await tx
    .updateTable('orders')
    .set((eb) => ({
      state: orderStateOf(states),
      completed_count: states.filter((s) => s === 'completed').length,
      failed_count: states.filter((s) => s === 'failed').length,
      version: eb('version', '+', 1),
      updated_at: new Date(),
    }))
    .where('id', '=', orderId)
    .execute()
}

/** The user asks a failed item to run again: a new run with its own automatic retries. */
export async function retryItem(deps: Deps, scope: Scope, orderId: string, itemId: string): Promise<OrderView> {
  requirePermission(scope.actor, 'domain-manager')
  if (!scope.accountId) throw notFound('Order not found')
  await change(deps.db, scope, async (tx, audit) => {
    const item = await tx
      .selectFrom('order_items')
      .select(['id', 'state', 'name'])
      .where('id', '=', itemId)
      .where('order_id', '=', orderId)
      .where('account_id', '=', scope.accountId!)
      .forUpdate()
      .executeTakeFirst()
    if (!item) throw notFound('Order item not found')
    if (item.state !== 'failed') throw conflict(`Only a failed item can be retried; this one is ${item.state}`, { reason: 'not-retryable', state: item.state })
    // Its released charge is reserved again (the same row, the same funds check).
    await reserveAgain(tx, scope, itemChargeKey(itemId))
    await tx.updateTable('order_items').set({ state: 'pending', run_attempts: 0, transfer_checks: 0, updated_at: new Date() }).where('id', '=', itemId).execute()
    await tx.insertInto('order_item_events').values({ item_id: itemId, state: 'pending', message: 'Retry requested', actor_label: scope.actor.label }).execute()
    await deps.jobs.send(ORDER_JOBS.item, { itemId }, { runner: txRunner(tx), retryLimit: MAX_RUN_ATTEMPTS - 1 })
    await refreshOrder(tx, orderId)
    await audit.record({ area: 'domains', entityType: 'order-item', entityId: itemId, action: 'retry', before: { state: 'failed' }, after: { state: 'pending', name: item.name } })
  })
  return getOrder(deps.db, scope, orderId)
}

/** Cancels the order's pending items (those not yet sent to the registry); the others are left as they are. */
export async function cancelOrder(db: Kysely<DB>, scope: Scope, orderId: string, itemIds?: string[]): Promise<OrderView> {
  requirePermission(scope.actor, 'domain-manager')
  if (!scope.accountId) throw notFound('Order not found')
  await change(db, scope, async (tx, audit) => {
    const order = await tx.selectFrom('orders').select('id').where('id', '=', orderId).where('account_id', '=', scope.accountId!).forUpdate().executeTakeFirst()
    if (!order) throw notFound('Order not found')
    let query = tx.updateTable('order_items').set({ state: 'cancelled', updated_at: new Date() }).where('order_id', '=', orderId).where('state', '=', 'pending')
    if (itemIds?.length) query = query.where('id', 'in', itemIds)
    const cancelled = await query.returning(['id', 'name']).execute()
    if (!cancelled.length) throw conflict('No pending item to cancel', { reason: 'nothing-to-cancel' })
    for (const item of cancelled) {
      await tx.insertInto('order_item_events').values({ item_id: item.id, state: 'cancelled', message: 'Cancelled', actor_label: scope.actor.label }).execute()
      await releaseCharge(tx, scope, itemChargeKey(item.id), 'Cancelled')
    }
    await refreshOrder(tx, orderId)
    await audit.record({ area: 'domains', entityType: 'order', entityId: orderId, action: 'cancel', after: { cancelled: cancelled.map((i) => i.name) } })
  })
  return getOrder(db, scope, orderId)
}

/** The orders of an account as a list resource of the one list engine. */
export const ordersResource = listResource(ORDERS_LIST, {
  from: `orders o ${joinAccounts('a', 'o.account_id')}`,
  accountColumn: 'o.account_id',
  tiebreak: 'o.id',
  columns: {
    id: 'o.id',
    state: 'o.state',
    names: 'o.names',
    item_name: 'ARRAY(SELECT oi.name FROM order_items oi WHERE oi.order_id = o.id)',
    item_count: 'o.item_count',
    completed_count: 'o.completed_count',
    failed_count: 'o.failed_count',
    totals: 'o.totals',
    total_text: 'o.total_text',
    created_by: 'o.created_by',
    group_id: 'o.account_id',
    'account.name': 'a.name',
    created_at: 'o.created_at',
    updated_at: 'o.updated_at',
  },
})

export { ORDER_ITEM_STATES, ORDER_STATES }
