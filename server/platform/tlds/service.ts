import { tlds as ianaTlds } from '@hapi/tlds'
import type { Kysely } from 'kysely'
import punycode from 'punycode/punycode.js'
import { toUnicodeName } from '#app/lib/domain-name.ts'
import type { Filter } from '#app/lib/pql.ts'
import type { DB, Tld } from '#server/db/schema.ts'
import type { ContactRole, TldEntry } from '#server/db/schema-directory.ts'
import { fieldError, invalid, requirePermission, staleVersion, type CodedFieldError } from '#server/platform/accounts/directory.ts'
import { change } from '#server/platform/core/change.ts'
import { notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { ListResource } from '#server/platform/list/engine.ts'

export type TldKind = Tld['kind']
export const TLD_KINDS = ['generic', 'country-code', 'sponsored', 'new-generic', 'infrastructure'] as const
export const CONTACT_ROLES = ['registrant', 'admin', 'tech', 'billing'] as const
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
      const result = await tx.insertInto('tlds').values(rows.slice(i, i + 500)).onConflict((oc) => oc.column('name').doNothing()).executeTakeFirst()
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
export const tldsResource: ListResource = {
  name: 'tlds',
  from: 'tlds t',
  tiebreak: 't.id',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', column: 't.id', filterable: true },
    name: { type: 'text', column: 't.name', filterable: true, sortable: true },
    unicode_name: { type: 'text', column: 't.unicode_name', filterable: true, sortable: true },
    kind: { type: 'enum', column: 't.kind', filterable: true, sortable: true, choices: TLD_KINDS },
    registry_operator: { type: 'text', column: 't.registry_operator', filterable: true, sortable: true },
    is_offered: { type: 'boolean', column: 't.is_offered', filterable: true, sortable: true },
    periods: { type: 'text', column: 't.periods' },
    add_grace_days: { type: 'integer', column: 't.add_grace_days', filterable: true, sortable: true },
    renew_grace_days: { type: 'integer', column: 't.renew_grace_days', filterable: true, sortable: true },
    auto_renew_grace_days: { type: 'integer', column: 't.auto_renew_grace_days', filterable: true, sortable: true },
    transfer_grace_days: { type: 'integer', column: 't.transfer_grace_days', filterable: true, sortable: true },
    redemption_days: { type: 'integer', column: 't.redemption_days', filterable: true, sortable: true },
    dnssec: { type: 'boolean', column: 't.dnssec', filterable: true, sortable: true },
    idn: { type: 'boolean', column: 't.idn', filterable: true, sortable: true },
    registry_lock: { type: 'boolean', column: 't.registry_lock', filterable: true, sortable: true },
    required_contacts: { type: 'tags', column: 't.required_contacts', filterable: true },
    list_price_minor: { type: 'integer', column: 't.list_price_minor', filterable: true, sortable: true },
    currency: { type: 'text', column: 't.currency', filterable: true, sortable: true },
    version: { type: 'integer', column: 't.version' },
    created_at: { type: 'timestamp', column: 't.created_at', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', column: 't.updated_at', filterable: true, sortable: true },
  },
}

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
      if (!periods.length || periods.some((p) => !Number.isInteger(p) || p < 1 || p > 10)) errors.push(fieldError('periods', 'tld.periods_invalid', 'Registration periods are whole years from 1 to 10'))
      fields.periods = periods
    }
    if (fields.required_contacts !== undefined) fields.required_contacts = [...new Set(fields.required_contacts)]
    if (fields.currency !== undefined && !CURRENCIES.has(fields.currency)) errors.push(fieldError('currency', 'currency.invalid', 'Not an ISO 4217 currency code'))
    const offered = fields.is_offered ?? before.is_offered
    const price = fields.list_price_minor === undefined ? before.list_price_minor : fields.list_price_minor
    if (offered && price === null) errors.push(fieldError('list_price_minor', 'tld.price_required', 'An offered TLD needs a list price'))
    if (errors.length) throw invalid(errors[0]!.code, 'The TLD entry is not valid', errors)
    if (before.version !== version) throw staleVersion(before.version)
    const after = await tx.updateTable('tlds').set({ ...fields, version: before.version + 1, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
    await audit.record({ area: 'tlds', entityType: 'tld', entityId: id, accountId: null, action: 'update', before, after })
    return after
  })
}
