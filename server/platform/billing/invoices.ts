import { sql, type Kysely } from 'kysely'
import { EU_COUNTRIES } from '#common/billing.ts'
import { currencyDecimals } from '#common/money.ts'
import type { DB } from '#server/db/schema.ts'
import type { Invoice, InvoiceBuyer, InvoiceLine } from '#server/db/schema-billing.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { auditWriter, change, txRunner } from '#server/platform/core/change.ts'
import { fieldError, invalid, notFound, refused } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { findBillingEntity } from './service.ts'

/**
 * The monthly invoice run (issue 18). For a closed month, each billing entity gets one invoice per
 * currency with a line per transaction settled that month, and a credit note for what was refunded
 * after it was invoiced. Each document is written in one transaction with the entity's counter for
 * the year (locked and advanced there): numbers have no gaps, a crash leaves no half document, and
 * the run (a job) resumes: a document already made for the month is never made twice.
 */

export const INVOICE_JOBS = { run: 'billing.invoice-run' } as const

/** Who invoices: the registrar (its own entity, printed on every document). */
export const SELLER = {
  name: 'Registrar Operations B.V.',
  street: 'Herengracht 100',
  city: 'Amsterdam',
  postcode: '1015 BS',
  country: 'NL',
  vat_id: 'NL123456789B01',
  email: 'billing@registrar.example',
} as const

/** The legal note of an EU B2B supply reverse-charged, in the invoice's language. */
export const REVERSE_CHARGE_NOTE: Record<string, string> = {
  en: 'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).',
  es: 'Inversión del sujeto pasivo: el IVA lo liquida el destinatario (artículo 196 de la Directiva 2006/112/CE).',
  ja: 'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).',
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/
const monthStart = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1))
const nextMonth = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1))
const isoDay = (date: Date) => date.toISOString().slice(0, 10)

/** Tax of a subtotal at a rate in percent, rounded half up to the currency's minor unit (integers: it always adds up). */
export const taxOf = (subtotalMinor: number, ratePercent: number) => Math.round((subtotalMinor * Math.round(ratePercent * 100)) / 10_000)

/** Starts the run of a closed month (staff): refused for a month not over yet, or one run already. */
export async function startInvoiceRun(deps: Pick<PlatformDeps, 'db' | 'jobs' | 'now'>, scope: Scope, period: string) {
  requirePermission(scope.actor, 'staff')
  const match = MONTH.exec(period)
  if (!match) throw invalid('billing.period_invalid', 'A month is YYYY-MM', [fieldError('period', 'billing.period_invalid', 'A month is YYYY-MM')])
  const start = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1))
  if (start >= monthStart(deps.now()))
    throw invalid('billing.month_open', 'Only a month that is over can be invoiced', [fieldError('period', 'billing.month_open', 'Only a month that is over can be invoiced')])
  return change(deps.db, scope, async (tx, audit) => {
    const made = await tx
      .insertInto('invoice_runs')
      .values({ period: isoDay(start), started_by: scope.actor.label })
      .onConflict((oc) => oc.column('period').doNothing())
      .returningAll()
      .executeTakeFirst()
    if (!made) {
      throw refused('billing.run_done', `The invoices of ${period} were run already`, [fieldError('period', 'billing.run_done', `The invoices of ${period} were run already`)], { period })
    }
    // The job is part of this transaction: no run without its job.
    await deps.jobs.send(INVOICE_JOBS.run, { period: isoDay(start) }, { runner: txRunner(tx), retryLimit: 5, singletonKey: `invoice-run:${period}` })
    await audit.record({ area: 'invoicing', entityType: 'invoice-run', entityId: period, accountId: scope.actor.homeAccountId ?? null, action: 'start', after: { period } })
    return { period, state: made.state, started_at: made.started_at.toISOString() }
  })
}

/** The job: every billing entity's documents for the month, then the run is completed. Idempotent. */
export async function runInvoices(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'logger' | 'now'>, period: string): Promise<number> {
  const start = new Date(`${period}T00:00:00Z`)
  const entities = await deps.db.selectFrom('billing_entities').select('id').orderBy('id').execute()
  let made = 0
  for (const entity of entities) {
    for (const invoice of await invoiceEntity(deps.db, entity.id, start, deps.now())) {
      made++
      await mailIssued(deps, invoice)
    }
  }
  const total = await deps.db
    .selectFrom('invoices')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('period', '=', isoDay(start))
    .executeTakeFirstOrThrow()
  await deps.db.updateTable('invoice_runs').set({ state: 'completed', invoices: total.n, finished_at: new Date() }).where('period', '=', isoDay(start)).execute()
  return made
}

const ACTIONS: Record<string, Record<string, string>> = {
  en: { register: 'Registration', transfer: 'Transfer', renew: 'Renewal', restore: 'Restore' },
  es: { register: 'Registro', transfer: 'Transferencia', renew: 'Renovación', restore: 'Restauración' },
  ja: { register: '登録', transfer: '移管', renew: '更新', restore: '復旧' },
}
const YEAR_WORDS: Record<string, [string, string]> = { en: ['year', 'years'], es: ['año', 'años'], ja: ['年', '年'] }

/**
 * The charges a document of `kind` takes for the entity, month and currency, as SQL: an invoice
 * takes what settled in the month and was not invoiced; a credit note what was refunded (by the
 * month's end) after it was invoiced and not credited yet.
 */
function chargesOf(kind: 'invoice' | 'credit-note', entityId: string, currency: string | null, start: Date, end: Date) {
  const base = sql`t.billing_entity_id = ${entityId}${currency ? sql` AND t.currency = ${currency}` : sql``}`
  return kind === 'invoice'
    ? sql`${base} AND t.invoice_id IS NULL AND t.state IN ('settled', 'refunded') AND t.settled_at >= ${start} AND t.settled_at < ${end}`
    : sql`${base} AND t.state = 'refunded' AND t.credit_note_id IS NULL AND t.invoice_id IS NOT NULL AND t.updated_at < ${end}`
}

/**
 * One entity's documents for the month (each in its own transaction); those already made are left.
 * Set-based: the lines are written from the charges and the charges marked by one statement each,
 * a line per charge ("Renewal acme.com (1 year)" in the entity's language), in the order settled.
 */
export async function invoiceEntity(db: Kysely<DB>, entityId: string, start: Date, now: Date): Promise<Invoice[]> {
  const end = nextMonth(start)
  const made: Invoice[] = []
  for (const kind of ['invoice', 'credit-note'] as const) {
    const currencies = (await sql<{ currency: string }>`SELECT DISTINCT t.currency FROM transactions t WHERE ${chargesOf(kind, entityId, null, start, end)}`.execute(db)).rows.map((r) =>
      r.currency.trim(),
    )
    for (const currency of currencies) {
      const invoice = await db.transaction().execute(async (tx) => {
        // The entity's row is the run's lock: two runs never write one entity's documents at once.
        const entity = await tx.selectFrom('billing_entities').selectAll().where('id', '=', entityId).forUpdate().executeTakeFirstOrThrow()
        if (
          await tx
            .selectFrom('invoices')
            .select('id')
            .where('billing_entity_id', '=', entityId)
            .where('period', '=', isoDay(start))
            .where('currency', '=', currency)
            .where('kind', '=', kind)
            .executeTakeFirst()
        )
          return null
        const which = chargesOf(kind, entityId, currency, start, end)
        const sums = (await sql<{ n: number; total: string | number | null }>`SELECT count(*)::int AS n, sum(t.amount_minor) AS total FROM transactions t WHERE ${which}`.execute(tx)).rows[0]!
        if (!sums.n) return null
        const country = entity.country.trim()
        const reverse = Boolean(entity.vat_id) && EU_COUNTRIES.has(country) && country !== SELLER.country
        const rate = reverse ? 0 : Number((await tx.selectFrom('tax_rates').select('rate_percent').where('country', '=', country).executeTakeFirst())?.rate_percent ?? 0)
        const sign = kind === 'invoice' ? 1 : -1
        const subtotal = sign * Number(sums.total)
        const tax = sign * taxOf(Math.abs(subtotal), rate)
        const year = now.getUTCFullYear()
        await tx
          .insertInto('invoice_counters')
          .values({ billing_entity_id: entityId, year })
          .onConflict((oc) => oc.columns(['billing_entity_id', 'year']).doNothing())
          .execute()
        const counter = await tx
          .updateTable('invoice_counters')
          .set((eb) => ({ last_seq: eb('last_seq', '+', 1) }))
          .where('billing_entity_id', '=', entityId)
          .where('year', '=', year)
          .returning('last_seq')
          .executeTakeFirstOrThrow()
        const buyer: InvoiceBuyer = { name: entity.name, address: entity.address, country, vat_id: entity.vat_id, billing_email: entity.billing_email }
        const invoice = await tx
          .insertInto('invoices')
          .values({
            billing_entity_id: entityId,
            kind,
            period: isoDay(start),
            year,
            seq: counter.last_seq,
            number: `${kind === 'invoice' ? 'INV' : 'CN'}-${year}-${String(counter.last_seq).padStart(6, '0')}`,
            currency,
            language: entity.invoice_language,
            issued_at: now,
            due_at: new Date(now.getTime() + entity.payment_terms_days * 86_400_000),
            subtotal_minor: subtotal,
            tax_rate_percent: rate,
            tax_minor: tax,
            total_minor: subtotal + tax,
            reverse_charge: reverse,
            buyer: JSON.stringify(buyer),
          })
          .returningAll()
          .executeTakeFirstOrThrow()
        const words = ACTIONS[entity.invoice_language] ?? ACTIONS.en!
        const [one, many] = YEAR_WORDS[entity.invoice_language] ?? YEAR_WORDS.en!
        const action = sql`CASE t.action ${sql.join(
          Object.entries(words).map(([k, v]) => sql`WHEN ${k} THEN ${v}`),
          sql` `,
        )} ELSE t.action END`
        await sql`INSERT INTO invoice_lines (invoice_id, position, transaction_id, description, quantity, unit_minor, amount_minor)
          SELECT ${invoice.id}, row_number() OVER (ORDER BY t.settled_at, t.id), t.id,
            ${action} || ' ' || coalesce(nullif(t.object_name, ''), t.product_code) || ' (' || t.period || ' ' || CASE WHEN t.period = 1 THEN ${one} ELSE ${many} END || ')',
            1, ${sign} * t.amount_minor, ${sign} * t.amount_minor
          FROM transactions t WHERE ${which}`.execute(tx)
        await sql`UPDATE transactions t SET ${sql.raw(kind === 'invoice' ? 'invoice_id' : 'credit_note_id')} = ${invoice.id} WHERE ${which}`.execute(tx)
        await auditWriter(tx, { actor: { userId: null, label: 'invoice run', homeAccountId: null, roles: ['staff'], abilities: [] }, accountId: null, requestId: null }).record({
          area: 'invoicing',
          entityType: 'billing-entity',
          entityId,
          action: kind === 'invoice' ? 'invoice' : 'credit-note',
          after: { number: invoice.number, currency, total_minor: subtotal + tax, lines: sums.n },
        })
        return invoice
      })
      if (invoice) made.push(invoice)
    }
  }
  return made
}

async function mailIssued(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'logger'>, invoice: Invoice) {
  const amount = `${invoice.currency.trim()} ${(Number(invoice.total_minor) / 10 ** currencyDecimals(invoice.currency.trim())).toFixed(currencyDecimals(invoice.currency.trim()))}`
  const subject = invoice.kind === 'invoice' ? `Invoice ${invoice.number}` : `Credit note ${invoice.number}`
  try {
    await deps.mailer.send({
      to: invoice.buyer.billing_email,
      subject,
      text: `${subject} from ${SELLER.name}: ${amount}, due ${isoDay(invoice.due_at)}.\nIt is in the portal under Invoicing → Billing entities → ${invoice.buyer.name}.`,
    })
    await deps.db.updateTable('invoices').set({ mailed_at: new Date() }).where('id', '=', invoice.id).execute()
  } catch (error) {
    deps.logger.error('invoice mail failed', { invoice: invoice.number, error })
  }
}

export type InvoiceJson = {
  id: string
  number: string
  kind: string
  period: string
  currency: string
  language: string
  issued_at: string
  due_at: string
  subtotal_minor: number
  tax_rate_percent: number
  tax_minor: number
  total_minor: number
  reverse_charge: boolean
  mailed_at: string | null
}
export const invoiceJson = (row: Invoice): InvoiceJson => ({
  id: row.id,
  number: row.number,
  kind: row.kind,
  period: row.period.slice(0, 7),
  currency: row.currency.trim(),
  language: row.language,
  issued_at: row.issued_at.toISOString(),
  due_at: row.due_at.toISOString(),
  subtotal_minor: Number(row.subtotal_minor),
  tax_rate_percent: Number(row.tax_rate_percent),
  tax_minor: Number(row.tax_minor),
  total_minor: Number(row.total_minor),
  reverse_charge: row.reverse_charge,
  mailed_at: row.mailed_at?.toISOString() ?? null,
})

/** The documents of an entity the scope reaches, newest first. */
export async function entityInvoices(db: Kysely<DB>, scope: Scope, entityId: string): Promise<InvoiceJson[]> {
  requirePermission(scope.actor, 'invoice-viewer')
  await findBillingEntity(db, scope, entityId)
  return (await db.selectFrom('invoices').selectAll().where('billing_entity_id', '=', entityId).orderBy('issued_at', 'desc').orderBy('seq', 'desc').limit(200).execute()).map(invoiceJson)
}

/** One document with its lines, if the scope reaches its entity. */
export async function loadInvoice(db: Kysely<DB>, scope: Scope, id: string): Promise<{ invoice: Invoice; lines: InvoiceLine[] }> {
  requirePermission(scope.actor, 'invoice-viewer')
  const invoice = await db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst()
  if (!invoice) throw notFound('Invoice not found')
  await findBillingEntity(db, scope, invoice.billing_entity_id).catch(() => {
    throw notFound('Invoice not found')
  })
  const lines = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('position').execute()
  return { invoice, lines }
}

/** The tax table (staff keep it): rate per country. */
export async function setTaxRate(db: Kysely<DB>, scope: Scope, country: string, ratePercent: number, name = 'VAT') {
  requirePermission(scope.actor, 'staff')
  const code = country.toUpperCase()
  if (!/^[A-Z]{2}$/.test(code)) throw invalid('country.invalid', 'Choose a country', [fieldError('country', 'country.invalid', 'Choose a country')])
  if (!Number.isFinite(ratePercent) || ratePercent < 0 || ratePercent >= 100)
    throw invalid('billing.tax_rate', 'A rate is 0 to 99.99 %', [fieldError('rate_percent', 'billing.tax_rate', 'A rate is 0 to 99.99 %')])
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('tax_rates').selectAll().where('country', '=', code).executeTakeFirst()
    await tx
      .insertInto('tax_rates')
      .values({ country: code, rate_percent: ratePercent, name })
      .onConflict((oc) => oc.column('country').doUpdateSet({ rate_percent: ratePercent, name, updated_at: new Date() }))
      .execute()
    await audit.record({
      area: 'invoicing',
      entityType: 'tax-rate',
      entityId: code,
      accountId: scope.actor.homeAccountId ?? null,
      action: before ? 'update' : 'create',
      before: before ? { rate_percent: Number(before.rate_percent) } : null,
      after: { country: code, rate_percent: ratePercent, name },
    })
    return { country: code, rate_percent: ratePercent, name }
  })
}

export async function listTaxRates(db: Kysely<DB>, scope: Scope) {
  requirePermission(scope.actor, 'invoice-viewer')
  return (await db.selectFrom('tax_rates').selectAll().orderBy('country').execute()).map((r) => ({ country: r.country.trim(), rate_percent: Number(r.rate_percent), name: r.name }))
}
