import type { Kysely } from 'kysely'
import { INVALID_MONETARY_VALUE, parseMoney } from '#common/money.ts'
import { PRODUCTS_LIST } from '#common/lists/pricing.ts'
import { PRODUCT_CODE, type CostUploadRow, type ProductKind } from '#common/pricing.ts'
import type { DB } from '#server/db/schema.ts'
import type { Product } from '#server/db/schema-pricing.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { change } from '#server/platform/core/change.ts'
import { type CodedFieldError, fieldError, invalid, notFound, staleVersion } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { listResource } from '#server/platform/list/engine.ts'
import { priceProduct } from '#server/platform/pricing/engine.ts'
import { engineProduct, loadCosts, loadRates, loadRuleBook } from '#server/platform/pricing/store.ts'

/** Products and their costs (issue 17, decision 300): staff work, audited under products. */

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))

export const productsResource = listResource(PRODUCTS_LIST, {
  from: 'products p',
  tiebreak: 'p.id',
  columns: {
    id: 'p.id',
    code: { column: 'p.code', lowercase: true },
    name: 'p.name',
    kind: 'p.kind',
    action: 'p.action',
    tld: { column: 'p.tld', lowercase: true },
    tags: 'p.tags',
    periods: 'p.periods',
    is_active: 'p.is_active',
    registrar_template_id: 'p.registrar_template_id',
    version: 'p.version',
    created_at: 'p.created_at',
    updated_at: 'p.updated_at',
  },
})

export async function getProduct(db: Kysely<DB>, scope: Scope, id: string): Promise<Product> {
  requirePermission(scope.actor, 'staff')
  const row = await db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst()
  if (!row) throw notFound('Product not found')
  return row
}

export type ProductInput = {
  code: string
  name: string
  kind: ProductKind
  action: string
  tld?: string | null
  tags?: string[]
  periods?: number[]
  registrar_template_id?: string | null
  is_active?: boolean
}

function productErrors(input: Partial<ProductInput>): CodedFieldError[] {
  const errors: CodedFieldError[] = []
  if (input.code !== undefined && !PRODUCT_CODE.test(input.code)) errors.push(fieldError('code', 'product.code_invalid', 'A code is lowercase letters, digits and : . _ -'))
  if (input.periods !== undefined && (!input.periods.length || input.periods.some((p) => !Number.isInteger(p) || p < 1 || p > 10)))
    errors.push(fieldError('periods', 'product.periods_invalid', 'Periods are whole years from 1 to 10'))
  if (input.kind === 'domain') errors.push(fieldError('kind', 'product.domain_generated', 'Domain products are made from the TLD catalogue: offer the TLD on its page'))
  return errors
}

/** Makes a product (SSL, block, service); domain products come from the TLD catalogue. */
export async function createProduct(db: Kysely<DB>, scope: Scope, input: ProductInput): Promise<Product> {
  requirePermission(scope.actor, 'staff')
  const errors = productErrors(input)
  if (errors.length) throw invalid(errors[0]!.code, 'The product is not valid', errors)
  return change(db, scope, async (tx, audit) => {
    const taken = await tx.selectFrom('products').select('id').where('code', '=', input.code).executeTakeFirst()
    if (taken) throw invalid('product.code_taken', 'The code is taken', [fieldError('code', 'product.code_taken', 'Another product has this code')])
    const row = await tx
      .insertInto('products')
      .values({
        code: input.code,
        name: input.name,
        kind: input.kind,
        action: input.action,
        tld: input.tld ?? null,
        tags: input.tags ?? [],
        periods: input.periods ?? [1],
        registrar_template_id: input.registrar_template_id ?? null,
        is_active: input.is_active ?? true,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'products', entityType: 'product', entityId: row.id, accountId: null, action: 'create', after: row })
    return row
  })
}

/** Edits a product's name, tags, periods, template or activity (staff), with its version. */
export async function updateProduct(
  db: Kysely<DB>,
  scope: Scope,
  id: string,
  patch: Partial<Pick<ProductInput, 'name' | 'tags' | 'periods' | 'registrar_template_id' | 'is_active'>> & { version: number },
): Promise<Product> {
  requirePermission(scope.actor, 'staff')
  const { version, ...fields } = patch
  const errors = productErrors(fields)
  if (errors.length) throw invalid(errors[0]!.code, 'The product is not valid', errors)
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('products').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    if (!before) throw notFound('Product not found')
    if (before.version !== version) throw staleVersion(before.version)
    const after = await tx
      .updateTable('products')
      .set({ ...fields, version: before.version + 1, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'products', entityType: 'product', entityId: id, accountId: null, action: 'update', before, after })
    return after
  })
}

export type CostRow = { id: string; currency: string; amount_minor: number; effective_from: string; in_force: boolean }

/** A product's costs, newest first, with the one in force now per currency marked. */
export async function listCosts(db: Kysely<DB>, scope: Scope, productId: string, now: Date): Promise<CostRow[]> {
  await getProduct(db, scope, productId)
  const rows = await db.selectFrom('product_costs').selectAll().where('product_id', '=', productId).orderBy('effective_from', 'desc').orderBy('currency').execute()
  const seen = new Set<string>()
  return rows.map((r) => {
    const currency = r.currency.trim()
    const from = new Date(r.effective_from)
    const inForce = from <= now && !seen.has(currency)
    if (inForce) seen.add(currency)
    return { id: r.id, currency, amount_minor: Number(r.amount_minor), effective_from: from.toISOString(), in_force: inForce }
  })
}

// --- Costs by CSV: code,currency,amount,effective_from -------------------------------------------

export type { CostUploadRow }

export const COST_UPLOAD_MAX_ROWS = 20_000

/** Splits one CSV line (RFC 4180 quotes). */
function csvFields(line: string): string[] {
  const out: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      out.push(field)
      field = ''
    } else field += ch
  }
  out.push(field)
  return out.map((f) => f.trim())
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?Z)?$/

/**
 * Reads a cost upload and compares it with the stored costs: each row new, changed, unchanged or
 * in error (beside its field), and flagged when a price list would sell below the new cost. With
 * `commit`, a file without errors is stored in one transaction with one audit entry per product.
 */
export async function uploadCosts(
  db: Kysely<DB>,
  scope: Scope,
  csv: string,
  commit: boolean,
  now: Date,
): Promise<{ rows: CostUploadRow[]; counts: Record<CostUploadRow['status'], number>; committed: boolean }> {
  requirePermission(scope.actor, 'staff')
  const lines = csv.replace(/^\uFEFF/, '').split(/\r?\n/)
  const header = csvFields(lines[0] ?? '').map((h) => h.toLowerCase())
  const expected = ['code', 'currency', 'amount', 'effective_from']
  if (expected.some((h, i) => header[i] !== h))
    throw invalid('costs.header', 'The first line must be code,currency,amount,effective_from', [fieldError('file', 'costs.header', 'The first line must be code,currency,amount,effective_from')])
  const body = lines
    .slice(1)
    .map((text, i) => ({ text, line: i + 2 }))
    .filter((l) => l.text.trim() !== '')
  if (body.length > COST_UPLOAD_MAX_ROWS) throw invalid('costs.too_many', `At most ${COST_UPLOAD_MAX_ROWS} rows`, [fieldError('file', 'costs.too_many', `At most ${COST_UPLOAD_MAX_ROWS} rows`)])

  const codes = [...new Set(body.map((l) => csvFields(l.text)[0]!.toLowerCase()))]
  const products = codes.length ? await db.selectFrom('products').select(['id', 'code', 'kind', 'action', 'tld', 'tags']).where('code', 'in', codes).execute() : []
  const byCode = new Map(products.map((p) => [p.code, p]))
  const costs = await loadCosts(
    db,
    products.map((p) => p.id),
  )
  const entities = await db.selectFrom('pricing_entities').select(['id', 'currencies']).execute()
  const books = new Map(await Promise.all(entities.map(async (e) => [e.id, await loadRuleBook(db, e.id)] as const)))
  const rates = await loadRates(db)

  const rows: CostUploadRow[] = body.map(({ text, line }) => {
    const [code = '', currency = '', amount = '', effective = ''] = csvFields(text).map((f, i) => (i === 0 ? f.toLowerCase() : i === 1 ? f.toUpperCase() : f))
    const errors: CodedFieldError[] = []
    const product = byCode.get(code)
    if (!product) errors.push(fieldError('code', 'costs.unknown_product', `No product has the code ${code}`))
    if (!CURRENCIES.has(currency)) errors.push(fieldError('currency', 'currency.invalid', 'Not an ISO 4217 currency code'))
    const money = parseMoney(amount, CURRENCIES.has(currency) ? currency : 'EUR')
    if (!money.ok || money.minor < 0) errors.push(fieldError('amount', INVALID_MONETARY_VALUE, 'Not a monetary value (digits, optional thousands commas, up to 2 decimals; none for JPY)'))
    const from = DATE.test(effective) ? new Date(effective.length === 10 ? `${effective}T00:00:00Z` : effective) : null
    if (!from || Number.isNaN(from.getTime())) errors.push(fieldError('effective_from', 'costs.date_invalid', 'A date is YYYY-MM-DD'))
    const base = {
      line,
      code,
      currency,
      amount,
      effective_from: from && !Number.isNaN(from.getTime()) ? from.toISOString() : effective,
      product_id: product?.id ?? null,
      amount_minor: money.ok ? money.minor : null,
      previous_minor: null,
      at_loss: false,
      errors,
    }
    if (errors.length || !product || !money.ok || !from) return { ...base, status: 'error' as const }
    const stored = costs.get(product.id) ?? []
    const same = stored.find((c) => c.currency === currency && c.effective_from === from.getTime())
    const inForce = stored.filter((c) => c.currency === currency && c.effective_from <= from.getTime()).sort((a, b) => b.effective_from - a.effective_from)[0]
    const status = same ? (same.amount_minor === money.minor ? 'unchanged' : 'changed') : 'new'
    // Would a price list sell below this cost once it takes effect?
    const at = Math.max(from.getTime(), now.getTime())
    const withNew = [...stored.filter((c) => !(c.currency === currency && c.effective_from === from.getTime())), { currency, amount_minor: money.minor, effective_from: from.getTime() }]
    const atLoss = entities.some((e) =>
      e.currencies.some((cur) => {
        const priced = priceProduct({ product: engineProduct(product), costs: withNew, book: books.get(e.id)!, currency: cur.trim(), rates, at, pricingEntityId: e.id })
        return priced.ok && priced.quote.below_cost
      }),
    )
    return { ...base, previous_minor: same?.amount_minor ?? inForce?.amount_minor ?? null, status, at_loss: atLoss }
  })
  const counts = { new: 0, changed: 0, unchanged: 0, error: 0 }
  for (const r of rows) counts[r.status]++
  if (!commit || counts.error > 0) return { rows, counts, committed: false }

  await change(db, scope, async (tx, audit) => {
    const writes = rows.filter((r) => r.status === 'new' || r.status === 'changed')
    for (let i = 0; i < writes.length; i += 500) {
      const chunk = writes.slice(i, i + 500)
      await tx
        .insertInto('product_costs')
        .values(chunk.map((r) => ({ product_id: r.product_id!, currency: r.currency, amount_minor: r.amount_minor!, effective_from: r.effective_from })))
        .onConflict((oc) => oc.columns(['product_id', 'currency', 'effective_from']).doUpdateSet((eb) => ({ amount_minor: eb.ref('excluded.amount_minor') })))
        .execute()
    }
    for (const r of writes) {
      await audit.record({
        area: 'products',
        entityType: 'product',
        entityId: r.product_id!,
        accountId: null,
        action: 'cost',
        before: r.previous_minor === null ? null : { currency: r.currency, amount_minor: r.previous_minor },
        after: { currency: r.currency, amount_minor: r.amount_minor, effective_from: r.effective_from },
      })
    }
  })
  return { rows, counts, committed: true }
}

/** Enters one cost of a product (staff): the CSV path with one row, so the rules are the same. */
export async function addCost(db: Kysely<DB>, scope: Scope, productId: string, input: { currency: string; amount: string; effective_from: string }, now: Date) {
  const product = await getProduct(db, scope, productId)
  const line = [product.code, input.currency, `"${input.amount.replace(/"/g, '""')}"`, input.effective_from].join(',')
  const result = await uploadCosts(db, scope, `code,currency,amount,effective_from\n${line}`, true, now)
  const row = result.rows[0]!
  if (row.status === 'error') throw invalid(row.errors[0]!.code, 'The cost is not valid', row.errors)
  return row
}
