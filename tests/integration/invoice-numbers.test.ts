import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '#server/db/database.ts'
import { migrate } from '#server/db/migrate.ts'
import type { MailMessage } from '#server/integrations/mail/mailer.ts'
import { documentNumber, invoiceBatch, mailIssuedInvoices, runInvoices } from '#server/platform/billing/invoices.ts'
import { DEMO_SELLER, sellerOf } from '#server/platform/billing/seller.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { en16931Failures } from '#tests/support/en16931.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

/**
 * Invoice numbers and credit notes (issue 26): a number identifies one document of its seller
 * (EN 16931 BT-1, VAT directive art. 226(2)) — one gapless series per seller and year for invoices,
 * another for credit notes, whatever the billing entity, the batch or the runs at the same time; a
 * credit note names the invoice it corrects (BG-3), carries its period and has no due date; the
 * PDF writes amounts and the rate in its language; invoice.issued says what the API says.
 */
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const mails: MailMessage[] = []
let staff = ''
let home = ''
const year = new Date().getUTCFullYear()
/** The first of the month `back` months before this one, as YYYY-MM. */
const monthAgo = (back: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - back, 1)).toISOString().slice(0, 7)
const [A, B, C, D] = [monthAgo(5), monthAgo(4), monthAgo(3), monthAgo(2)]
/** The entities this file bills: name → country, VAT id, language. Spanish ones: reverse-charged (a VAT id) and taxed at Spain's rate. */
const ENTITIES: [string, string, string | null, string][] = [
  ['Numbers One', 'NL', null, 'en'],
  ['Numbers Two', 'DE', 'DE123456789', 'en'],
  ['Numbers Tres', 'ES', 'ESB12345678', 'es'],
  ['Numbers Cuatro', 'ES', null, 'es'],
  ['Numbers Five', 'US', null, 'en'],
]
const entity: Record<string, string> = {}
const account: Record<string, string> = {}

beforeAll(async () => {
  platform = await createTestPlatform(
    {
      mailer: {
        send: async (message) => {
          mails.push(message)
        },
      },
    },
    { seed: { domainsPerAccount: [1, 1] } },
  )
  staff = (await platform.call('POST', '/login', { body: { username: 'staff@example.com', password: DEMO_PASSWORD } })).json.access_token
  home = (await platform.call('GET', '/me', { token: staff })).json.group_id
  await platform.call('PUT', `/groups/${home}/tax-rates/ES`, { token: staff, body: { rate_percent: 21 } })
  for (const [name, country, vat, language] of ENTITIES) {
    const made = await sql<{ id: string }>`INSERT INTO billing_entities (name, country, vat_id, currency, billing_email, invoice_language)
      VALUES (${name}, ${country}, ${vat}, 'EUR', ${`${name.replace(/ /g, '.').toLowerCase()}@billing.example`}, ${language}) RETURNING id`.execute(platform.db)
    entity[name] = made.rows[0]!.id
    account[name] = (
      await sql<{ id: string }>`INSERT INTO accounts (name, currency, billing_entity_id) VALUES (${`${name} account`}, 'EUR', ${entity[name]}) RETURNING id`.execute(platform.db)
    ).rows[0]!.id
  }
  // Two charges per entity in each of the months A and B, one in D for two of them (settled then: written as the run finds them).
  for (const [month, names] of [
    [A, Object.keys(entity)],
    [B, Object.keys(entity)],
    [D, ['Numbers One', 'Numbers Tres']],
  ] as const) {
    for (const name of names) {
      for (const n of [1, 2]) {
        await sql`INSERT INTO transactions (idempotency_key, account_id, billing_entity_id, state, kind, action, product_code, object_name, period, unit_minor, amount_minor, currency, actor_label, settled_at)
          VALUES (${`numbers:${name}:${month}:${n}`}, ${account[name]}, ${entity[name]}, 'settled', 'domain', 'renew', 'domain:com:renew', ${`${name.split(' ')[1]!.toLowerCase()}-${n}.com`}, 1,
            ${1000 + 99 * n}, ${1000 + 99 * n}, 'EUR', 'test', ${`${month}-0${n + 1}T10:00:00Z`})`.execute(platform.db)
      }
    }
  }
  await platform.deps.jobs.start({ work: false })
})
afterAll(async () => {
  await platform?.close()
})

type Doc = { number: string; kind: string; series: string; seq: number; year: number }
const documents = async () => (await platform.db.selectFrom('invoices').select(['number', 'kind', 'series', 'seq', 'year']).orderBy('series').orderBy('kind').orderBy('seq').execute()) as Doc[]

/** Each series (seller, kind, year) numbered 1…n without a gap, each number its document's, and the counter at n. */
async function expectGapless() {
  const docs = await documents()
  const series = new Map<string, Doc[]>()
  for (const d of docs) series.set(`${d.series}|${d.kind}|${d.year}`, [...(series.get(`${d.series}|${d.kind}|${d.year}`) ?? []), d])
  for (const [key, theirs] of series) {
    expect({ key, numbers: theirs.map((d) => d.number) }).toEqual({ key, numbers: theirs.map((_, i) => documentNumber(theirs[0]!.kind as 'invoice', theirs[0]!.year, i + 1)) })
    const [name, kind] = key.split('|')
    const counter = await platform.db
      .selectFrom('invoice_series')
      .select('last_seq')
      .where('series', '=', name!)
      .where('kind', '=', kind as 'invoice')
      .where('year', '=', theirs[0]!.year)
      .executeTakeFirstOrThrow()
    expect({ key, last: counter.last_seq }).toEqual({ key, last: theirs.length })
  }
  return docs
}

describe('invoice numbers', () => {
  it("are one gapless series per seller and year across entities, batches and runs at the same time; the database refuses a seller's number twice", async () => {
    // Month A run twice at once (a job retried while it still runs) and month B beside them, two entities to a batch.
    const made = await Promise.all([runInvoices(platform.deps, `${A}-01`, { batch: 2 }), runInvoices(platform.deps, `${A}-01`, { batch: 2 }), runInvoices(platform.deps, `${B}-01`, { batch: 2 })])
    expect(made[0] + made[1]).toBe(5)
    expect(made[2]).toBe(5)
    // Resumed (the job again after a crash): nothing more, no number taken.
    expect(await runInvoices(platform.deps, `${A}-01`, { batch: 2 })).toBe(0)
    const docs = await expectGapless()
    expect(docs.map((d) => d.number)).toEqual(Array.from({ length: 10 }, (_, i) => `INV-${year}-${String(i + 1).padStart(6, '0')}`))
    expect(new Set(docs.map((d) => d.series))).toEqual(new Set([DEMO_SELLER.vat_id]))

    // Another seller (its own VAT id) has its own series from 1; the first seller's goes on where it was.
    const other = { ...platform.deps, config: { ...platform.deps.config, SELLER_NAME: 'Registrar Dos S.L.', SELLER_COUNTRY: 'ES', SELLER_VAT_ID: 'ESB87654321' } }
    expect(await runInvoices(other, `${D}-01`)).toBe(2)
    const theirs = await platform.db.selectFrom('invoices').select(['number', 'series']).where('period', '=', `${D}-01`).orderBy('number').execute()
    expect(theirs).toEqual([
      { number: `INV-${year}-000001`, series: 'ESB87654321' },
      { number: `INV-${year}-000002`, series: 'ESB87654321' },
    ])
    await expectGapless()

    // The database itself refuses one seller's number on a second document.
    const first = await platform.db.selectFrom('invoices').selectAll().where('number', '=', `INV-${year}-000001`).where('series', '=', DEMO_SELLER.vat_id).executeTakeFirstOrThrow()
    await expect(
      sql`INSERT INTO invoices (billing_entity_id, kind, period, run_period, year, seq, series, number, currency, language, issued_at, due_at, subtotal_minor, tax_rate_percent, tax_minor, total_minor, buyer, seller)
        SELECT billing_entity_id, kind, '2001-01-01', '2001-01-01', year, 999, series, number, currency, language, issued_at, due_at, subtotal_minor, tax_rate_percent, tax_minor, total_minor, buyer, seller
        FROM invoices WHERE id = ${first.id}`.execute(platform.db),
    ).rejects.toThrow(/invoices_series_number_key/)
  })

  it('write amounts and the tax rate in the Spanish PDF alike (IVA 0,00 %, IVA 21,00 %), and invoice.issued says what the API answers', async () => {
    const listOf = async (name: string) => (await platform.call('GET', `/groups/${home}/billing-entities/${entity[name]}/invoices`, { token: staff })).json.data as Record<string, unknown>[]
    const text = async (id: string) => {
      const pdf = await platform.api.fetch(new Request(`http://platform.test/v1/groups/${home}/invoices/${id}/pdf`, { headers: { authorization: `Bearer ${staff}` } }))
      expect(pdf.status).toBe(200)
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'invoice-')), 'invoice.pdf')
      writeFileSync(file, Buffer.from(await pdf.arrayBuffer()))
      return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ')
    }
    const reverse = (await listOf('Numbers Tres')).find((i) => i.period === A)!
    expect(reverse).toMatchObject({ reverse_charge: true, tax_rate_percent: 0, language: 'es', kind: 'invoice', corrects: null })
    const reverseText = await text(reverse.id as string)
    expect(reverseText).toContain('IVA 0,00 %')
    expect(reverseText).toContain('Base imponible 22,97 €')
    expect(reverseText).toContain('10,99 €')
    const domestic = (await listOf('Numbers Cuatro')).find((i) => i.period === A)!
    expect(domestic).toMatchObject({ reverse_charge: false, tax_rate_percent: 21, subtotal_minor: 2297, tax_minor: 482, total_minor: 2779 })
    const domesticText = await text(domestic.id as string)
    expect(domesticText).toContain('IVA 21,00 %')
    expect(domesticText).toMatch(/IVA 21,00 % 4,82 €/)
    expect(domesticText).toMatch(/Total 27,79 €/)
    // In English the same amounts in its own form.
    const english = (await listOf('Numbers One')).find((i) => i.period === A)!
    expect(await text(english.id as string)).toMatch(/VAT \d+\.\d{2}% €\d+\.\d{2}/)

    // The event of each document, field by field the API's answer (the period YYYY-MM, not a date).
    for (const invoice of [reverse, domestic, english]) {
      const events = await platform.db
        .selectFrom('webhook_events')
        .select(['data'])
        .where('type', '=', 'invoice.issued')
        .where(sql<boolean>`data ->> 'id' = ${invoice.id}`)
        .execute()
      expect(events).toHaveLength(1)
      const data = events[0]!.data as Record<string, unknown>
      const fields = ['id', 'number', 'kind', 'period', 'currency', 'total_minor', 'due_at', 'corrects'] as const
      expect(Object.fromEntries(fields.map((f) => [f, data[f]]))).toEqual(Object.fromEntries(fields.map((f) => [f, invoice[f]])))
      expect(data.period).toMatch(/^\d{4}-\d{2}$/)
    }
  })
})

describe('credit notes', () => {
  it('have their own series, name the invoice they correct with its period, have no due date, and pass EN 16931', async () => {
    const invoiceOf = async (name: string, month: string) =>
      platform.db.selectFrom('invoices').selectAll().where('billing_entity_id', '=', entity[name]!).where('kind', '=', 'invoice').where('period', '=', `${month}-01`).executeTakeFirstOrThrow()
    // A charge invoiced in A and one invoiced in B refunded (staff, with a reason) in month C: C's run credits each on its own note.
    const refunded: string[] = []
    for (const month of [A, B]) {
      const charge = await platform.db.selectFrom('transactions').select('id').where('idempotency_key', '=', `numbers:Numbers Tres:${month}:2`).executeTakeFirstOrThrow()
      const refund = await platform.call('POST', `/groups/${home}/transactions/${charge.id}/refund`, { token: staff, body: { reason: 'Renewed by mistake' } })
      expect(refund.status).toBe(200)
      refunded.push(charge.id)
    }
    await sql`UPDATE transactions SET updated_at = ${`${C}-15T12:00:00Z`} WHERE id = ANY(${refunded}::uuid[])`.execute(platform.db)
    mails.length = 0
    expect(await runInvoices(platform.deps, `${C}-01`)).toBe(2)
    const [ofA, ofB] = [await invoiceOf('Numbers Tres', A), await invoiceOf('Numbers Tres', B)]
    const list = (await platform.call('GET', `/groups/${home}/billing-entities/${entity['Numbers Tres']}/invoices`, { token: staff })).json.data as Record<string, unknown>[]
    const notes = list.filter((i) => i.kind === 'credit-note').sort((a, b) => String(a.number).localeCompare(String(b.number)))
    // Their own series (CN), from 1, beside the invoices' (INV) of the same seller.
    expect(notes).toEqual([
      expect.objectContaining({ number: `CN-${year}-000001`, period: A, due_at: null, corrects: { id: ofA.id, number: ofA.number, issued_at: ofA.issued_at.toISOString() } }),
      expect.objectContaining({ number: `CN-${year}-000002`, period: B, due_at: null, corrects: { id: ofB.id, number: ofB.number, issued_at: ofB.issued_at.toISOString() } }),
    ])
    await expectGapless()
    // Each note's line is the refunded charge, credited; at its invoice's rate and treatment (reverse charge: 0).
    for (const note of notes) expect(note).toMatchObject({ subtotal_minor: -1198, tax_minor: 0, total_minor: -1198, reverse_charge: true })

    // The e-invoice: a CreditNote naming its invoice (BG-3, with its date), the invoice's period, no due date — and EN 16931's rules all kept.
    const xml = (await platform.call('GET', `/groups/${home}/invoices/${notes[0]!.id}/xml`, { token: staff })).text
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml).CreditNote
    expect(doc['cac:BillingReference']).toEqual({ 'cac:InvoiceDocumentReference': { 'cbc:ID': ofA.number, 'cbc:IssueDate': ofA.issued_at.toISOString().slice(0, 10) } })
    expect(doc['cac:InvoicePeriod']['cbc:StartDate']).toBe(`${A}-01`)
    expect(xml).not.toMatch(/DueDate/)
    const invoiceXml = (await platform.call('GET', `/groups/${home}/invoices/${ofA.id}/xml`, { token: staff })).text
    expect(en16931Failures({ credit: xml, invoice: invoiceXml })).toEqual({ credit: [], invoice: [] })

    // The PDF names the invoice and has no due date; the mail too.
    const pdf = await platform.api.fetch(new Request(`http://platform.test/v1/groups/${home}/invoices/${notes[0]!.id}/pdf`, { headers: { authorization: `Bearer ${staff}` } }))
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'credit-')), 'credit.pdf')
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ')
    expect(text).toContain(`Factura rectificativa CN-${year}-000001`)
    expect(text).toContain(`Rectifica la factura ${ofA.number} del ${ofA.issued_at.toISOString().slice(0, 10)}.`)
    expect(text).toContain(`Periodo ${A}`)
    expect(text).not.toContain('Vencimiento')
    await mailIssuedInvoices(platform.deps)
    const mail = mails.find((m) => m.subject === `Factura rectificativa CN-${year}-000001`)!
    expect(mail.text).not.toMatch(/vence/)
    // The run again adds nothing: each invoice's refunds are credited once.
    expect(await runInvoices(platform.deps, `${C}-01`)).toBe(0)
  })
})

describe('documents issued before migration 0960', () => {
  /** A new, empty database: PGlite, or one of its own on the PostgreSQL server of DATABASE_URL. */
  async function emptyDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
    const url = process.env.DATABASE_URL
    if (!url) {
      const database = await openDatabase({ kind: 'pglite' })
      return { database, drop: () => database.close() }
    }
    const name = `rp_invoice_numbers_${randomBytes(6).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const own = new URL(url)
    own.pathname = `/${name}`
    const database = await openDatabase({ kind: 'postgres', url: own.toString(), max: 2 })
    return {
      database,
      drop: async () => {
        await database.close()
        const dropper = new pg.Client({ connectionString: url })
        await dropper.connect()
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await dropper.end()
      },
    }
  }

  it("keep the numbers they were issued with (numbered per entity), and the seller's series go on above them", async () => {
    const { database, drop } = await emptyDatabase()
    const dir = mkdtempSync(path.join(tmpdir(), 'rp-migrations-0960-'))
    try {
      const real = path.join(import.meta.dirname, '../../server/db/migrations')
      const files = readdirSync(real).filter((f) => f.endsWith('.sql'))
      // The schema as it was before 0960, with what a run of then left: two entities' first invoices both INV-…-000001, and a credit note CN-…-000002.
      for (const f of files.filter((f) => f < '0960')) copyFileSync(path.join(real, f), path.join(dir, f))
      await migrate(database, dir)
      const db = database.db
      const [e1, e2] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']
      const seller = JSON.stringify(DEMO_SELLER)
      await sql`INSERT INTO billing_entities (id, name, country, currency, billing_email) VALUES (${e1}, 'Old One', 'NL', 'EUR', 'one@old.example'), (${e2}, 'Old Two', 'NL', 'EUR', 'two@old.example')`.execute(
        db,
      )
      const a1 = (await sql<{ id: string }>`INSERT INTO accounts (name, currency, billing_entity_id) VALUES ('Old one', 'EUR', ${e1}) RETURNING id`.execute(db)).rows[0]!.id
      const a2 = (await sql<{ id: string }>`INSERT INTO accounts (name, currency, billing_entity_id) VALUES ('Old two', 'EUR', ${e2}) RETURNING id`.execute(db)).rows[0]!.id
      const refunded = (
        await sql<{
          id: string
        }>`INSERT INTO transactions (idempotency_key, account_id, billing_entity_id, state, kind, action, product_code, unit_minor, amount_minor, currency, actor_label, settled_at)
          VALUES ('old:1', ${a1}, ${e1}, 'refunded', 'domain', 'renew', 'domain:com:renew', 1000, 1000, 'EUR', 'test', ${`${A}-10T10:00:00Z`}) RETURNING id`.execute(db)
      ).rows[0]!.id
      const doc = (id: string, entity: string, kind: string, period: string, seq: number, total: number) =>
        sql`INSERT INTO invoices (id, billing_entity_id, kind, period, year, seq, number, currency, language, issued_at, due_at, subtotal_minor, tax_rate_percent, tax_minor, total_minor, buyer, seller)
          VALUES (${id}, ${entity}, ${kind}, ${`${period}-01`}, ${year}, ${seq}, ${documentNumber(kind as 'invoice', year, seq)}, 'EUR', 'en', now(), now() + interval '30 days', ${total}, 0, 0, ${total}, '{}', ${seller})`.execute(
          db,
        )
      const [i1, i2, c1] = ['00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000c2', '00000000-0000-4000-8000-0000000000c3']
      await doc(i1, e1, 'invoice', A, 1, 1000)
      await doc(i2, e2, 'invoice', A, 1, 500)
      await doc(c1, e1, 'credit-note', B, 2, -1000)
      await sql`INSERT INTO invoice_lines (invoice_id, position, transaction_id, description, quantity, unit_minor, amount_minor) VALUES (${c1}, 1, ${refunded}, 'Renewal', 1, -1000, -1000)`.execute(
        db,
      )

      for (const f of files.filter((f) => f >= '0960')) copyFileSync(path.join(real, f), path.join(dir, f))
      await migrate(database, dir)
      // Kept as issued: the same numbers (each unique in its entity's series), the credit note naming its one invoice, no due date on it.
      expect(await db.selectFrom('invoices').select(['number', 'series', 'corrects_invoice_id', 'due_at']).orderBy('billing_entity_id').orderBy('number').execute()).toEqual([
        { number: documentNumber('credit-note', year, 2), series: `entity:${e1}`, corrects_invoice_id: i1, due_at: null },
        { number: documentNumber('invoice', year, 1), series: `entity:${e1}`, corrects_invoice_id: null, due_at: expect.any(Date) },
        { number: documentNumber('invoice', year, 1), series: `entity:${e2}`, corrects_invoice_id: null, due_at: expect.any(Date) },
      ])
      // A new invoice of the seller takes the number after every one it issued before: none repeats an old one.
      await sql`INSERT INTO transactions (idempotency_key, account_id, billing_entity_id, state, kind, action, product_code, unit_minor, amount_minor, currency, actor_label, settled_at)
        VALUES ('new:1', ${a2}, ${e2}, 'settled', 'domain', 'renew', 'domain:com:renew', 700, 700, 'EUR', 'test', ${`${C}-10T10:00:00Z`})`.execute(db)
      const made = await invoiceBatch(db, [e1, e2], new Date(`${C}-01T00:00:00Z`), new Date(), sellerOf({}))
      expect(made.map((i) => [i.number, i.series])).toEqual([[documentNumber('invoice', year, 2), DEMO_SELLER.vat_id]])
    } finally {
      await drop()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
