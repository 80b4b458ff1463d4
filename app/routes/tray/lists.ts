import { TRAY_DOMAINS_LIST, TRAY_RECORDS_LIST } from '#common/lists/tray.ts'
import { columnsOf, type ListDefinition } from '#app/lib/lists.ts'
import { dnsRecordLabel } from '#app/routes/domains/dns/lists.ts'

/** /tray: the domains in the user's server-side tray. */
export const trayList: ListDefinition = {
  id: 'tray',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/tray`,
  columns: columnsOf(TRAY_DOMAINS_LIST, { name: true, tld: true, status: true, expires_at: true, auto_renew: true, registry_lock: true, is_material: true, added_at: false }),
  fixedFilters: [],
  defaultSort: 'added_at',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.id),
}

/** /tray/records: the DNS records in the user's server-side tray. */
export const dnsTrayRecordsList: ListDefinition = {
  id: 'dns-tray-records',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/tray?entity_type=record`,
  columns: columnsOf(TRAY_RECORDS_LIST, { zone: true, name: true, type: true, ttl: true, content: true, added_at: false }, { ttl: { filterable: false } }),
  fixedFilters: [],
  defaultSort: 'zone',
  trayType: null,
  rowLabel: dnsRecordLabel,
}
