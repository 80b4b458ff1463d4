import { CONTACTS_LIST, REGISTRY_HANDLES_LIST } from '#common/lists/directory.ts'
import { auditList, columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /contacts: the account's contacts and whether a domain uses them. */
export const contactsList: ListDefinition = {
  id: 'contacts',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/contacts`,
  columns: columnsOf(CONTACTS_LIST, { name: true, organisation: true, email: true, phone: true, city: false, country_code: true, 'account.name': false, in_use: true, updated_at: false }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? ''),
}

/** /contacts/log and, fixed to one contact, /contacts/{id}/log. */
export const contactsLogList = auditList('contacts-log', 'contacts')

/** /contacts/{id}/registry-handles: the contact's handle at each registry and its sync. */
export const contactRegistryHandlesList: ListDefinition = {
  id: 'contact-registry-handles',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/contacts`,
  columns: columnsOf(REGISTRY_HANDLES_LIST, { registry: true, handle: true, sync_state: true, last_synced_at: true, error: true }),
  fixedFilters: [],
  defaultSort: 'registry',
  trayType: null,
  rowLabel: (row) => String(row.handle ?? ''),
}
