import { tlds as ianaTlds } from '@hapi/tlds'
import type { Kysely } from 'kysely'
import { toUnicodeName } from '#app/lib/domain-name.ts'
import type { DB, Tld } from '#server/db/schema.ts'
import { change } from '#server/platform/core/change.ts'
import type { Scope } from '#server/platform/core/scope.ts'

export type TldKind = Tld['kind']

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
