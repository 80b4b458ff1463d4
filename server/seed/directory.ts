import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { ContactRole, SyncState } from '#server/db/schema-directory.ts'
import { createContact, linkDomainContact, upsertRegistryHandle, type ContactInput } from '#server/platform/contacts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { updateTld, type TldPatch } from '#server/platform/tlds/service.ts'

type CatalogueDetails = Omit<TldPatch, 'version'>

// Catalogue entries of the demo's offered TLDs; grace periods as the registries publish them.
const CATALOGUE: Record<string, CatalogueDetails> = {
  com: { kind: 'generic', periods: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], registry_lock: true, required_contacts: ['registrant'] },
  net: { kind: 'generic', periods: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], registry_lock: true, required_contacts: ['registrant'] },
  org: { kind: 'generic', periods: [1, 2, 3, 5, 10], registry_lock: true, required_contacts: ['registrant', 'admin', 'tech'] },
  io: { kind: 'country-code', periods: [1, 2, 3, 5], redemption_days: 30, required_contacts: ['registrant', 'admin', 'tech', 'billing'] },
  de: { kind: 'country-code', periods: [1], add_grace_days: 0, renew_grace_days: 0, auto_renew_grace_days: 0, transfer_grace_days: 0, redemption_days: 30, required_contacts: ['registrant'] },
  es: { kind: 'country-code', periods: [1, 2, 3, 5, 10], add_grace_days: 0, redemption_days: 10, required_contacts: ['registrant', 'admin', 'tech'] },
  jp: { kind: 'country-code', periods: [1], add_grace_days: 0, renew_grace_days: 0, auto_renew_grace_days: 0, redemption_days: 30, dnssec: true, required_contacts: ['registrant', 'admin', 'tech'] },
  eu: { kind: 'country-code', periods: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], add_grace_days: 0, redemption_days: 40, required_contacts: ['registrant', 'tech'] },
  shop: { kind: 'new-generic', periods: [1, 2, 3, 5, 10], required_contacts: ['registrant', 'admin', 'tech', 'billing'] },
  'xn--p1ai': { kind: 'country-code', periods: [1], idn: true, add_grace_days: 0, redemption_days: 30, required_contacts: ['registrant'] },
}

// Contacts in several countries, with the forms people type (normalised to E.164 by the service).
const PEOPLE: Omit<ContactInput, 'email'>[] = [
  {
    name: 'Olivia Carter',
    organisation: '',
    phone: '+1 415 555 0132',
    mobile: '+1 415 555 0177',
    street1: '500 Howard Street',
    street2: 'Suite 300',
    city: 'San Francisco',
    state: 'CA',
    postcode: '94105',
    country_code: 'US',
  },
  { name: 'Jonas Becker', organisation: '', phone: '+49 30 1234567', fax: '+49 30 1234568', street1: 'Friedrichstraße 68', city: 'Berlin', postcode: '10117', country_code: 'DE' },
  {
    name: 'Lucía Fernández',
    organisation: '',
    phone: '+34 912 345 678',
    mobile: '+34 600 123 456',
    street1: 'Calle de Alcalá 48',
    street2: '3º izquierda',
    city: 'Madrid',
    state: 'Madrid',
    postcode: '28014',
    country_code: 'ES',
  },
  { name: '佐藤 花子', organisation: '', phone: '+81 3-1234-5678', street1: '千代田区丸の内1-1-1', city: '東京都', postcode: '100-0005', country_code: 'JP' },
  { name: 'Amelia Hughes', organisation: '', phone: '+44 20 7946 0018', street1: '10 Finsbury Square', city: 'London', postcode: 'EC2A 1AF', country_code: 'GB' },
]

const REGISTRIES = ['verisign', 'denic', 'eurid'] as const
const STATES: SyncState[] = ['synced', 'synced', 'pending', 'failed', 'synced']
const ROLES: ContactRole[] = ['registrant', 'admin', 'tech', 'billing']

/**
 * Directory demo data, made through the services: catalogue details for the offered TLDs, a few
 * contacts per client account with registry handles, and the first domains linked to contacts
 * (so that "in use" is real). Runs after the demo accounts and domains exist.
 */
export async function seedDirectory(db: Kysely<DB>): Promise<void> {
  const scope = systemScope('demo-seed')
  for (const [name, details] of Object.entries(CATALOGUE)) {
    const tld = await db.selectFrom('tlds').select(['id', 'version']).where('name', '=', name).executeTakeFirst()
    if (tld) await updateTld(db, scope, tld.id, { ...details, version: tld.version })
  }

  const accounts = await db.selectFrom('accounts').select(['id', 'name']).where('is_registrar', '=', false).orderBy('created_at').execute()
  for (const account of accounts) {
    const accountScope = systemScope('demo-seed', account.id)
    const slug = account.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
    const contacts = []
    for (const [index, person] of PEOPLE.entries()) {
      const local =
        person.name
          .toLowerCase()
          .normalize('NFKD')
          .replace(/[^a-z]+/g, '.')
          .replace(/^\.|\.$/g, '') || `contact${index + 1}`
      contacts.push(await createContact(db, accountScope, { ...person, organisation: account.name, email: `${local}@${slug}.example` }))
    }
    for (const [index, contact] of contacts.entries()) {
      const registry = REGISTRIES[index % REGISTRIES.length]!
      const state = STATES[index % STATES.length]!
      await upsertRegistryHandle(db, accountScope, {
        contact_id: contact.id,
        registry,
        handle: `${slug.slice(0, 6).toUpperCase()}-${String(index + 1).padStart(4, '0')}`,
        sync_state: state,
        last_synced_at: state === 'synced' ? new Date(Date.UTC(2026, 0, 15 + index)) : null,
        error: state === 'failed' ? '2306 Parameter value policy error: postal code format' : null,
      })
    }
    // The first two contacts hold every role on a few domains and on the flagship names (the brand
    // in each TLD and <brand>-corp.com, issue 28): their pages show contacts set. The last contact stays unused (deletable).
    const brand = slug.split('-')[0]!
    const first = await db.selectFrom('domains').select('id').where('account_id', '=', account.id).orderBy('name').limit(3).execute()
    const flagship = await db
      .selectFrom('domains')
      .select('id')
      .where('account_id', '=', account.id)
      .where((eb) => eb.or([eb('name', '=', `${brand}-corp.com`), eb(sql<boolean>`'brand' = ANY(tags)`, '=', true)]))
      .orderBy('name')
      .execute()
    const domains = [...new Map([...first, ...flagship].map((d) => [d.id, d])).values()]
    for (const domain of domains) {
      for (const [i, role] of ROLES.entries()) await linkDomainContact(db, accountScope, { domain_id: domain.id, contact_id: contacts[i % 2]!.id, role })
    }
  }
}
