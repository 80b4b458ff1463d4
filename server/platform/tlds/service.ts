import { tlds as ianaTlds } from '@hapi/tlds'
import type { Kysely } from 'kysely'
import punycode from 'punycode/punycode.js'
import { toUnicodeName } from '#common/domain-name.ts'
import type { Filter } from '#common/pql.ts'
import type { DB, Tld } from '#server/db/schema.ts'
import type { ContactRole } from '#server/db/schema-directory.ts'
import type { TldEntry } from '#server/db/schema.ts'
import { requirePermission } from '#server/platform/core/scope.ts'
import { change } from '#server/platform/core/change.ts'
import { type CodedFieldError, fieldError, invalid, notFound, staleVersion } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { listResource } from '#server/platform/list/engine.ts'
import { TLD_KINDS, TLDS_LIST } from '#common/lists/directory.ts'

export type TldKind = Tld['kind']
export { TLD_KINDS }
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'))

/** Kind of a TLD by the shape of its name, until the registrar sets it in the catalogue. */
export function defaultKind(name: string): TldKind {
  if (name === 'arpa') return 'infrastructure'
  if (/^[a-z]{2}$/.test(name)) return 'country-code'
  if (['aero', 'asia', 'cat', 'coop', 'edu', 'gov', 'int', 'jobs', 'mil', 'museum', 'post', 'tel', 'travel', 'xxx'].includes(name)) return 'sponsored'
  if (['com', 'net', 'org', 'info', 'biz', 'name', 'pro'].includes(name)) return 'generic'
  return 'new-generic'
}

/** Puts every IANA TLD in the catalogue (missing ones only); one audit entry for the import. */
export async function importIanaTlds(db: Kysely<DB>, scope: Scope): Promise<number> {
  return change(db, scope, async (tx, audit) => {
    const names = [...ianaTlds].sort()
    const rows = names.map((name) => ({
      name,
      unicode_name: toUnicodeName(name),
      kind: defaultKind(name),
      idn: name.startsWith('xn--'),
    }))
    let inserted = 0
    for (let i = 0; i < rows.length; i += 500) {
      const result = await tx
        .insertInto('tlds')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) => oc.column('name').doNothing())
        .executeTakeFirst()
      inserted += Number(result.numInsertedOrUpdatedRows ?? 0)
    }
    await audit.record({ area: 'tlds', entityType: 'tld-catalogue', entityId: 'iana', accountId: null, action: 'import', after: { inserted } })
    return inserted
  })
}

export type TldOffer = { name: string; list_price_minor: number; currency: string; registry_operator?: string; periods?: number[]; registry_lock?: boolean }

/** Offers a TLD for sale with its list price. */
export async function offerTld(db: Kysely<DB>, scope: Scope, offer: TldOffer): Promise<Tld> {
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('tlds').selectAll().where('name', '=', offer.name).executeTakeFirstOrThrow()
    const after = await tx
      .updateTable('tlds')
      .set({ ...offer, is_offered: true, version: before.version + 1, updated_at: new Date() })
      .where('id', '=', before.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'tlds', entityType: 'tld', entityId: after.id, accountId: null, action: 'update', before, after })
    return after
  })
}

/** The TLD catalogue as a list resource; it belongs to no account. */
export const tldsResource = listResource(TLDS_LIST, {
  from: 'tlds t',
  tiebreak: 't.id',
  columns: {
    id: 't.id',
    name: 't.name',
    unicode_name: 't.unicode_name',
    kind: 't.kind',
    registry_operator: 't.registry_operator',
    is_offered: 't.is_offered',
    periods: 't.periods',
    add_grace_days: 't.add_grace_days',
    renew_grace_days: 't.renew_grace_days',
    auto_renew_grace_days: 't.auto_renew_grace_days',
    transfer_grace_days: 't.transfer_grace_days',
    redemption_days: 't.redemption_days',
    dnssec: 't.dnssec',
    idn: 't.idn',
    registry_lock: 't.registry_lock',
    required_contacts: 't.required_contacts',
    list_price_minor: 't.list_price_minor',
    currency: 't.currency',
    version: 't.version',
    created_at: 't.created_at',
    updated_at: 't.updated_at',
  },
})

/**
 * Lets `name` filters take either form: a Unicode value (рф, .みんな) filters the Unicode name,
 * an ASCII one the punycode name; a leading dot is ignored.
 */
export function normaliseNameFilters(filters: Filter[]): Filter[] {
  return filters.map((filter) => {
    if (filter.field !== 'name') return filter
    const values = filter.values.map((v) => v.trim().replace(/^\./, '').toLowerCase())
    const unicode = values.some((v) => /[^\p{ASCII}]/u.test(v))
    return unicode ? { ...filter, field: 'unicode_name', values: values.map((v) => v.normalize('NFC')) } : { ...filter, values }
  })
}

/** One TLD by id, or by name in either form (com, xn--p1ai, рф). */
export async function getTld(db: Kysely<DB>, idOrName: string): Promise<TldEntry> {
  const key = idOrName.trim().replace(/^\./, '').toLowerCase()
  let query = db.selectFrom('tlds').selectAll()
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(key)) query = query.where('id', '=', key)
  else query = query.where('name', '=', /[^\p{ASCII}]/u.test(key) ? safeToAscii(key) : key)
  const tld = await query.executeTakeFirst()
  if (!tld) throw notFound('TLD not found')
  return tld
}

function safeToAscii(name: string): string {
  try {
    return punycode.toASCII(name.normalize('NFC'))
  } catch {
    return name
  }
}

export type TldPatch = {
  kind?: TldKind
  registry_operator?: string
  is_offered?: boolean
  periods?: number[]
  add_grace_days?: number
  renew_grace_days?: number
  auto_renew_grace_days?: number
  transfer_grace_days?: number
  redemption_days?: number
  dnssec?: boolean
  idn?: boolean
  registry_lock?: boolean
  required_contacts?: ContactRole[]
  idn_scripts?: string[] | null
  list_price_minor?: number | null
  currency?: string
  version: number
}

/** Edits a TLD's catalogue entry (staff only); an offered TLD needs a list price. */
export async function updateTld(db: Kysely<DB>, scope: Scope, id: string, patch: TldPatch): Promise<TldEntry> {
  requirePermission(scope.actor, 'staff')
  const { version, ...fields } = patch
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('tlds').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()
    if (!before) throw notFound('TLD not found')
    const errors: CodedFieldError[] = []
    if (fields.periods !== undefined) {
      const periods = [...new Set(fields.periods)].sort((a, b) => a - b)
      if (!periods.length || periods.some((p) => !Number.isInteger(p) || p < 1 || p > 10))
        errors.push(fieldError('periods', 'tld.periods_invalid', 'Registration periods are whole years from 1 to 10'))
      fields.periods = periods
    }
    if (fields.required_contacts !== undefined) fields.required_contacts = [...new Set(fields.required_contacts)]
    // An empty list is the default, as null.
    if (fields.idn_scripts !== undefined) fields.idn_scripts = fields.idn_scripts?.length ? [...new Set(fields.idn_scripts)] : null
    if (fields.currency !== undefined && !CURRENCIES.has(fields.currency)) errors.push(fieldError('currency', 'currency.invalid', 'Not an ISO 4217 currency code'))
    const offered = fields.is_offered ?? before.is_offered
    const price = fields.list_price_minor === undefined ? before.list_price_minor : fields.list_price_minor
    if (offered && price === null) errors.push(fieldError('list_price_minor', 'tld.price_required', 'An offered TLD needs a list price'))
    if (errors.length) throw invalid(errors[0]!.code, 'The TLD entry is not valid', errors)
    if (before.version !== version) throw staleVersion(before.version)
    const after = await tx
      .updateTable('tlds')
      .set({ ...fields, version: before.version + 1, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'tlds', entityType: 'tld', entityId: id, accountId: null, action: 'update', before, after })
    return after
  })
}
