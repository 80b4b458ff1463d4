import type { Filter, Operator } from './pql.ts'

export type ColumnType = 'text' | 'timestamp' | 'enum' | 'uuid' | 'json'

export type ListColumn = {
  key: string
  type: ColumnType
  sortable?: boolean
  filterable?: boolean
  choices?: readonly string[]
  /** Shown when the URL names no fields. */
  defaultVisible?: boolean
}

/** One list screen: the API it reads, its columns and the filters its route fixes. */
export type ListDefinition = {
  id: string
  /** Platform path for an account context. */
  apiPath: (groupContext: string) => string
  columns: ListColumn[]
  fixedFilters: Filter[]
  defaultSort: string
  /** Bulk-tray entity type of a row, or null when rows cannot go into the tray. */
  trayType: string | null
  /** Label of a row in the tray. */
  rowLabel: (row: Record<string, unknown>) => string
}

/** Operators offered by the filter builder per field type (spec §5 operators). */
export const OPERATORS_BY_TYPE: Record<ColumnType, Operator[]> = {
  text: ['equals', 'contains', 'starts_with', 'ends_with'],
  enum: ['equals'],
  uuid: ['equals'],
  timestamp: ['between', 'greater_than', 'less_than', 'greater_than_and_including', 'less_than_and_including'],
  json: [],
}

const AUDIT_AREAS = ['accounts', 'users', 'contacts', 'tlds', 'domains', 'dns', 'ssl', 'invoicing', 'watch', 'intelligence', 'products'] as const

const auditColumns = (withArea: boolean): ListColumn[] => [
  { key: 'created_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: true },
  { key: 'area', type: 'enum', sortable: true, filterable: withArea, choices: AUDIT_AREAS, defaultVisible: withArea },
  { key: 'entity_type', type: 'text', sortable: true, filterable: true, defaultVisible: true },
  { key: 'entity_id', type: 'text', filterable: true, defaultVisible: false },
  { key: 'action', type: 'text', sortable: true, filterable: true, defaultVisible: true },
  { key: 'actor_label', type: 'text', sortable: true, filterable: true, defaultVisible: true },
  { key: 'request_id', type: 'text', filterable: true, defaultVisible: false },
  { key: 'changes', type: 'json', defaultVisible: true },
]

const auditList = (id: string, area: string | null): ListDefinition => ({
  id,
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/audit-entries`,
  columns: auditColumns(area === null),
  fixedFilters: area ? [{ field: 'area', operator: 'equals', values: [area] }] : [],
  defaultSort: '-created_at',
  trayType: 'audit-entry',
  rowLabel: (row) => `${String(row.entity_type ?? '')} ${String(row.action ?? '')}`,
})

/** Every list screen built on the one mechanism, by id (the CSV export finds them here). */
export const LISTS: Record<string, ListDefinition> = {
  'accounts-log': auditList('accounts-log', null),
  'domains-log': auditList('domains-log', 'domains'),
  'users-log': auditList('users-log', 'users'),
  'contacts-log': auditList('contacts-log', 'contacts'),
}

// --- Domains (issue 6) ---------------------------------------------------------------------

/** Statuses of a domain (migration 0001); the list filter offers them as choices. */
export const DOMAIN_STATUSES = ['pending', 'active', 'expired', 'redemption', 'pending-delete', 'transferring'] as const
// The portal's column types have no boolean: a yes/no field is an enum of the two API values.
const YES_NO = ['true', 'false'] as const

LISTS.domains = {
  id: 'domains',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/domains`,
  columns: [
    { key: 'name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'tld', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'status', type: 'enum', sortable: true, filterable: true, choices: DOMAIN_STATUSES, defaultVisible: true },
    { key: 'expires_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: true },
    { key: 'registrant_name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'auto_renew', type: 'enum', sortable: true, filterable: true, choices: YES_NO, defaultVisible: true },
    { key: 'registry_lock', type: 'enum', sortable: true, filterable: true, choices: YES_NO, defaultVisible: true },
    { key: 'dnssec', type: 'enum', sortable: true, filterable: true, choices: YES_NO, defaultVisible: false },
    { key: 'tags', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'created_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: false },
    { key: 'updated_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: false },
  ],
  fixedFilters: [],
  defaultSort: 'name',
  trayType: 'domain',
  rowLabel: (row) => String(row.unicode_name ?? row.name ?? row.id),
}

/** /domains/{id}/log: the domains audit trail; the route adds the entity filter per domain. */
LISTS['domain-log'] = { ...auditList('domain-log', 'domains'), trayType: null }

// Issue 5 directory lists (accounts, users, contacts, TLDs, their logs). Booleans are offered as
// enum 'true'/'false' because the Platform API reads them that way in filters.
const BOOL = ['true', 'false'] as const
const directoryLists: ListDefinition[] = [
  {
    id: 'accounts',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/accounts`,
    columns: [
      { key: 'name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'status', type: 'enum', sortable: true, filterable: true, choices: ['active', 'suspended'], defaultVisible: true },
      { key: 'currency', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'language', type: 'enum', sortable: true, filterable: true, choices: ['en', 'es', 'ja'], defaultVisible: true },
      { key: 'is_registrar', type: 'enum', filterable: true, choices: BOOL, defaultVisible: false },
      { key: 'created_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: true },
    ],
    fixedFilters: [],
    defaultSort: 'name',
    trayType: null,
    rowLabel: (row) => String(row.name ?? ''),
  },
  {
    id: 'users',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/users`,
    columns: [
      { key: 'name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'email', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'account.name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'roles', type: 'text', filterable: true, defaultVisible: true },
      { key: 'status', type: 'enum', sortable: true, filterable: true, choices: ['active', 'disabled'], defaultVisible: true },
      { key: 'two_factor', type: 'enum', sortable: true, filterable: true, choices: BOOL, defaultVisible: true },
      { key: 'invited', type: 'enum', filterable: true, choices: BOOL, defaultVisible: false },
      { key: 'last_sign_in_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: true },
      { key: 'created_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: false },
    ],
    fixedFilters: [],
    defaultSort: 'name',
    trayType: null,
    rowLabel: (row) => String(row.email ?? ''),
  },
  {
    id: 'contacts',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/contacts`,
    columns: [
      { key: 'name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'organisation', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'email', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'phone', type: 'text', filterable: true, defaultVisible: true },
      { key: 'city', type: 'text', sortable: true, filterable: true, defaultVisible: false },
      { key: 'country_code', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'account.name', type: 'text', sortable: true, filterable: true, defaultVisible: false },
      { key: 'in_use', type: 'enum', filterable: true, choices: BOOL, defaultVisible: true },
      { key: 'updated_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: false },
    ],
    fixedFilters: [],
    defaultSort: 'name',
    trayType: null,
    rowLabel: (row) => String(row.name ?? ''),
  },
  {
    id: 'tlds',
    apiPath: () => '/tlds',
    columns: [
      { key: 'name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'unicode_name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'kind', type: 'enum', sortable: true, filterable: true, choices: ['generic', 'country-code', 'sponsored', 'new-generic'], defaultVisible: true },
      { key: 'registry_operator', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'is_offered', type: 'enum', sortable: true, filterable: true, choices: BOOL, defaultVisible: true },
      { key: 'dnssec', type: 'enum', sortable: true, filterable: true, choices: BOOL, defaultVisible: false },
      { key: 'idn', type: 'enum', sortable: true, filterable: true, choices: BOOL, defaultVisible: false },
      { key: 'registry_lock', type: 'enum', sortable: true, filterable: true, choices: BOOL, defaultVisible: false },
      { key: 'list_price_minor', type: 'text', sortable: true, defaultVisible: true },
      { key: 'currency', type: 'text', sortable: true, filterable: true, defaultVisible: false },
    ],
    fixedFilters: [],
    defaultSort: 'name',
    trayType: null,
    rowLabel: (row) => String(row.name ?? ''),
  },
  {
    id: 'users-authentication-log',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/authentication-events`,
    columns: [
      { key: 'created_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: true },
      { key: 'email', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'kind', type: 'enum', sortable: true, filterable: true, choices: ['password', 'two_factor', 'sso', 'refresh', 'reset', 'logout'], defaultVisible: true },
      { key: 'outcome', type: 'enum', sortable: true, filterable: true, choices: ['success', 'failure'], defaultVisible: true },
      { key: 'reason', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'ip', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'user_agent', type: 'text', filterable: true, defaultVisible: false },
      { key: 'user_id', type: 'uuid', filterable: true, defaultVisible: false },
    ],
    fixedFilters: [],
    defaultSort: '-created_at',
    trayType: null,
    rowLabel: (row) => String(row.email ?? ''),
  },
  {
    id: 'contact-registry-handles',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/contacts`,
    columns: [
      { key: 'registry', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'handle', type: 'text', sortable: true, filterable: true, defaultVisible: true },
      { key: 'sync_state', type: 'enum', sortable: true, filterable: true, choices: ['pending', 'synced', 'failed'], defaultVisible: true },
      { key: 'last_synced_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: true },
      { key: 'error', type: 'text', defaultVisible: true },
    ],
    fixedFilters: [],
    defaultSort: 'registry',
    trayType: null,
    rowLabel: (row) => String(row.handle ?? ''),
  },
]
for (const def of directoryLists) LISTS[def.id] = def

// --- DNS (issue 7) -----------------------------------------------------------------------------

const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'CAA', 'NS', 'PTR', 'DS', 'TLSA', 'SSHFP', 'NAPTR', 'SOA'] as const

const dnsRecordColumns = (withZone: boolean): ListColumn[] => [
  ...(withZone ? [{ key: 'zone.name', type: 'text', sortable: true, filterable: true, defaultVisible: true } satisfies ListColumn] : []),
  { key: 'name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
  { key: 'type', type: 'enum', sortable: true, filterable: true, choices: DNS_RECORD_TYPES, defaultVisible: true },
  { key: 'ttl', type: 'text', sortable: true, defaultVisible: true },
  { key: 'content', type: 'text', sortable: true, filterable: true, defaultVisible: true },
  { key: 'updated_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: false },
]

const dnsRecordLabel = (row: Record<string, unknown>) => `${String(row.name ?? '')} ${String(row.type ?? '')} ${String(row.content ?? '')}`.slice(0, 200)

/** Records of one zone: the route adds the zone as a fixed filter (zone_id). */
LISTS['dns-zone-records'] = {
  id: 'dns-zone-records',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/dns-records`,
  columns: dnsRecordColumns(false),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: 'record',
  rowLabel: dnsRecordLabel,
}
/** /domains/search/records: records across every zone of the account. */
LISTS['dns-records'] = {
  id: 'dns-records',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/dns-records`,
  columns: dnsRecordColumns(true),
  fixedFilters: [],
  defaultSort: 'zone.name',
  trayType: 'record',
  rowLabel: dnsRecordLabel,
}
/** /domains/dns-log: the audit trail of area dns across zones. */
LISTS['dns-log'] = auditList('dns-log', 'dns')
/** /domains/{id}/dns-log: the route sets apiPath to the zone's log. */
LISTS['dns-zone-log'] = { ...auditList('dns-zone-log', 'dns'), fixedFilters: [] }

// --- Domain orders (issue 6): /domains/orders --------------------------------------------------
LISTS['domain-orders'] = {
  id: 'domain-orders',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/orders`,
  columns: [
    { key: 'created_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: true },
    { key: 'state', type: 'enum', sortable: true, filterable: true, choices: ['pending', 'processing', 'completed', 'failed', 'cancelled', 'partial'], defaultVisible: true },
    { key: 'names', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'item_count', type: 'text', sortable: true, defaultVisible: true },
    { key: 'completed_count', type: 'text', sortable: true, defaultVisible: false },
    { key: 'failed_count', type: 'text', sortable: true, defaultVisible: false },
    { key: 'total_text', type: 'text', sortable: true, defaultVisible: true },
    { key: 'created_by', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'id', type: 'uuid', filterable: true, defaultVisible: false },
  ],
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.names ?? row.id ?? ''),
}
/** /tray/records: the DNS records in the user's server-side tray. */
LISTS['dns-tray-records'] = {
  id: 'dns-tray-records',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/tray?entity_type=record`,
  columns: [
    { key: 'zone', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'type', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'ttl', type: 'text', sortable: true, defaultVisible: true },
    { key: 'content', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'added_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: false },
  ],
  fixedFilters: [],
  defaultSort: 'zone',
  trayType: null,
  rowLabel: dnsRecordLabel,
}

// --- /domains/{id}/orders (issue 6): the orders list narrowed to one domain by its route ------
LISTS['domain-tab-orders'] = {
  ...LISTS['domain-orders']!,
  id: 'domain-tab-orders',
  columns: [...LISTS['domain-orders']!.columns, { key: 'item_name', type: 'text', filterable: false, defaultVisible: false }],
}

// --- Reconciliation differences across the portfolio (issue 6): /domains/reconciliation ----
LISTS['reconciliation-differences'] = {
  id: 'reconciliation-differences',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/domains/reconciliation-differences`,
  columns: [
    { key: 'domain_name', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'field', type: 'enum', sortable: true, filterable: true, choices: ['exists', 'expires_at', 'statuses', 'nameservers', 'ds'], defaultVisible: true },
    { key: 'ours', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'registry', type: 'text', sortable: true, filterable: true, defaultVisible: true },
    { key: 'detected_at', type: 'timestamp', sortable: true, filterable: true, defaultVisible: true },
    { key: 'domain_id', type: 'uuid', filterable: true, defaultVisible: false },
  ],
  fixedFilters: [],
  defaultSort: '-detected_at',
  trayType: null,
  rowLabel: (row) => String(row.domain_name ?? row.id ?? ''),
}
