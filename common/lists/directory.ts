import { listCatalogue } from '../list-catalogue.ts'
import { UI_LANGUAGES } from '../vocabulary.ts'

/** Field catalogues of the directory lists: accounts, users, contacts, registry handles, TLDs. */

export const ACCOUNT_STATUSES = ['active', 'suspended'] as const
/** A user's status in the list: 'invited' is an active user who has not accepted the invitation yet. */
export const USER_STATUSES = ['active', 'invited', 'disabled'] as const
export const HANDLE_SYNC_STATES = ['pending', 'synced', 'failed'] as const
export const TLD_KINDS = ['generic', 'country-code', 'sponsored', 'new-generic', 'infrastructure'] as const

export const ACCOUNTS_LIST = listCatalogue({
  name: 'accounts',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    status: { type: 'enum', filterable: true, sortable: true, choices: ACCOUNT_STATUSES },
    currency: { type: 'text', filterable: true, sortable: true },
    language: { type: 'enum', filterable: true, sortable: true, choices: UI_LANGUAGES },
    is_registrar: { type: 'boolean', filterable: true },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const USERS_LIST = listCatalogue({
  name: 'users',
  fields: {
    id: { type: 'uuid', filterable: true },
    group_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
    email: { type: 'text', filterable: true, sortable: true },
    name: { type: 'text', filterable: true, sortable: true },
    roles: { type: 'tags', filterable: true },
    abilities: { type: 'tags', filterable: true },
    language: { type: 'enum', filterable: true, sortable: true, choices: UI_LANGUAGES },
    status: { type: 'enum', filterable: true, sortable: true, choices: USER_STATUSES },
    two_factor: { type: 'boolean', filterable: true, sortable: true },
    invited: { type: 'boolean', filterable: true },
    last_sign_in_at: { type: 'timestamp', filterable: true, sortable: true },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const CONTACTS_LIST = listCatalogue({
  name: 'contacts',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    group_id: { type: 'uuid', filterable: true },
    'account.name': { type: 'text', filterable: true, sortable: true },
    name: { type: 'text', filterable: true, sortable: true },
    organisation: { type: 'text', filterable: true, sortable: true },
    email: { type: 'text', filterable: true, sortable: true },
    phone: { type: 'text', filterable: true },
    mobile: { type: 'text', filterable: true },
    fax: { type: 'text', filterable: true },
    street1: { type: 'text' },
    street2: { type: 'text' },
    street3: { type: 'text' },
    city: { type: 'text', filterable: true, sortable: true },
    state: { type: 'text', filterable: true },
    postcode: { type: 'text', filterable: true },
    country_code: { type: 'text', filterable: true, sortable: true },
    in_use: { type: 'boolean', filterable: true },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const REGISTRY_HANDLES_LIST = listCatalogue({
  name: 'registry-handles',
  defaultSort: 'registry',
  fields: {
    id: { type: 'uuid', filterable: true },
    contact_id: { type: 'uuid', filterable: true },
    registry: { type: 'text', filterable: true, sortable: true },
    handle: { type: 'text', filterable: true, sortable: true },
    sync_state: { type: 'enum', filterable: true, sortable: true, choices: HANDLE_SYNC_STATES },
    last_synced_at: { type: 'timestamp', filterable: true, sortable: true },
    error: { type: 'text' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const TLDS_LIST = listCatalogue({
  name: 'tlds',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    unicode_name: { type: 'text', filterable: true, sortable: true },
    kind: { type: 'enum', filterable: true, sortable: true, choices: TLD_KINDS },
    registry_operator: { type: 'text', filterable: true, sortable: true },
    is_offered: { type: 'boolean', filterable: true, sortable: true },
    periods: { type: 'text' },
    add_grace_days: { type: 'integer', filterable: true, sortable: true },
    renew_grace_days: { type: 'integer', filterable: true, sortable: true },
    auto_renew_grace_days: { type: 'integer', filterable: true, sortable: true },
    transfer_grace_days: { type: 'integer', filterable: true, sortable: true },
    redemption_days: { type: 'integer', filterable: true, sortable: true },
    dnssec: { type: 'boolean', filterable: true, sortable: true },
    idn: { type: 'boolean', filterable: true, sortable: true },
    registry_lock: { type: 'boolean', filterable: true, sortable: true },
    required_contacts: { type: 'tags', filterable: true },
    list_price_minor: { type: 'integer', filterable: true, sortable: true },
    currency: { type: 'text', filterable: true, sortable: true },
    version: { type: 'integer' },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    updated_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})
