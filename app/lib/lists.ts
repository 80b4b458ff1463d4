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
