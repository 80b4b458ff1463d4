import { createHmac, timingSafeEqual } from 'node:crypto'
import { data, redirect, type RouterContextProvider } from 'react-router'
import { z } from 'zod'
import { appServicesContext } from './app-context.ts'
import { carryContext } from './context-param.ts'
import { readJsonCookie, serializeJsonCookie } from './cookies.server.ts'
import { readListQuery, writeListQuery, type ListQuery } from '#common/list-query.ts'
import { builderOperators, searchColumnOf, type ListDefinition } from './lists.ts'
import { getPlatform, PlatformError } from './platform.server.ts'
import { filterToParam, parsePql, printPql, type Filter, type Operator, type PqlErrorCode } from '#common/pql.ts'
import { requestUrl } from './request-url.ts'

/** The URL state of a list (spec §2): zod checks the shape before the list query reads it. */
export const ListSearchSchema = z.object({
  pql: z.string().max(4000).optional(),
  page: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/)
    .optional(),
  sort: z
    .string()
    .regex(/^-?[a-z_][a-z0-9_.]*(,-?[a-z_][a-z0-9_.]*)*$/i)
    .max(200)
    .optional(),
  fields: z
    .string()
    .regex(/^[a-z_][a-z0-9_.]*(,[a-z_][a-z0-9_.]*)*$/i)
    .max(500)
    .optional(),
})

const LIST_KEYS = ['pql', 'page', 'limit', 'sort', 'fields']
const isListKey = (key: string) => LIST_KEYS.includes(key) || key.startsWith('filter[') || key.startsWith('f_')
const MEMORY_COOKIE = 'list_memory'
const MemorySchema = z.record(z.string().max(40), z.string().max(2000))

export type ListError = { kind: 'pql'; code: PqlErrorCode; message: string; position: number; expected?: string[] } | { kind: 'param'; message: string }

export type ListPage = {
  rows: Record<string, unknown>[]
  meta: { total: number; page: number; limit: number }
  query: ListQuery
  /** The canonical list params (without context), for links. */
  search: string
  /** The CSV export's params: the list params and the screen's sealed scope (`sealListScope`). */
  exportSearch: string
  visibleColumns: string[]
  errors: ListError[]
}

const readMemory = (request: Request) =>
  readJsonCookie(request, MEMORY_COOKIE, (v) => {
    const parsed = MemorySchema.safeParse(v)
    return parsed.success ? parsed.data : null
  }) ?? {}

/**
 * Turns the filter builder's GET fields (f_field, f_op, f_value, f_value2) and repeated
 * `fields` checkboxes into the canonical URL. Null when the URL is canonical already.
 */
export function canonicalListParams(def: ListDefinition, params: URLSearchParams): { params: URLSearchParams; error: string | null } | null {
  // f_pick is the builder's "field=value" select of known values, offered without JavaScript
  // (app/components/filter-bar.tsx): when chosen, it stands for f_field, f_op=equals and f_value.
  const pick = params.get('f_pick') ?? ''
  const picked = pick.includes('=') ? { field: pick.slice(0, pick.indexOf('=')), value: pick.slice(pick.indexOf('=') + 1) } : null
  const builderField = picked?.field ?? params.get('f_field')
  const fieldValues = params.getAll('fields')
  // f_q is the toolbar's search box: the text stands for "<search field> contains <text>", in
  // place of the one such filter the list had (an empty box removes it).
  const search = params.get('f_q')
  if (builderField === null && search === null && fieldValues.length <= 1 && !params.has('f_op') && !params.has('f_pick')) return null
  const next = new URLSearchParams(params)
  for (const key of ['f_field', 'f_op', 'f_value', 'f_value2', 'f_pick', 'f_q']) next.delete(key)
  let error: string | null = null
  if (fieldValues.length > 1) next.set('fields', fieldValues.join(','))
  const searched = search === null ? null : searchColumnOf(def.columns)
  if (search !== null && searched) {
    const current = parsePql(next.get('pql') ?? '')
    const filters = (current.ok ? current.filters : []).filter((f) => !(f.field === searched.key && f.operator === 'contains'))
    const values = search
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
    if (values.length) filters.push({ field: searched.key, operator: 'contains', values })
    next.delete('page')
    if (filters.length) next.set('pql', printPql(filters))
    else {
      // No filter left: say page 1, as "Clear filters" does, so the list's remembered filter is not brought back.
      next.delete('pql')
      next.set('page', '1')
    }
  }
  if (builderField) {
    const column = def.columns.find((c) => c.key === builderField && c.filterable)
    const op = picked ? 'equals' : (params.get('f_op') as Operator | null)
    const value = (picked?.value ?? params.get('f_value') ?? '').trim()
    const value2 = (params.get('f_value2') ?? '').trim()
    if (!column) error = `Unknown filter field ${builderField}`
    else if (!op || !builderOperators(column.type).includes(op)) error = `The operator ${op ?? ''} does not apply to ${builderField}`
    else if (!value || (op === 'between' && !value2)) error = 'Enter a value to filter by'
    else {
      const current = parsePql(next.get('pql') ?? '')
      const filters = current.ok ? current.filters : []
      const values =
        op === 'between'
          ? [value, value2]
          : ['timestamp', 'date', 'enum', 'boolean'].includes(column.type)
            ? [value]
            : value
                .split(',')
                .map((v) => v.trim())
                .filter(Boolean)
      filters.push({ field: column.key, operator: op, values })
      next.set('pql', printPql(filters))
      next.delete('page')
    }
  }
  return { params: next, error }
}

/**
 * The one list loader: reads the URL, remembers or restores the list's filters, calls the
 * platform list endpoint, and returns rows and meta — or the pql error to show beside the
 * filter (never an error page).
 */
export async function loadListPage(request: Request, context: Readonly<RouterContextProvider>, def: ListDefinition, groupContext: string): Promise<{ page: ListPage; headers: Headers }> {
  const url = requestUrl(request)
  const headers = new Headers()
  const listParams = [...url.searchParams.keys()].filter(isListKey)
  const memory = readMemory(request)

  if (listParams.length === 0 && memory[def.id]) {
    // Coming back without a query: show the filters this list had last time.
    const restored = new URLSearchParams(memory[def.id])
    const ctx = url.searchParams.get('context')
    if (ctx) restored.set('context', ctx)
    throw redirect(carryContext(`${url.pathname}?${restored}`, url.searchParams))
  }
  const canonical = canonicalListParams(def, url.searchParams)
  if (canonical && !canonical.error) throw redirect(`${url.pathname}?${canonical.params}`)

  const errors: ListError[] = []
  if (canonical?.error) errors.push({ kind: 'param', message: canonical.error })
  const raw = Object.fromEntries(LIST_KEYS.flatMap((k) => (url.searchParams.has(k) ? [[k, url.searchParams.get(k)!]] : [])))
  const shape = ListSearchSchema.safeParse(raw)
  const params = new URLSearchParams()
  if (shape.success) {
    for (const [k, v] of Object.entries(shape.data)) if (v !== undefined) params.set(k, v)
  } else {
    for (const issue of shape.error.issues) errors.push({ kind: 'param', message: `${issue.path.join('.')}: ${issue.message}` })
    for (const k of ['pql', 'page', 'limit']) {
      const v = url.searchParams.get(k)
      if (v !== null && !shape.error.issues.some((i) => i.path[0] === k)) params.set(k, v)
    }
  }
  for (const [k, v] of url.searchParams) if (k.startsWith('filter[')) params.append(k, v)

  const { query, issues } = readListQuery(params, { sort: def.defaultSort })
  for (const issue of issues) {
    if (issue.kind === 'pql')
      errors.push({ kind: 'pql', code: issue.error.code, message: issue.error.message, position: issue.error.position, ...(issue.error.expected ? { expected: issue.error.expected } : {}) })
    else errors.push({ kind: 'param', message: issue.message })
  }
  const visibleColumns = query.fields?.filter((f) => def.columns.some((c) => c.key === f)) ?? def.columns.filter((c) => c.defaultVisible).map((c) => c.key)
  const search = writeListQuery(query, new URLSearchParams()).toString()
  const exportSearch = `${search}${search ? '&' : ''}scope=${sealListScope(def, groupContext, context.get(appServicesContext).env.sessionSecret)}`

  // Remember this list's filters (only the list state, never the context).
  const memorable = new URLSearchParams(params)
  memorable.delete('page')
  if (listParams.length > 0 && errors.length === 0 && memory[def.id] !== memorable.toString()) {
    headers.append('Set-Cookie', serializeJsonCookie(MEMORY_COOKIE, { ...memory, [def.id]: memorable.toString() }, { maxAge: 30 * 24 * 3600 }))
  }

  const empty: ListPage = { rows: [], meta: { total: 0, page: query.page, limit: query.limit }, query, search, exportSearch, visibleColumns, errors }
  if (errors.some((e) => e.kind === 'pql')) return { page: empty, headers }
  try {
    const platform = await getPlatform(request, context)
    const body = await platform.list(def.apiPath(groupContext), {
      query: apiQuery(def, query),
    })
    return { page: { ...empty, rows: body.data, meta: body.meta }, headers }
  } catch (error) {
    // The platform refused the filter (unknown field, bad value): show it beside the filter.
    if (error instanceof PlatformError && error.status === 400) {
      const detail = (error.data as { detail?: string; errors?: { message?: string }[] } | null) ?? null
      const message =
        detail?.errors
          ?.map((e) => e.message)
          .filter(Boolean)
          .join('; ') ||
        detail?.detail ||
        error.message
      return { page: { ...empty, errors: [...errors, { kind: 'param', message }] }, headers }
    }
    throw error
  }
}

/** The platform query of a list: user filters as pql, the route's fixed filters as filter[…]. */
export function apiQuery(def: ListDefinition, query: ListQuery, override: Partial<{ page: number; limit: number }> = {}) {
  const out: Record<string, string | number> = {
    page: override.page ?? query.page,
    limit: override.limit ?? query.limit,
    sort: query.sort.map((s) => (s.order === 'desc' ? `-${s.key}` : s.key)).join(','),
  }
  const filters = query.filters.filter((f) => !def.fixedFilters.some((x) => x.field === f.field))
  if (filters.length) out.pql = printPql(filters)
  for (const fixed of def.fixedFilters) {
    const [key, value] = filterToParam(fixed)
    out[`filter[${key}]`] = value
  }
  if (query.fields) out.fields = query.fields.join(',')
  return out
}

/**
 * What rows a screen's list reads: its API path (an entity's own trail, /billing-entities/{id}/log)
 * and the filters its route fixes (one contact's entries), as the list engine's definition holds
 * them once the screen has read its entity and checked its guards.
 */
export type ListScope = { path: string; fixedFilters: Filter[] }

const scopeMac = (listId: string, payload: string, secret: string) => createHmac('sha256', secret).update(`list-scope:${listId}:${payload}`).digest('base64url')

/**
 * The screen's scope sealed for its CSV export (/export/<list>?…&scope=…), which knows the list by
 * id only: the file holds the rows the screen shows, never the whole area's. Sealed with the
 * session secret for that list, so the export reads no path the portal did not give.
 */
export function sealListScope(def: ListDefinition, groupContext: string, secret: string): string {
  const payload = Buffer.from(JSON.stringify({ path: def.apiPath(groupContext), fixedFilters: def.fixedFilters } satisfies ListScope)).toString('base64url')
  return `${payload}.${scopeMac(def.id, payload, secret)}`
}

/** A sealed scope of the list `listId`, or null when it was not sealed for that list here. */
export function openListScope(raw: string, listId: string, secret: string): ListScope | null {
  const [payload, mac] = raw.split('.')
  if (!payload || !mac) return null
  const expected = Buffer.from(scopeMac(listId, payload, secret))
  const given = Buffer.from(mac)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ListScope
  } catch {
    return null
  }
}

/** A list page that failed entirely (e.g. a definition missing) is a 404, never a blank page. */
export function requireList(defs: Record<string, ListDefinition>, id: string | undefined): ListDefinition {
  const def = id ? defs[id] : undefined
  if (!def) throw data(`Page Not Found`, { status: 404 })
  return def
}

export type { Filter }
