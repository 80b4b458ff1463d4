import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { change } from '#server/platform/core/change.ts'
import { badRequest, fieldError } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'

/**
 * The ECB's daily reference rates (eurofxref-daily.xml, issue 17): one unit of EUR in each other
 * currency on one day. Read strictly — a well-formed gesmes envelope with exactly one dated Cube
 * of currency/rate Cubes, each an ISO 4217 code once with a positive decimal rate — or refused
 * whole: a file that is half understood is not applied.
 */
export type EcbFile = { date: string; rates: { currency: string; rate: number }[] }
export type EcbParse = { ok: true; file: EcbFile } | { ok: false; code: string; message: string }

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, isArray: (name) => name === 'Cube', parseAttributeValue: false, processEntities: false })

type Node = Record<string, unknown>
const nodes = (value: unknown): Node[] => (Array.isArray(value) ? value.filter((v): v is Node => !!v && typeof v === 'object') : [])

export function parseEcbXml(xml: string): EcbParse {
  const fail = (code: string, message: string): EcbParse => ({ ok: false, code: `rates.${code}`, message })
  if (!xml.trim() || XMLValidator.validate(xml) !== true) return fail('ecb_not_xml', 'The file is not well-formed XML')
  const doc = parser.parse(xml) as Node
  const envelope = doc.Envelope as Node | undefined
  if (!envelope || typeof envelope !== 'object') return fail('ecb_not_ecb', "The file is not the ECB's reference rates (no gesmes:Envelope)")
  const days = nodes(envelope.Cube).flatMap((c) => nodes(c.Cube))
  if (days.length !== 1) return fail('ecb_not_ecb', "The file is not the ECB's daily reference rates (one dated Cube expected)")
  const day = days[0]!
  const date = String(day['@time'] ?? '')
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date)
    return fail('ecb_date', 'The rates have no valid date (time="YYYY-MM-DD")')
  const rates: EcbFile['rates'] = []
  for (const cube of nodes(day.Cube)) {
    const currency = String(cube['@currency'] ?? '')
    const text = String(cube['@rate'] ?? '')
    if (!CURRENCIES.has(currency) || currency === 'EUR') return fail('ecb_currency', `Not an ISO 4217 currency code: ${currency || '(none)'}`)
    if (rates.some((r) => r.currency === currency)) return fail('ecb_currency', `${currency} is listed twice`)
    const rate = Number(text)
    if (!/^\d{1,9}(\.\d{1,10})?$/.test(text) || !(rate > 0)) return fail('ecb_rate', `The rate of ${currency} is not a positive number: ${text || '(none)'}`)
    rates.push({ currency, rate })
  }
  if (!rates.length) return fail('ecb_empty', 'The file has no rates')
  return { ok: true, file: { date, rates } }
}

export type EcbRow = { from_currency: 'EUR'; to_currency: string; rate: number; previous: number | null; previous_date: string | null; status: 'new' | 'changed' | 'unchanged' }
export type EcbUpload = { date: string; rows: EcbRow[]; committed: boolean }

/**
 * A preview of the ECB file against the EUR rates staff keep (new, changed, unchanged), or with
 * `commit` every EUR → currency rate of the file set at once with the file's date, in one
 * audited change. A file that is not the ECB's is refused on the `file` field; nothing is written.
 */
export async function uploadEcbRates(db: Kysely<DB>, scope: Scope, xml: string, commit: boolean): Promise<EcbUpload> {
  requirePermission(scope.actor, 'staff')
  const parsed = parseEcbXml(xml)
  if (!parsed.ok) throw badRequest("The file is not the ECB's daily reference rates", [fieldError('file', parsed.code, parsed.message)])
  const { date, rates } = parsed.file
  const run = async (tx: Kysely<DB>) => {
    // The day as the database has it (a date read into a JavaScript Date would move with the time zone).
    const current = await tx
      .selectFrom('currency_rates')
      .select(['to_currency', 'rate', 'updated_at', sql<string | null>`to_char(rate_date, 'YYYY-MM-DD')`.as('rate_date')])
      .where('from_currency', '=', 'EUR')
      .execute()
    const byCurrency = new Map(current.map((r) => [r.to_currency.trim(), r]))
    return rates.map((r): EcbRow => {
      const before = byCurrency.get(r.currency)
      const previous = before ? Number(before.rate) : null
      const previousDate = before ? (before.rate_date ?? before.updated_at.toISOString().slice(0, 10)) : null
      return { from_currency: 'EUR', to_currency: r.currency, rate: r.rate, previous, previous_date: previousDate, status: previous === null ? 'new' : previous === r.rate ? 'unchanged' : 'changed' }
    })
  }
  if (!commit) return { date, rows: await run(db), committed: false }
  return change(db, scope, async (tx, audit) => {
    const rows = await run(tx)
    const now = new Date()
    await tx
      .insertInto('currency_rates')
      .values(rates.map((r) => ({ from_currency: 'EUR', to_currency: r.currency, rate: String(r.rate), rate_date: date, updated_at: now })))
      .onConflict((oc) => oc.columns(['from_currency', 'to_currency']).doUpdateSet((eb) => ({ rate: eb.ref('excluded.rate'), rate_date: eb.ref('excluded.rate_date'), updated_at: now })))
      .execute()
    await audit.record({
      area: 'invoicing',
      entityType: 'currency-rate',
      entityId: `EUR-ecb-${date}`,
      accountId: null,
      action: 'ecb-upload',
      before: Object.fromEntries(rows.filter((r) => r.previous !== null).map((r) => [r.to_currency, r.previous])),
      after: { date, rates: Object.fromEntries(rates.map((r) => [r.currency, r.rate])) },
    })
    return { date, rows, committed: true }
  })
}

// ----------------------------------------------------------------------------- the rates staff keep by hand

export type CurrencyRate = { from_currency: string; to_currency: string; rate: number; updated_at: string; rate_date: string | null }

const rateJson = (row: { from_currency: string; to_currency: string; rate: string | number; updated_at: Date; rate_date?: unknown }): CurrencyRate => ({
  from_currency: row.from_currency.trim(),
  to_currency: row.to_currency.trim(),
  rate: Number(row.rate),
  updated_at: row.updated_at.toISOString(),
  // The day it is the reference rate of (an ECB file's, issue 17), read as text; null when typed by hand.
  rate_date: typeof row.rate_date === 'string' ? row.rate_date : null,
})

/** Every exchange rate staff keep, by currency pair. */
export async function listRates(db: Kysely<DB>, scope: Scope): Promise<CurrencyRate[]> {
  requirePermission(scope.actor, 'staff')
  const rows = await db
    .selectFrom('currency_rates')
    .select(['from_currency', 'to_currency', 'rate', 'updated_at', sql<string | null>`to_char(rate_date, 'YYYY-MM-DD')`.as('rate_date')])
    .orderBy('from_currency')
    .orderBy('to_currency')
    .execute()
  return rows.map(rateJson)
}

/** Sets (or replaces) the rate of one unit of `from` in `to` (staff), audited as invoicing. */
export async function setRate(db: Kysely<DB>, scope: Scope, from: string, to: string, rate: number): Promise<CurrencyRate> {
  requirePermission(scope.actor, 'staff')
  const errors = [
    ...(CURRENCIES.has(from) ? [] : [{ field: 'from', message: 'Not an ISO 4217 currency code' }]),
    ...(CURRENCIES.has(to) ? [] : [{ field: 'to', message: 'Not an ISO 4217 currency code' }]),
    ...(from === to ? [{ field: 'to', message: 'A currency needs no rate to itself' }] : []),
    ...(Number.isFinite(rate) && rate > 0 && rate < 1e9 ? [] : [{ field: 'rate', message: 'A rate is a positive number' }]),
  ]
  if (errors.length) throw badRequest('The exchange rate is not valid', errors)
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('currency_rates').selectAll().where('from_currency', '=', from).where('to_currency', '=', to).executeTakeFirst()
    const row = await tx
      .insertInto('currency_rates')
      .values({ from_currency: from, to_currency: to, rate: String(rate), updated_at: new Date() })
      .onConflict((oc) => oc.columns(['from_currency', 'to_currency']).doUpdateSet({ rate: String(rate), rate_date: null, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'invoicing',
      entityType: 'currency-rate',
      entityId: `${from}-${to}`,
      accountId: null,
      action: before ? 'update' : 'create',
      before: before ? { rate: Number(before.rate) } : null,
      after: { from, to, rate },
    })
    return rateJson(row)
  })
}
