import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'

/**
 * What other areas may read of the contacts area's tables (decision 024): contacts, a domain's
 * contacts by role, and registry handles. Each read takes the caller's executor (the database or a
 * `change()`'s transaction); the builders let the caller pick columns.
 */
type Db = Kysely<DB>

/** The contacts of an account. */
export function contactsOfAccount(db: Db, accountId: string) {
  return db.selectFrom('contacts').where('contacts.account_id', '=', accountId)
}

/** A domain's contact id in each role it has one for. */
export function domainContactIds(db: Db, domainId: string) {
  return db.selectFrom('domain_contacts').select(['role', 'contact_id']).where('domain_id', '=', domainId).execute()
}

/** A domain's contacts with what a screen shows of each, by role. */
export function domainContactCards(db: Db, domainId: string) {
  return db
    .selectFrom('domain_contacts as dc')
    .innerJoin('contacts as c', 'c.id', 'dc.contact_id')
    .select(['dc.role', 'c.id', 'c.name', 'c.organisation', 'c.email'])
    .where('dc.domain_id', '=', domainId)
    .execute()
}

/** A contact's handle at a registry, if it was created there. */
export function registryHandleOf(db: Db, contactId: string, registry: string) {
  return db.selectFrom('registry_handles').select('handle').where('contact_id', '=', contactId).where('registry', '=', registry).executeTakeFirst()
}

/**
 * The SQL a list resource of another area joins a domain's registrant by (its `from`):
 * `LEFT JOIN domain_contacts <dc> … LEFT JOIN contacts <c> …` on the primary key of domain_contacts
 * (domain_id, role), one index probe per row. Aliases and `domainId` are trusted names, never input.
 */
export const joinRegistrant = (dc: string, c: string, domainId: string) => `LEFT JOIN domain_contacts ${dc} ON ${dc}.domain_id = ${domainId} AND ${dc}.role = 'registrant'
    LEFT JOIN contacts ${c} ON ${c}.id = ${dc}.contact_id`
