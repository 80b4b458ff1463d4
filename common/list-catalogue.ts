import type { Operator } from './pql.ts'

/**
 * The field catalogue of a list (spec §7 "List requests"): which fields a list has, of what type,
 * which can be sorted and filtered, and the choices of an enum. The Platform API's list resources
 * add the SQL behind each field (server/platform/list/engine.ts `listResource`); the portal's list
 * screens choose which fields to show (app/lib/lists.ts `columnsOf`). One catalogue, so the two
 * sides cannot disagree on a field, an operator or a choice (decision 016).
 */
export type FieldType = 'text' | 'uuid' | 'integer' | 'boolean' | 'timestamp' | 'date' | 'enum' | 'tags' | 'json'

export type CatalogueField = {
  type: FieldType
  filterable?: boolean
  sortable?: boolean
  /** The values of an enum; a boolean's are 'true' and 'false'. */
  choices?: readonly string[]
}

export type ListCatalogue<Fields extends Record<string, CatalogueField> = Record<string, CatalogueField>> = {
  /** The list's name in errors and caches. */
  name: string
  /** Sort keys when the request names none (`-` for descending). */
  defaultSort?: string
  fields: Fields
}

/** Declares a catalogue, keeping its field names as a type (the SQL side must map each of them). */
export const listCatalogue = <Fields extends Record<string, CatalogueField>>(catalogue: ListCatalogue<Fields>) => catalogue

/** The operators a field of each type accepts, in filters and pql alike. */
export const OPERATORS_BY_TYPE: Record<FieldType, readonly Operator[]> = {
  text: ['equals', 'contains', 'starts_with', 'ends_with'],
  uuid: ['equals'],
  enum: ['equals'],
  boolean: ['equals'],
  tags: ['equals', 'contains'],
  integer: ['equals', 'less_than', 'less_than_and_including', 'greater_than', 'greater_than_and_including', 'between'],
  timestamp: ['equals', 'less_than', 'less_than_and_including', 'greater_than', 'greater_than_and_including', 'between'],
  date: ['equals', 'less_than', 'less_than_and_including', 'greater_than', 'greater_than_and_including', 'between'],
  json: [],
}

/** The choices a filter on the field offers (a boolean's two values), or none. */
export const choicesOf = (field: CatalogueField): readonly string[] | undefined => (field.type === 'boolean' ? BOOLEAN_CHOICES : field.choices)
const BOOLEAN_CHOICES = ['true', 'false'] as const
