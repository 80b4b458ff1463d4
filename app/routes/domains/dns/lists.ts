import { DNS_RECORDS_LIST, DNS_ZONE_LOG_LIST } from '#common/lists/dns.ts'
import { auditList, columnsOf, type ListColumn, type ListDefinition } from '#app/lib/lists.ts'

const dnsRecordColumns = (withZone: boolean): ListColumn[] =>
  columnsOf(DNS_RECORDS_LIST, { ...(withZone ? { 'zone.name': true } : {}), name: true, type: true, ttl: true, content: true, updated_at: false }, { ttl: { filterable: false } })

/** A record as the tray names it. */
export const dnsRecordLabel = (row: Record<string, unknown>) => `${String(row.name ?? '')} ${String(row.type ?? '')} ${String(row.content ?? '')}`.slice(0, 200)

/** Records of one zone: the route adds the zone as a fixed filter (zone_id). */
export const dnsZoneRecordsList: ListDefinition = {
  id: 'dns-zone-records',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/dns-records`,
  columns: dnsRecordColumns(false),
  fixedFilters: [],
  defaultSort: 'name,type,priority,content',
  trayType: 'record',
  rowLabel: dnsRecordLabel,
}

/** /domains/search/records: records across every zone of the account. */
export const dnsRecordsList: ListDefinition = { ...dnsZoneRecordsList, id: 'dns-records', columns: dnsRecordColumns(true), defaultSort: 'zone.name,name,type,priority,content' }

/** /domains/dns-log: the audit trail of area dns across zones. */
export const dnsLogList = auditList('dns-log', 'dns')

/** /domains/{id}/dns-log: the route sets apiPath to the zone's log. */
export const dnsZoneLogList: ListDefinition = {
  ...auditList('dns-zone-log', 'dns'),
  columns: columnsOf(
    DNS_ZONE_LOG_LIST,
    { created_at: true, area: false, entity_type: true, entity_id: false, action: true, actor_label: true, request_id: false, changes: true },
    { area: { filterable: false } },
  ),
  fixedFilters: [],
}
