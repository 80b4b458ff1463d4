import { randomUUID } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { mailTexts } from '#server/lib/mail-texts.ts'
import { EU_COUNTRIES } from '#common/billing.ts'
import { formatMoney } from '#common/money.ts'
import { INVOICES_LIST } from '#common/lists/billing.ts'
import type { DB } from '#server/db/schema.ts'
import type { Invoice, InvoiceBuyer, InvoiceLine, InvoiceSeller } from '#server/db/schema-billing.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { auditWriter, change, txRunner } from '#server/platform/core/change.ts'
import { fieldError, invalid, notFound, refused } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { listResource } from '#server/platform/list/engine.ts'
import { findBillingEntity } from './service.ts'
import { sellerOf } from './seller.ts'
import { joinAccounts } from '#server/platform/accounts/reads.ts'
import { recordEventsSelected } from '#server/platform/webhooks/outbox.ts'

/**
 * The monthly invoice run (issue 18). For a closed month, each billing entity gets one invoice per
 * currency with a line per transaction settled that month, and a credit note for what was refunded
 * after it was invoiced, naming that invoice. Documents are written a batch of entities to a
 * transaction with their seller's series for the kind and year (locked and advanced there):
 * numbers have no gaps and are the seller's once, a crash leaves no half document, and the run (a
 * job) resumes: a document already made for the month is never made twice.
 */

export const INVOICE_JOBS = { run: 'billing.invoice-run', mail: 'billing.invoice-mail' } as const

/** The legal note of an EU B2B supply reverse-charged, in the invoice's language. */
export const REVERSE_CHARGE_NOTE: Record<string, string> = {
  en: 'Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).',
  es: 'Inversión del sujeto pasivo: el IVA lo liquida el destinatario (artículo 196 de la Directiva 2006/112/CE).',
  ja: 'リバースチャージ：VATは受領者が納付します（EU理事会指令2006/112/EC第196条）。',
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

/** Billing entities per transaction of the run: each batch's documents, numbers and lines commit together or not at all. */
export const RUN_BATCH = 100

/**
 * The job: every billing entity's documents for the month, a batch of entities at a time in id
 * order, then the run is completed and the documents' mail queued. Idempotent: a batch committed
 * before a crash has its documents, which the resumed run finds and leaves; the batch cut by the
 * crash left nothing and is made again.
 */
export async function runInvoices(deps: Pick<PlatformDeps, 'db' | 'jobs' | 'logger' | 'now'> & { config?: object }, period: string, options: { batch?: number } = {}): Promise<number> {
  const start = new Date(`${period}T00:00:00Z`)
  const now = deps.now()
  // Who invoices, as configured now: each document keeps it (a later change does not rewrite it).
  const seller = sellerOf(deps.config ?? {})
  let made = 0
  let after: string | null = null
  for (;;) {
    let next = deps.db
      .selectFrom('billing_entities')
      .select('id')
      .orderBy('id')
      .limit(options.batch ?? RUN_BATCH)
    if (after) next = next.where('id', '>', after)
    const ids = (await next.execute()).map((row) => row.id)
    if (!ids.length) break
    made += (await invoiceBatch(deps.db, ids, start, now, seller)).length
    after = ids.at(-1)!
  }
  const total = await deps.db
    .selectFrom('invoices')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('run_period', '=', isoDay(start))
    .executeTakeFirstOrThrow()
  await deps.db.updateTable('invoice_runs').set({ state: 'completed', invoices: total.n, finished_at: new Date() }).where('period', '=', isoDay(start)).execute()
  // The documents committed are the mail's outbox (mailed_at null): the mail job sends them now, and every five minutes whatever is left.
  if (made) await deps.jobs.send(INVOICE_JOBS.mail, { period: isoDay(start) })
  deps.logger.info('invoice run done', { period: isoDay(start), made, total: total.n })
  return made
}

/** A line's first words: the action done (by the product's kind where it says more), in the invoice's language. */
const ACTIONS: Record<string, Record<string, string>> = {
  en: {
    register: 'Registration',
    transfer: 'Transfer',
    renew: 'Renewal',
    restore: 'Restore',
    trade: 'Owner change',
    'registry-lock': 'Registry lock',
    'ssl:order': 'SSL certificate',
    'block:order': 'Block',
    subscribe: 'Subscription',
  },
  es: {
    register: 'Registro',
    transfer: 'Transferencia',
    renew: 'Renovación',
    restore: 'Restauración',
    trade: 'Cambio de titular',
    'registry-lock': 'Bloqueo de registro',
    'ssl:order': 'Certificado SSL',
    'block:order': 'Bloqueo',
    subscribe: 'Suscripción',
  },
  ja: {
    register: '登録',
    transfer: '移管',
    renew: '更新',
    restore: '復旧',
    trade: '登録者変更',
    'registry-lock': 'レジストリロック',
    'ssl:order': 'SSL証明書',
    'block:order': 'ブロック',
    subscribe: 'サブスクリプション',
  },
}
const YEAR_WORDS: Record<string, [string, string]> = { en: ['year', 'years'], es: ['año', 'años'], ja: ['年', '年'] }
/** How an invoice's lines are grouped: by kind, then by action in this order, then by name. */
const KIND_ORDER = ['domain', 'ssl', 'block', 'service']
const ACTION_ORDER = ['register', 'transfer', 'renew', 'restore', 'trade', 'registry-lock', 'order', 'subscribe']

/**
 * Where a document of `kind` finds its charges for the batch's entities and the month, as SQL (a
 * FROM and a WHERE): an invoice takes what settled in the month (refunded since or not: its credit
 * note follows); a credit note what was refunded by the month's end, was invoiced and is not
 * credited yet, joined to the invoice that has it (`c`, the one it corrects). No charge is marked
 * when it is invoiced: the invoice of an entity, month and currency is made once (unique), so the
 * month a charge settled in says which invoice has it.
 */
function chargesOf(kind: 'invoice' | 'credit-note', ids: string[], start: Date, end: Date) {
  const entities = sql`t.billing_entity_id = ANY(${sql.val(ids)}::uuid[])`
  return kind === 'invoice'
    ? { from: sql`transactions t`, where: sql`${entities} AND t.state IN ('settled', 'refunded') AND t.settled_at >= ${start} AND t.settled_at < ${end}` }
    : {
        from: sql`transactions t JOIN invoices c ON c.billing_entity_id = t.billing_entity_id AND c.kind = 'invoice' AND c.currency = t.currency
          AND c.period = date_trunc('month', t.settled_at AT TIME ZONE 'UTC')::date`,
        where: sql`${entities} AND t.state = 'refunded' AND t.credit_note_id IS NULL AND t.updated_at < ${end}`,
      }
}

/** A document's charges summed: its entity and currency, and for a credit note the invoice it corrects. */
type Sum = { entity: string; currency: string; corrects: string | null; n: number; total: string }

/** A document number: its series' prefix (an invoice's INV, a credit note's CN), the year, and its place in the seller's series. */
export const documentNumber = (kind: 'invoice' | 'credit-note', year: number, seq: number) => `${kind === 'invoice' ? 'INV' : 'CN'}-${year}-${String(seq).padStart(6, '0')}`

/**
 * One batch of entities' documents for the month, in one transaction: per entity and currency an
 * invoice, then per invoice corrected a credit note. Set-based: the entities are locked (a second
 * run waits), the sums read in one statement per kind, the numbers taken from the seller's series
 * for the kind and year in one statement (each series advanced by the number of its documents: no
 * gaps, and a number is its seller's once — migration 0960), the documents inserted in one, and all
 * their lines written from the charges by one INSERT … SELECT, which answers each document's line
 * count and sum: a document whose lines do not add up to it is refused and the batch rolled back.
 * Documents already made (a resumed run) are left.
 *
 * An invoice is issued by the seller configured now; a credit note by the seller of the invoice it
 * corrects, in that seller's series, at that invoice's tax rate and treatment, for its period, and
 * with no due date (it is not paid).
 */
export async function invoiceBatch(db: Kysely<DB>, ids: string[], start: Date, now: Date, seller: InvoiceSeller): Promise<Invoice[]> {
  const end = nextMonth(start)
  const period = isoDay(start)
  const year = now.getUTCFullYear()
  return db.transaction().execute(async (tx) => {
    // A batch sorts ~100,000 lines into their invoices (in memory, not on disk); compiling its
    // statements to machine code (JIT, chosen for their row estimates) costs more than it saves.
    await sql`SET LOCAL work_mem = '64MB'`.execute(tx)
    await sql`SET LOCAL jit = off`.execute(tx)
    const entities = new Map((await tx.selectFrom('billing_entities').selectAll().where('id', 'in', ids).orderBy('id').forUpdate().execute()).map((e) => [e.id, e]))
    // What this run made already (a resumed run): an entity's invoice of the month per currency, a credit note per invoice it corrects.
    const done = new Set(
      (await tx.selectFrom('invoices').select(['billing_entity_id', 'currency', 'kind', 'corrects_invoice_id']).where('billing_entity_id', 'in', ids).where('run_period', '=', period).execute()).map(
        (d) => (d.kind === 'invoice' ? `${d.billing_entity_id}:${d.currency.trim()}` : `corrects:${d.corrects_invoice_id}`),
      ),
    )
    const rates = new Map((await tx.selectFrom('tax_rates').select(['country', 'rate_percent']).execute()).map((r) => [r.country.trim(), Number(r.rate_percent)]))
    const audit = auditWriter(tx, { actor: { userId: null, label: 'invoice run', homeAccountId: null, roles: ['staff'], abilities: [] }, accountId: null, requestId: null })
    const made: Invoice[] = []
    for (const kind of ['invoice', 'credit-note'] as const) {
      const { from, where } = chargesOf(kind, ids, start, end)
      const sums = (
        await sql<Sum>`SELECT t.billing_entity_id AS entity, t.currency, ${kind === 'invoice' ? sql`NULL::uuid` : sql`c.id`} AS corrects, count(*)::int AS n, sum(t.amount_minor)::text AS total
          FROM ${from} WHERE ${where} GROUP BY 1, 2, 3 ORDER BY 1, 2, ${kind === 'invoice' ? sql`3` : sql`min(c.period), 3`}`.execute(tx)
      ).rows
        .map((s) => ({ ...s, currency: s.currency.trim() }))
        .filter((s) => entities.has(s.entity) && !done.has(s.corrects ? `corrects:${s.corrects}` : `${s.entity}:${s.currency}`))
      if (!sums.length) continue
      const corrected = new Map(
        kind === 'credit-note'
          ? (
              await tx
                .selectFrom('invoices')
                .selectAll()
                .where(
                  'id',
                  'in',
                  sums.map((s) => s.corrects!),
                )
                .execute()
            ).map((i) => [i.id, i])
          : [],
      )
      // The document's issuer: the seller configured now, or the one of the invoice a credit note corrects. Its VAT id names its series.
      const issuerOf = (s: Sum) => (s.corrects ? corrected.get(s.corrects)!.seller : seller)
      // Each series advanced once by the number of its documents (in series order: two runs lock them alike); they take the numbers up to it.
      const perSeries = new Map<string, number>()
      for (const s of sums) perSeries.set(issuerOf(s).vat_id, (perSeries.get(issuerOf(s).vat_id) ?? 0) + 1)
      const counters = await sql<{ series: string; last_seq: number }>`
        INSERT INTO invoice_series (series, kind, year, last_seq)
        SELECT s, ${kind}, ${year}, n FROM unnest(${sql.val([...perSeries.keys()])}::text[], ${sql.val([...perSeries.values()])}::int[]) AS u(s, n) ORDER BY s
        ON CONFLICT (series, kind, year) DO UPDATE SET last_seq = invoice_series.last_seq + EXCLUDED.last_seq
        RETURNING series, last_seq`.execute(tx)
      const nextSeq = new Map(counters.rows.map((c) => [c.series, c.last_seq - perSeries.get(c.series)! + 1]))
      const sign = kind === 'invoice' ? 1 : -1
      const rows = sums.map((s) => {
        const entity = entities.get(s.entity)!
        const invoice = s.corrects ? corrected.get(s.corrects)! : null
        const issuer = issuerOf(s)
        const seq = nextSeq.get(issuer.vat_id)!
        nextSeq.set(issuer.vat_id, seq + 1)
        const country = entity.country.trim()
        const reverse = invoice ? invoice.reverse_charge : Boolean(entity.vat_id) && EU_COUNTRIES.has(country) && country !== issuer.country
        const rate = invoice ? Number(invoice.tax_rate_percent) : reverse ? 0 : (rates.get(country) ?? 0)
        const subtotal = sign * Number(s.total)
        const tax = sign * taxOf(Math.abs(subtotal), rate)
        const buyer: InvoiceBuyer = { name: entity.name, address: entity.address, country, vat_id: entity.vat_id, billing_email: entity.billing_email }
        return {
          id: randomUUID(),
          billing_entity_id: s.entity,
          kind,
          period: invoice?.period ?? period,
          run_period: period,
          year,
          seq,
          series: issuer.vat_id,
          number: documentNumber(kind, year, seq),
          corrects_invoice_id: invoice?.id ?? null,
          currency: s.currency,
          language: entity.invoice_language,
          issued_at: now,
          due_at: invoice ? null : new Date(now.getTime() + entity.payment_terms_days * 86_400_000),
          subtotal_minor: subtotal,
          tax_rate_percent: rate,
          tax_minor: tax,
          total_minor: subtotal + tax,
          reverse_charge: reverse,
          buyer: JSON.stringify(buyer),
          seller: JSON.stringify(issuer),
        }
      })
      const invoices = await tx.insertInto('invoices').values(rows).returningAll().execute()
      // invoice.issued for every account the entity bills (issue 20), in the batch's transaction: one
      // statement. Its fields in the API's form (invoiceJson): the period YYYY-MM, a credit note's due date null.
      await recordEventsSelected(
        tx,
        sql`SELECT a.id, 'invoice.issued', jsonb_build_object('id', i.id, 'number', i.number, 'kind', i.kind, 'billing_entity_id', i.billing_entity_id, 'period', to_char(i.period, 'YYYY-MM'),
          'currency', trim(i.currency), 'total_minor', i.total_minor, 'due_at', to_char(i.due_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'corrects', CASE WHEN c.id IS NULL THEN NULL ELSE jsonb_build_object('id', c.id, 'number', c.number) END)
        FROM invoices i ${sql.raw(joinAccounts('a', 'i.billing_entity_id', { by: 'billing_entity_id' }))} LEFT JOIN invoices c ON c.id = i.corrects_invoice_id
        WHERE i.id = ANY(${sql.val(invoices.map((i) => i.id))}::uuid[])`,
      )
      const word = (language: string) => ({ ...ACTIONS.en, ...ACTIONS[language] })
      const words = JSON.stringify(Object.fromEntries(Object.keys(YEAR_WORDS).map((l) => [l, word(l)])))
      const years = JSON.stringify(YEAR_WORDS)
      const docs = sql`unnest(${sql.val(rows.map((r) => r.id))}::uuid[], ${sql.val(rows.map((r) => r.billing_entity_id))}::uuid[], ${sql.val(rows.map((r) => r.currency))}::text[], ${sql.val(rows.map((r) => r.language))}::text[], ${sql.val(rows.map((r) => r.corrects_invoice_id))}::uuid[]) AS d(invoice_id, entity, currency, language, corrects)`
      // A credit note's charges are those of the invoice it corrects.
      const ofDocument = kind === 'invoice' ? sql`` : sql`AND c.id = d.corrects`
      const written = await sql<{ invoice_id: string; n: number; total: string }>`
        WITH ins AS (
          INSERT INTO invoice_lines (invoice_id, position, transaction_id, description, quantity, unit_minor, amount_minor)
          SELECT d.invoice_id,
            row_number() OVER (PARTITION BY d.invoice_id ORDER BY array_position(${sql.val(KIND_ORDER)}::text[], t.kind), array_position(${sql.val(ACTION_ORDER)}::text[], t.action), t.object_name, t.settled_at, t.id),
            t.id,
            coalesce(${words}::jsonb -> d.language ->> (t.kind || ':' || t.action), ${words}::jsonb -> d.language ->> t.action, t.action)
              || ' ' || coalesce(nullif(t.object_name, ''), t.product_code)
              || ' (' || t.period || ' ' || (${years}::jsonb -> d.language ->> CASE WHEN t.period = 1 THEN 0 ELSE 1 END) || ')',
            1, ${sign} * t.amount_minor, ${sign} * t.amount_minor
          FROM ${docs} JOIN ${from} ON t.billing_entity_id = d.entity AND t.currency = d.currency ${ofDocument}
          WHERE ${where}
          RETURNING invoice_id, amount_minor)
        SELECT invoice_id, count(*)::int AS n, sum(amount_minor)::text AS total FROM ins GROUP BY invoice_id`.execute(tx)
      const lines = new Map(written.rows.map((w) => [w.invoice_id, w]))
      for (const [i, row] of rows.entries()) {
        const got = lines.get(row.id)
        // The charges changed between the sums and the lines (a charge of a closed month settling late): nothing is kept, the job retries.
        if (got?.n !== sums[i]!.n || Number(got.total) !== row.subtotal_minor) throw new Error(`invoice ${row.number}: its lines do not add up to it; the batch is rolled back`)
      }
      if (kind === 'credit-note')
        await sql`UPDATE transactions t SET credit_note_id = d.invoice_id FROM ${docs} JOIN invoices c ON c.id = d.corrects
          WHERE t.billing_entity_id = c.billing_entity_id AND t.currency = c.currency AND c.period = date_trunc('month', t.settled_at AT TIME ZONE 'UTC')::date AND ${where}`.execute(tx)
      for (const [i, invoice] of invoices.entries()) {
        const corrects = invoice.corrects_invoice_id ? corrected.get(invoice.corrects_invoice_id)!.number : undefined
        await audit.record({
          area: 'invoicing',
          entityType: 'billing-entity',
          entityId: invoice.billing_entity_id,
          action: kind === 'invoice' ? 'invoice' : 'credit-note',
          after: { number: invoice.number, currency: invoice.currency.trim(), total_minor: Number(invoice.total_minor), lines: sums[i]!.n, ...(corrects ? { corrects } : {}) },
        })
      }
      made.push(...invoices)
    }
    return made
  })
}

/**
 * The mail of documents issued (the job, queued by the run and every five minutes): each document
 * not mailed yet is claimed (a claim older than ten minutes is a worker that died: taken again),
 * mailed to its billing address, and marked mailed. A failed mail stays claimed and is tried again
 * after the claim runs out.
 */
export async function mailIssuedInvoices(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'logger' | 'now'>): Promise<number> {
  let mailed = 0
  for (;;) {
    const claimed = await deps.db
      .updateTable('invoices')
      .set({ mail_claimed_at: deps.now() })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('invoices')
          .select('id')
          .where('mailed_at', 'is', null)
          .where((w) => w.or([w('mail_claimed_at', 'is', null), w('mail_claimed_at', '<', new Date(deps.now().getTime() - 10 * 60_000))]))
          .orderBy('issued_at')
          .limit(50)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .execute()
    if (!claimed.length) return mailed
    for (const invoice of claimed) if (await mailIssued(deps, invoice)) mailed++
  }
}

async function mailIssued(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'logger'>, invoice: Invoice): Promise<boolean> {
  // In the invoice's language, as its PDF.
  const t = mailTexts(invoice.language)
  const amount = formatMoney(Number(invoice.total_minor), invoice.currency.trim(), invoice.language)
  const subject = t(invoice.kind === 'invoice' ? 'invoice.subject_invoice' : 'invoice.subject_credit', { number: invoice.number })
  try {
    // A credit note is not paid: its mail names no due date.
    const text = invoice.due_at
      ? t('invoice.body', { document: subject, seller: invoice.seller.name, amount, due: isoDay(invoice.due_at), entity: invoice.buyer.name })
      : t('invoice.body_credit', { document: subject, seller: invoice.seller.name, amount, entity: invoice.buyer.name })
    await deps.mailer.send({ to: invoice.buyer.billing_email, subject, text })
    await deps.db.updateTable('invoices').set({ mailed_at: new Date() }).where('id', '=', invoice.id).execute()
    return true
  } catch (error) {
    deps.logger.error('invoice mail failed', { invoice: invoice.number, error })
    return false
  }
}

/** The invoice a credit note corrects (EN 16931 BG-3), as the API and the documents name it. */
export type CorrectedInvoice = Pick<Invoice, 'id' | 'number' | 'issued_at'>

export type InvoiceJson = {
  id: string
  number: string
  kind: Invoice['kind']
  period: string
  currency: string
  language: string
  issued_at: string
  due_at: string | null
  subtotal_minor: number
  tax_rate_percent: number
  tax_minor: number
  total_minor: number
  reverse_charge: boolean
  mailed_at: string | null
  corrects: { id: string; number: string; issued_at: string } | null
}
export const invoiceJson = (row: Invoice, corrects: CorrectedInvoice | null = null): InvoiceJson => ({
  id: row.id,
  number: row.number,
  kind: row.kind,
  period: row.period.slice(0, 7),
  currency: row.currency.trim(),
  language: row.language,
  issued_at: row.issued_at.toISOString(),
  due_at: row.due_at?.toISOString() ?? null,
  subtotal_minor: Number(row.subtotal_minor),
  tax_rate_percent: Number(row.tax_rate_percent),
  tax_minor: Number(row.tax_minor),
  total_minor: Number(row.total_minor),
  reverse_charge: row.reverse_charge,
  mailed_at: row.mailed_at?.toISOString() ?? null,
  corrects: corrects ? { id: corrects.id, number: corrects.number, issued_at: corrects.issued_at.toISOString() } : null,
})

/** The invoices the credit notes among `rows` correct, by id. */
async function correctedOf(db: Kysely<DB>, rows: Invoice[]): Promise<Map<string, CorrectedInvoice>> {
  const ids = [...new Set(rows.flatMap((row) => (row.corrects_invoice_id ? [row.corrects_invoice_id] : [])))]
  if (!ids.length) return new Map()
  return new Map((await db.selectFrom('invoices').select(['id', 'number', 'issued_at']).where('id', 'in', ids).execute()).map((i) => [i.id, i]))
}

/** The documents of an entity the scope reaches, newest first. */
export async function entityInvoices(db: Kysely<DB>, scope: Scope, entityId: string): Promise<InvoiceJson[]> {
  requirePermission(scope.actor, 'invoice-viewer')
  await findBillingEntity(db, scope, entityId)
  const rows = await db.selectFrom('invoices').selectAll().where('billing_entity_id', '=', entityId).orderBy('issued_at', 'desc').orderBy('seq', 'desc').limit(200).execute()
  const corrected = await correctedOf(db, rows)
  return rows.map((row) => invoiceJson(row, row.corrects_invoice_id ? (corrected.get(row.corrects_invoice_id) ?? null) : null))
}

/** One document with its lines (and, for a credit note, the invoice it corrects), if the scope reaches its entity. */
export async function loadInvoice(db: Kysely<DB>, scope: Scope, id: string): Promise<{ invoice: Invoice; lines: InvoiceLine[]; corrects: CorrectedInvoice | null }> {
  requirePermission(scope.actor, 'invoice-viewer')
  const invoice = await db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst()
  if (!invoice) throw notFound('Invoice not found')
  await findBillingEntity(db, scope, invoice.billing_entity_id).catch(() => {
    throw notFound('Invoice not found')
  })
  const lines = await db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', id).orderBy('position').execute()
  return { invoice, lines, corrects: (await correctedOf(db, [invoice])).get(invoice.corrects_invoice_id ?? '') ?? null }
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

const invoiceTotalText = `i.currency || ' ' || CASE WHEN i.currency = 'JPY' THEN i.total_minor::text ELSE to_char(i.total_minor / 100.0, 'FM999999999990.00') END`
const invoiceColumns = {
  id: 'i.id',
  number: 'i.number',
  kind: 'i.kind',
  issued_at: 'i.issued_at',
  period: `to_char(i.period, 'YYYY-MM')`,
  currency: 'i.currency',
  subtotal_minor: 'i.subtotal_minor',
  tax_minor: 'i.tax_minor',
  total_minor: 'i.total_minor',
  total_text: invoiceTotalText,
  due_at: 'i.due_at',
  status: `CASE WHEN i.mailed_at IS NULL THEN 'issued' ELSE 'sent' END`,
  reverse_charge: 'i.reverse_charge',
  corrects_number: { column: '(SELECT c.number FROM invoices c WHERE c.id = i.corrects_invoice_id)', joined: true },
  billing_entity_id: 'i.billing_entity_id',
  'billing_entity.name': { column: 'be.name', joined: true },
} as const
const INVOICES_FROM = 'invoices i LEFT JOIN billing_entities be ON be.id = i.billing_entity_id'

/** Every invoice and credit note (staff in their own group). */
export const invoicesResource = listResource(INVOICES_LIST, { from: INVOICES_FROM, tiebreak: 'i.id', columns: invoiceColumns })
/**
 * The documents of the entity paying for the scope's account (issue 28): reached through that
 * account only, as its billing entity is (`scopedBillingEntitiesResource`), so another account's
 * documents are never in the page.
 */
export const scopedInvoicesResource = listResource(INVOICES_LIST, {
  from: `${INVOICES_FROM} ${joinAccounts('scoped', 'i.billing_entity_id', { by: 'billing_entity_id' })}`,
  accountColumn: 'scoped.id',
  tiebreak: 'i.id',
  columns: invoiceColumns,
})
