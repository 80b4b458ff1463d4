import type { ColumnType, Generated, Selectable } from 'kysely'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export type SyncState = 'pending' | 'synced' | 'failed'
export type ContactRole = 'registrant' | 'admin' | 'tech' | 'billing'

export interface ContactsTable {
  id: Generated<string>
  account_id: string
  name: string
  organisation: Defaulted<string>
  email: string
  phone: string | null
  mobile: string | null
  fax: string | null
  street1: Defaulted<string>
  street2: Defaulted<string>
  street3: Defaulted<string>
  city: Defaulted<string>
  state: Defaulted<string>
  postcode: Defaulted<string>
  country_code: string
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface RegistryHandlesTable {
  id: Generated<string>
  contact_id: string
  registry: string
  handle: string
  sync_state: Defaulted<SyncState>
  last_synced_at: Date | null
  error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

export interface DomainContactsTable {
  domain_id: string
  contact_id: string
  role: ContactRole
  created_at: Timestamp
}

export interface UserInvitesTable {
  id: Generated<string>
  user_id: string
  token_hash: string
  expires_at: Date
  used_at: Date | null
  created_at: Timestamp
}

/** Catalogue columns added to `tlds` by migration 0300. */
export interface TldCatalogueColumns {
  add_grace_days: Defaulted<number>
  renew_grace_days: Defaulted<number>
  auto_renew_grace_days: Defaulted<number>
  transfer_grace_days: Defaulted<number>
  redemption_days: Defaulted<number>
  required_contacts: Defaulted<ContactRole[]>
  /** The scripts its labels may be written in (ISO 15924); null: the default of `tldScripts` (issue 26). */
  idn_scripts: string[] | null
}

/** The tables of the directory area (accounts, users, contacts, TLDs). */
export interface DirectoryTables {
  contacts: ContactsTable
  registry_handles: RegistryHandlesTable
  domain_contacts: DomainContactsTable
  user_invites: UserInvitesTable
}

export type Contact = Selectable<ContactsTable>
export type RegistryHandle = Selectable<RegistryHandlesTable>
