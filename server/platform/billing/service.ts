import { sql, type Kysely } from 'kysely'
import { INVOICE_LANGUAGES, normaliseVatId, PAYMENT_KINDS, vatIdFits, VAT_EXAMPLES, type InvoiceLanguage, type PaymentKind } from '#common/billing.ts'
import { isCountryCode } from '#common/countries.ts'
import { BILLING_ENTITIES_LIST, BILLING_ENTITY_LOG_LIST } from '#common/lists/billing.ts'
import type { ListQuery } from '#common/list-query.ts'
import { formatMoney, INVALID_MONETARY_VALUE, parseMoney } from '#common/money.ts'
import type { DB } from '#server/db/schema.ts'
import type { BillingAddress, BillingBalance, BillingEntity, BillingPayment } from '#server/db/schema-billing.ts'
import { reachOf, requirePermission } from '#server/platform/core/scope.ts'
import { change, type Tx } from '#server/platform/core/change.ts'
import { type CodedFieldError, fieldError, invalid, notFound, staleVersion } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { listResource, runList, type ListPage } from '#server/platform/list/engine.ts'
import { AUDIT_COLUMNS } from '#server/platform/audit/http.ts'
import { auditEntries } from '#server/platform/audit/reads.ts'
import { accountById, accountsPaidBy, countAccounts, joinAccounts } from '#server/platform/accounts/reads.ts'
import { setAccountBillingEntity } from '#server/platform/accounts/writes.ts'

/**
 * Billing entities (issue 18): the legal entity that pays for one or more accounts, with a money
 * position per currency (a prepaid balance, or a credit limit below zero), and the payments and
 * adjustments staff record against it. Staff manage them; a client's invoice viewer reads the one
 * that pays for its account (reachOf), nobody else's.
 */

const AREA = 'invoicing'
/**
 * Where an entity's changes are audited: the staff member's own account (the one they run billing
 * from, as price lists are), whatever client context they acted in; the seed's in none.
 */
const trailOf = (scope: Scope) => scope.actor.homeAccountId ?? null
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const ADDRESS_KEYS = ['street1', 'street2', 'street3', 'city', 'state', 'postcode'] as const

const balanceText = `(SELECT string_agg(b.currency || ' ' || CASE WHEN b.currency = 'JPY' THEN b.balance_minor::text ELSE to_char(b.balance_minor / 100.0, 'FM999999999990.00') END, '; ' ORDER BY b.currency) FROM billing_balances b WHERE b.billing_entity_id = be.id)`
const columns = {
  id: 'be.id',
  name: 'be.name',
  country: 'be.country',
  vat_id: 'be.vat_id',
  currency: 'be.currency',
  payment_terms_days: 'be.payment_terms_days',
  invoice_language: 'be.invoice_language',
  billing_email: 'be.billing_email',
  accounts: { column: countAccounts('a', 'a.billing_entity_id = be.id'), joined: true },
  balance_text: { column: balanceText, joined: true },
  version: 'be.version',
  created_at: 'be.created_at',
  updated_at: 'be.updated_at',
} as const

/** Every billing entity (staff in their own group). */
export const billingEntitiesResource = listResource(BILLING_ENTITIES_LIST, { from: 'billing_entities be', tiebreak: 'be.id', columns })
/** The entity that pays for the scope's account: the join reaches it through that account only. */
export const scopedBillingEntitiesResource = listResource(BILLING_ENTITIES_LIST, {
  from: `billing_entities be ${joinAccounts('scoped', 'be.id', { by: 'billing_entity_id' })}`,
  accountColumn: 'scoped.id',
  tiebreak: 'be.id',
  columns,
})

export type BalanceJson = { currency: string; balance_minor: number; credit_limit_minor: number; available_minor: number; low_balance_minor: number | null; version: number }
export type PaymentJson = {
  id: string
  kind: PaymentKind
  currency: string
  amount_minor: number
  reference: string
  reason: string
  balance_after_minor: number
  created_by: string
  created_at: string
}
export type BillingEntityJson = Omit<BillingEntity, 'created_at' | 'updated_at' | 'currency' | 'country'> & { currency: string; country: string; created_at: string; updated_at: string }
export type BillingEntityDetail = BillingEntityJson & { balances: BalanceJson[]; payments: PaymentJson[]; accounts: { id: string; name: string; currency: string }[] }

const entityJson = (row: BillingEntity): BillingEntityJson => ({
  ...row,
  currency: row.currency.trim(),
  country: row.country.trim(),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
})
export const balanceJson = (row: BillingBalance): BalanceJson => ({
  currency: row.currency.trim(),
  balance_minor: Number(row.balance_minor),
  credit_limit_minor: Number(row.credit_limit_minor),
  available_minor: Number(row.balance_minor) + Number(row.credit_limit_minor),
  low_balance_minor: row.low_balance_minor === null ? null : Number(row.low_balance_minor),
  version: row.version,
})
const paymentJson = (row: BillingPayment): PaymentJson => ({
  id: row.id,
  kind: row.kind,
  currency: row.currency.trim(),
  amount_minor: Number(row.amount_minor),
  reference: row.reference,
  reason: row.reason,
  balance_after_minor: Number(row.balance_after_minor),
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
})

/** The entity if the scope reaches it (staff: any; a client: the one paying for its account), else 404. */
export async function findBillingEntity(db: Kysely<DB> | Tx, scope: Scope, id: string, lock = false): Promise<BillingEntity> {
  const reach = reachOf(scope)
  let query = db.selectFrom('billing_entities as be').selectAll('be').where('be.id', '=', id)
  if (reach !== null) query = query.where('be.id', 'in', accountById(db, reach).select('accounts.billing_entity_id'))
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst()
  if (!row) throw notFound('Billing entity not found')
  return row
}

/** A billing entity's trail: its audit entries of area invoicing, in whichever account they were recorded (staff's own, decision 301). */
export const billingEntityLogResource = listResource(BILLING_ENTITY_LOG_LIST, {
  from: auditEntries('ae'),
  tiebreak: 'ae.id',
  where: "ae.area = 'invoicing' AND ae.entity_type = 'billing-entity'",
  columns: AUDIT_COLUMNS,
})

/** What a client reads of its entity's trail: all but the accounts put on it or taken off (which name other clients). */
const CLIENT_LOG_ACTIONS = ['create', 'update', 'terms', ...PAYMENT_KINDS, 'invoice', 'credit-note']

/**
 * The trail of an entity the scope can open (issue 28, item 16): staff read all of it, a client's
 * invoice viewer the entity that pays for its account, without the entries naming other accounts.
 */
export async function billingEntityLog(db: Kysely<DB>, scope: Scope, id: string, query: ListQuery): Promise<ListPage> {
  requirePermission(scope.actor, 'invoice-viewer')
  const entity = await findBillingEntity(db, scope, id)
  query.filters.push({ field: 'entity_id', operator: 'equals', values: [entity.id] })
  if (reachOf(scope) !== null) query.filters.push({ field: 'action', operator: 'equals', values: CLIENT_LOG_ACTIONS })
  return runList(db, billingEntityLogResource, query, { accountId: null })
}

export async function getBillingEntity(db: Kysely<DB>, scope: Scope, id: string): Promise<BillingEntityDetail> {
  requirePermission(scope.actor, 'invoice-viewer')
  const row = await findBillingEntity(db, scope, id)
  const balances = await db.selectFrom('billing_balances').selectAll().where('billing_entity_id', '=', id).orderBy('currency').execute()
  const payments = await db.selectFrom('billing_payments').selectAll().where('billing_entity_id', '=', id).orderBy('created_at', 'desc').orderBy('id').limit(50).execute()
  const reach = reachOf(scope)
  let accounts = accountsPaidBy(db, id).select(['id', 'name', 'currency']).orderBy('name')
  if (reach !== null) accounts = accounts.where('id', '=', reach)
  return { ...entityJson(row), balances: balances.map(balanceJson), payments: payments.map(paymentJson), accounts: (await accounts.execute()).map((a) => ({ ...a, currency: a.currency.trim() })) }
}

export type BillingEntityInput = {
  name: string
  address?: BillingAddress | undefined
  country: string
  vat_id?: string | null | undefined
  currency: string
  payment_terms_days?: number | undefined
  invoice_language?: InvoiceLanguage | undefined
  billing_email: string
  credit_limit?: string | number | undefined
}

type Cleaned = Partial<Omit<BillingEntityInput, 'credit_limit'>> & { credit_limit_minor?: number }

/** Checks and normalises an entity's fields; the VAT id against its country's shape. Every broken rule is reported. */
function cleanEntity(input: Partial<BillingEntityInput>, current: BillingEntity | null): Cleaned {
  const errors: CodedFieldError[] = []
  const out: Cleaned = {}
  if (input.name !== undefined || !current) {
    out.name = (input.name ?? '').trim()
    if (!out.name) errors.push(fieldError('name', 'field.required', 'This field is required'))
  }
  if (input.address !== undefined) out.address = Object.fromEntries(ADDRESS_KEYS.map((k) => [k, (input.address?.[k] ?? '').trim()]).filter(([, v]) => v))
  if (input.country !== undefined || !current) {
    out.country = (input.country ?? '').trim().toUpperCase()
    if (!isCountryCode(out.country)) errors.push(fieldError('country', 'country.invalid', 'Choose a country (ISO 3166-1 alpha-2 code)'))
  }
  if (input.currency !== undefined || !current) {
    out.currency = (input.currency ?? '').trim().toUpperCase()
    if (!CURRENCIES.has(out.currency)) errors.push(fieldError('currency', 'currency.invalid', 'Not an ISO 4217 currency code'))
  }
  if (input.billing_email !== undefined || !current) {
    out.billing_email = (input.billing_email ?? '').trim().toLowerCase()
    if (!EMAIL.test(out.billing_email)) errors.push(fieldError('billing_email', 'email.invalid', 'Please enter a valid email'))
  }
  if (input.payment_terms_days !== undefined) {
    out.payment_terms_days = input.payment_terms_days
    if (!Number.isInteger(input.payment_terms_days) || input.payment_terms_days < 0 || input.payment_terms_days > 365)
      errors.push(fieldError('payment_terms_days', 'billing.payment_terms', 'Payment terms are 0 to 365 days'))
  }
  if (input.invoice_language !== undefined) {
    out.invoice_language = input.invoice_language
    if (!INVOICE_LANGUAGES.includes(input.invoice_language)) errors.push(fieldError('invoice_language', 'billing.invoice_language', 'Invoices are written in en, es or ja', [...INVOICE_LANGUAGES]))
  }
  if (input.vat_id !== undefined) out.vat_id = input.vat_id?.trim() ? normaliseVatId(input.vat_id) : null
  const country = out.country ?? current?.country.trim() ?? ''
  const vat = out.vat_id !== undefined ? out.vat_id : (current?.vat_id ?? null)
  if (vat && isCountryCode(country) && !vatIdFits(country, vat)) {
    errors.push({
      ...fieldError('vat_id', 'billing.vat_id_shape', `This is not the shape of a VAT id of ${country}${VAT_EXAMPLES[country] ? ` (e.g. ${VAT_EXAMPLES[country]})` : ''}`),
      country,
      example: VAT_EXAMPLES[country] ?? '',
    } as CodedFieldError)
  }
  if (input.credit_limit !== undefined && input.credit_limit !== '') {
    const parsed = parseMoney(input.credit_limit, out.currency ?? current?.currency.trim() ?? 'EUR')
    if (!parsed.ok || parsed.minor < 0) errors.push(fieldError('credit_limit', INVALID_MONETARY_VALUE, 'Enter an amount of zero or more'))
    else out.credit_limit_minor = parsed.minor
  }
  if (errors.length) throw invalid(errors[0]!.code, 'The billing entity is not valid', errors)
  return out
}

const nameTaken = () => invalid('billing.name_taken', 'The name is taken', [fieldError('name', 'billing.name_taken', 'Another billing entity has this name')])

/** Makes a billing entity (staff), with its money position in its currency (prepaid unless a credit limit is given). */
export async function createBillingEntity(db: Kysely<DB>, scope: Scope, input: BillingEntityInput): Promise<BillingEntityDetail> {
  requirePermission(scope.actor, 'staff')
  const clean = cleanEntity(input, null)
  const id = await change(db, scope, async (tx, audit) => {
    if (
      await tx
        .selectFrom('billing_entities')
        .select('id')
        .where(sql`lower(name)`, '=', clean.name!.toLowerCase())
        .executeTakeFirst()
    )
      throw nameTaken()
    const row = await tx
      .insertInto('billing_entities')
      .values({
        name: clean.name!,
        address: JSON.stringify(clean.address ?? {}),
        country: clean.country!,
        vat_id: clean.vat_id ?? null,
        currency: clean.currency!,
        billing_email: clean.billing_email!,
        ...(clean.payment_terms_days !== undefined ? { payment_terms_days: clean.payment_terms_days } : {}),
        ...(clean.invoice_language ? { invoice_language: clean.invoice_language } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await tx
      .insertInto('billing_balances')
      .values({ billing_entity_id: row.id, currency: row.currency, credit_limit_minor: clean.credit_limit_minor ?? 0 })
      .execute()
    await audit.record({
      area: AREA,
      entityType: 'billing-entity',
      entityId: row.id,
      accountId: trailOf(scope),
      action: 'create',
      after: { ...entityJson(row), credit_limit_minor: clean.credit_limit_minor ?? 0 },
    })
    return row.id
  })
  return getBillingEntity(db, scope, id)
}

/** Edits an entity (staff); a stale version is refused (decision 006). */
export async function updateBillingEntity(db: Kysely<DB>, scope: Scope, id: string, patch: Partial<BillingEntityInput> & { version: number }): Promise<BillingEntityDetail> {
  // Visible first (another entity is a 404, never a 403 that confirms it), then staff work.
  await findBillingEntity(db, scope, id)
  requirePermission(scope.actor, 'staff')
  const { version, credit_limit: _limit, ...fields } = patch
  await change(db, scope, async (tx, audit) => {
    const before = await findBillingEntity(tx, scope, id, true)
    if (before.version !== version) throw staleVersion(before.version, 'billing entity')
    const clean = cleanEntity(fields, before)
    if (
      clean.name &&
      (await tx
        .selectFrom('billing_entities')
        .select('id')
        .where(sql`lower(name)`, '=', clean.name.toLowerCase())
        .where('id', '<>', id)
        .executeTakeFirst())
    )
      throw nameTaken()
    const { address, credit_limit_minor: _c, ...rest } = clean
    const after = await tx
      .updateTable('billing_entities')
      .set({ ...rest, ...(address ? { address: JSON.stringify(address) } : {}), version: before.version + 1, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    // A new invoicing currency gets its money position (prepaid, nothing in it).
    await tx
      .insertInto('billing_balances')
      .values({ billing_entity_id: id, currency: after.currency })
      .onConflict((oc) => oc.columns(['billing_entity_id', 'currency']).doNothing())
      .execute()
    await audit.record({ area: AREA, entityType: 'billing-entity', entityId: id, accountId: trailOf(scope), action: 'update', before: entityJson(before), after: entityJson(after) })
  })
  return getBillingEntity(db, scope, id)
}

/** Sets the credit limit (0: prepaid) and the low-balance threshold of one currency (staff). */
export async function setBalanceTerms(
  db: Kysely<DB>,
  scope: Scope,
  id: string,
  currency: string,
  input: { credit_limit: string | number; low_balance?: string | number | null | undefined },
): Promise<BalanceJson> {
  // Visible first (another entity is a 404, never a 403 that confirms it), then staff work.
  await findBillingEntity(db, scope, id)
  requirePermission(scope.actor, 'staff')
  const code = currency.toUpperCase()
  const errors: CodedFieldError[] = []
  if (!CURRENCIES.has(code)) errors.push(fieldError('currency', 'currency.invalid', 'Not an ISO 4217 currency code'))
  const limit = parseMoney(input.credit_limit, code)
  if (!limit.ok || limit.minor < 0) errors.push(fieldError('credit_limit', INVALID_MONETARY_VALUE, 'Enter an amount of zero or more'))
  const low = input.low_balance === null || input.low_balance === undefined || input.low_balance === '' ? null : parseMoney(input.low_balance, code)
  if (low && !low.ok) errors.push(fieldError('low_balance', INVALID_MONETARY_VALUE, 'Enter an amount'))
  if (errors.length) throw invalid(errors[0]!.code, 'The terms are not valid', errors)
  const creditMinor = limit.ok ? limit.minor : 0
  const lowMinor = low && low.ok ? low.minor : null
  return change(db, scope, async (tx, audit) => {
    await findBillingEntity(tx, scope, id, true)
    const before = await tx.selectFrom('billing_balances').selectAll().where('billing_entity_id', '=', id).where('currency', '=', code).forUpdate().executeTakeFirst()
    if (before && Number(before.balance_minor) < -creditMinor) {
      throw invalid('billing.limit_below_balance', 'The limit is below what is already owed', [
        fieldError('credit_limit', 'billing.limit_below_balance', `The balance is ${formatMoney(Number(before.balance_minor), code)}: the limit cannot be lower than what is owed`),
      ])
    }
    const row = await tx
      .insertInto('billing_balances')
      .values({ billing_entity_id: id, currency: code, credit_limit_minor: creditMinor, low_balance_minor: lowMinor })
      .onConflict((oc) =>
        oc
          .columns(['billing_entity_id', 'currency'])
          .doUpdateSet({ credit_limit_minor: creditMinor, low_balance_minor: lowMinor, low_balance_warned_at: null, version: sql`billing_balances.version + 1`, updated_at: new Date() }),
      )
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: AREA,
      entityType: 'billing-entity',
      entityId: id,
      accountId: trailOf(scope),
      action: 'terms',
      before: before ? { currency: code, credit_limit_minor: Number(before.credit_limit_minor), low_balance_minor: before.low_balance_minor === null ? null : Number(before.low_balance_minor) } : null,
      after: { currency: code, credit_limit_minor: creditMinor, low_balance_minor: lowMinor },
    })
    return balanceJson(row)
  })
}

export type PaymentInput = { kind: PaymentKind; currency: string; amount: string | number; reference?: string | undefined; reason?: string | undefined }

/**
 * Records a payment received or an adjustment (staff): in a currency the entity holds a position
 * in, a payment above zero, an adjustment never without its reason. Nothing is written otherwise.
 */
export async function recordPayment(db: Kysely<DB>, scope: Scope, id: string, input: PaymentInput): Promise<{ payment: PaymentJson; balance: BalanceJson }> {
  // Visible first (another entity is a 404, never a 403 that confirms it), then staff work.
  await findBillingEntity(db, scope, id)
  requirePermission(scope.actor, 'staff')
  const currency = input.currency.trim().toUpperCase()
  const reason = input.reason?.trim() ?? ''
  return change(db, scope, async (tx, audit) => {
    const entity = await findBillingEntity(tx, scope, id, true)
    const position = await tx.selectFrom('billing_balances').selectAll().where('billing_entity_id', '=', id).where('currency', '=', currency).forUpdate().executeTakeFirst()
    const errors: CodedFieldError[] = []
    if (!position) {
      const held = (await tx.selectFrom('billing_balances').select('currency').where('billing_entity_id', '=', id).orderBy('currency').execute()).map((b) => b.currency.trim())
      errors.push({
        ...fieldError('currency', 'billing.wrong_currency', `${entity.name} is not billed in ${currency || 'this currency'}; it holds ${held.join(', ')}`, held),
        held: held.join(', '),
      } as CodedFieldError)
    }
    const amount = parseMoney(input.amount, currency || 'EUR')
    if (!amount.ok || amount.minor === 0) errors.push(fieldError('amount', INVALID_MONETARY_VALUE, 'Enter an amount other than zero'))
    else if (input.kind === 'payment' && amount.minor < 0) errors.push(fieldError('amount', 'billing.payment_negative', 'A payment is above zero; record a refund as an adjustment'))
    if (input.kind === 'adjustment' && !reason) errors.push(fieldError('reason', 'billing.reason_required', 'An adjustment needs its reason'))
    if (errors.length || !position || !amount.ok) throw invalid(errors[0]!.code, 'The payment is not valid', errors)
    const balance = Number(position.balance_minor) + amount.minor
    if (balance < -Number(position.credit_limit_minor)) {
      throw invalid('billing.adjustment_past_limit', 'The adjustment would take the balance past its limit', [
        fieldError('amount', 'billing.adjustment_past_limit', 'The adjustment would take the balance past its credit limit'),
      ])
    }
    const after = await tx
      .updateTable('billing_balances')
      .set({ balance_minor: balance, version: position.version + 1, updated_at: new Date(), ...(balance >= Number(position.low_balance_minor ?? -Infinity) ? { low_balance_warned_at: null } : {}) })
      .where('billing_entity_id', '=', id)
      .where('currency', '=', currency)
      .returningAll()
      .executeTakeFirstOrThrow()
    const payment = await tx
      .insertInto('billing_payments')
      .values({
        billing_entity_id: id,
        kind: input.kind,
        currency,
        amount_minor: amount.minor,
        reference: input.reference?.trim() ?? '',
        reason,
        balance_after_minor: balance,
        created_by: scope.actor.label,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: AREA,
      entityType: 'billing-entity',
      entityId: id,
      accountId: trailOf(scope),
      action: input.kind,
      before: { currency, balance_minor: Number(position.balance_minor) },
      after: { currency, balance_minor: balance, amount_minor: amount.minor, reference: payment.reference, reason },
    })
    return { payment: paymentJson(payment), balance: balanceJson(after) }
  })
}

/** The accounts an entity pays for (a client sees only its own). */
export async function entityAccounts(db: Kysely<DB>, scope: Scope, id: string) {
  return (await getBillingEntity(db, scope, id)).accounts
}

/** Puts an account on an entity (it moves from any other), or takes it off (staff). */
export async function setAccountEntity(db: Kysely<DB>, scope: Scope, id: string, accountId: string, attach: boolean): Promise<void> {
  // Visible first (another entity is a 404, never a 403 that confirms it), then staff work.
  await findBillingEntity(db, scope, id)
  requirePermission(scope.actor, 'staff')
  await change(db, scope, async (tx, audit) => {
    await findBillingEntity(tx, scope, id, true)
    const account = await accountById(tx, accountId).select(['id', 'name', 'billing_entity_id']).forUpdate().executeTakeFirst()
    if (!account) throw invalid('account.not_found', 'No such account', [fieldError('account_id', 'account.not_found', 'No such account')])
    if (!attach && account.billing_entity_id !== id) throw notFound('The account is not paid for by this entity')
    await setAccountBillingEntity(tx, accountId, attach ? id : null)
    await audit.record({
      area: AREA,
      entityType: 'billing-entity',
      entityId: id,
      accountId: trailOf(scope),
      action: attach ? 'add-account' : 'remove-account',
      after: { account_id: accountId, account: account.name, ...(attach && account.billing_entity_id && account.billing_entity_id !== id ? { moved_from: account.billing_entity_id } : {}) },
    })
  })
}
