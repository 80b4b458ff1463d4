import { choicesOf, OPERATORS_BY_TYPE, type CatalogueField, type FieldType, type ListCatalogue } from '#common/list-catalogue.ts'
import { AUDIT_LIST } from '#common/lists/audit.ts'
import type { Filter, Operator } from '#common/pql.ts'

/*
 * The machinery of the list screens: what a list is, its columns from the API's catalogue, the
 * audit trail's list. Each area defines its lists beside its screens (app/routes/<area>/lists.ts);
 * app/routes/lists.ts finds one by id (the CSV export).
 */

/** A field of a list screen: the catalogue's field (common/lists) and whether it shows by default. */
export type ListColumn = {
  key: string
  type: FieldType
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

/**
 * The columns of a list screen from the list's catalogue, the one the API's resource is built
 * from (decision 016): `shown` names the fields the screen offers, in order, each with whether it
 * shows by default; types, sorting, filtering and choices come from the catalogue.
 */
export function columnsOf<F extends Record<string, CatalogueField>>(
  catalogue: ListCatalogue<F>,
  shown: { [K in keyof F & string]?: boolean },
  overrides: { [K in keyof F & string]?: Partial<Pick<ListColumn, 'filterable' | 'sortable'>> } = {},
): ListColumn[] {
  return Object.entries(shown).map(([key, visible]) => {
    const field = catalogue.fields[key]!
    const choices = choicesOf(field)
    return {
      key,
      type: field.type,
      ...(field.sortable ? { sortable: true } : {}),
      ...(field.filterable ? { filterable: true } : {}),
      ...(choices ? { choices } : {}),
      defaultVisible: Boolean(visible),
      ...overrides[key as keyof F & string],
    }
  })
}

/**
 * The operators the filter builder offers for a field: the API's for its type (common/), ranges
 * first for dates and times, without "equals" on an instant (never what a person means).
 */
export function builderOperators(type: FieldType): readonly Operator[] {
  const operators = OPERATORS_BY_TYPE[type]
  if (type === 'timestamp' || type === 'date') return ['between', ...operators.filter((o) => o !== 'between' && o !== 'equals')]
  return operators
}

/**
 * The field a list's search box looks in: its name when it has a filterable one, else its first
 * filterable text field; null when nothing can be searched as text (the box is not shown).
 */
export function searchColumnOf(columns: readonly ListColumn[]): ListColumn | null {
  const text = columns.filter((c) => c.filterable && c.type === 'text')
  return text.find((c) => c.key === 'name') ?? text[0] ?? null
}

const auditColumns = (withArea: boolean): ListColumn[] =>
  columnsOf(
    AUDIT_LIST,
    { created_at: true, area: withArea, entity_type: true, entity_id: false, action: true, actor_label: true, request_id: false, changes: true },
    { area: { filterable: withArea } },
  )

/** An audit trail's list: every area's (`area` null, with its area column) or one area's. */
export const auditList = (id: string, area: string | null): ListDefinition => ({
  id,
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/audit-entries`,
  columns: auditColumns(area === null),
  fixedFilters: area ? [{ field: 'area', operator: 'equals', values: [area] }] : [],
  defaultSort: '-created_at',
  trayType: 'audit-entry',
  rowLabel: (row) => `${String(row.entity_type ?? '')} ${String(row.action ?? '')}`,
})
