import { filterFromParam, parsePql, printPql, type Filter, type PqlError } from './pql.ts'

export const LIST_DEFAULTS = { limit: 25, page: 1, sort: 'created_at', maxLimit: 1000 } as const

export type SortKey = { key: string; order: 'asc' | 'desc' }

export type ListQuery = {
  filters: Filter[]
  page: number
  limit: number
  sort: SortKey[]
  fields: string[] | null
}

export type ListQueryIssue = { kind: 'pql'; error: PqlError } | { kind: 'param'; param: string; message: string }

/** Reads a list query from URL search params (pql or the legacy filter[…] form, plus paging). */
export function readListQuery(params: URLSearchParams, defaults: { limit?: number; sort?: string } = {}): { query: ListQuery; issues: ListQueryIssue[] } {
  const issues: ListQueryIssue[] = []
  const filters: Filter[] = []
  const pql = params.get('pql')
  if (pql) {
    const parsed = parsePql(pql)
    if (parsed.ok) filters.push(...parsed.filters)
    else issues.push({ kind: 'pql', error: parsed.error })
  }
  for (const [key, value] of params) {
    const match = /^filter\[([^\]]+)\]$/.exec(key)
    if (match && value !== '') filters.push(filterFromParam(match[1]!, value))
  }
  const page = readInt(params, 'page', LIST_DEFAULTS.page, 1, Number.MAX_SAFE_INTEGER, issues)
  const limit = readInt(params, 'limit', defaults.limit ?? LIST_DEFAULTS.limit, 1, LIST_DEFAULTS.maxLimit, issues)
  const sort = parseSort(params.get('sort') || defaults.sort || LIST_DEFAULTS.sort)
  const fieldsParam = params.get('fields')
  const fields = fieldsParam
    ? fieldsParam
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean)
    : null
  return { query: { filters, page, limit, sort, fields }, issues }
}

function readInt(params: URLSearchParams, name: string, fallback: number, min: number, max: number, issues: ListQueryIssue[]): number {
  const raw = params.get(name)
  if (raw === null || raw === '') return fallback
  if (!/^\d+$/.test(raw)) {
    issues.push({ kind: 'param', param: name, message: `${name} must be a whole number` })
    return fallback
  }
  const n = Number(raw)
  if (n < min || n > max) {
    issues.push({ kind: 'param', param: name, message: `${name} must be between ${min} and ${max}` })
    return fallback
  }
  return n
}

/** `-expires_at,name` → expires_at descending, then name ascending. */
export function parseSort(text: string): SortKey[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s.startsWith('-') ? { key: s.slice(1), order: 'desc' as const } : { key: s, order: 'asc' as const }))
}

export function printSort(sort: readonly SortKey[]): string {
  return sort.map((s) => (s.order === 'desc' ? `-${s.key}` : s.key)).join(',')
}

/** Writes a list query back to URL params in the canonical form (pql, not filter[…]). */
export function writeListQuery(query: Partial<ListQuery>, base = new URLSearchParams()): URLSearchParams {
  const params = new URLSearchParams(base)
  for (const key of [...params.keys()]) if (key.startsWith('filter[')) params.delete(key)
  if (query.filters !== undefined) {
    if (query.filters.length) params.set('pql', printPql(query.filters))
    else params.delete('pql')
  }
  if (query.page !== undefined) params.set('page', String(query.page))
  if (query.limit !== undefined) params.set('limit', String(query.limit))
  if (query.sort !== undefined) params.set('sort', printSort(query.sort))
  if (query.fields !== undefined) {
    if (query.fields && query.fields.length) params.set('fields', query.fields.join(','))
    else params.delete('fields')
  }
  return params
}

/** A projection with nested fields also includes their parents (`contact.email` adds `contact`). */
export function expandFields(fields: readonly string[]): string[] {
  const out = new Set<string>()
  for (const field of fields) {
    const parts = field.split('.')
    for (let i = 1; i <= parts.length; i++) out.add(parts.slice(0, i).join('.'))
  }
  return [...out]
}
