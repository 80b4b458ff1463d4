import { sql, type Kysely, type RawBuilder } from 'kysely'
import { expandFields, readListQuery, type ListQuery } from '#common/list-query.ts'
import { OPERATORS_BY_TYPE, type CatalogueField, type FieldType, type ListCatalogue } from '#common/list-catalogue.ts'
import type { Filter, Operator } from '#common/pql.ts'
import type { DB } from '#server/db/schema.ts'
import { badRequest, type FieldError } from '#server/platform/core/errors.ts'
import { keyCacheOf, type KeyList } from './key-cache.ts'

export type { FieldType }

/** A catalogue field (common/) with the trusted SQL behind it. */
export type FieldSpec = CatalogueField & {
  /** A trusted SQL expression; never built from input. */
  column: string
  /**
   * The column only ever holds lowercase text (domain names, TLDs): contains/starts/ends compare
   * the lowercased value with LIKE, about three times cheaper per row than ILIKE and served by
   * the same trigram index.
   */
  lowercase?: boolean
  /** The column comes from a joined table that the resource's change counter does not cover. */
  joined?: boolean
  /** A trusted SQL expression the field sorts by when it is not its column (a zone's apex first among its names). */
  sort?: string
}

/** The SQL of one catalogue field: its column, or the column with the options above. */
export type FieldSql = string | { column: string; lowercase?: boolean; joined?: boolean; sort?: string }

/**
 * A list resource from its catalogue (common/lists) and the SQL of each of its fields: every field
 * of the catalogue must have its SQL, and none other may (the types check both).
 */
export function listResource<Fields extends Record<string, CatalogueField>>(
  catalogue: ListCatalogue<Fields>,
  sql: Omit<ListResource, 'name' | 'fields' | 'defaultSort'> & { columns: { [K in keyof Fields]: FieldSql } },
): ListResource {
  const { columns, ...rest } = sql
  const fields: Record<string, FieldSpec> = {}
  for (const [key, field] of Object.entries(catalogue.fields)) {
    const column = columns[key as keyof Fields]
    fields[key] = { ...field, ...(typeof column === 'string' ? { column } : column) }
  }
  return { name: catalogue.name, ...(catalogue.defaultSort ? { defaultSort: catalogue.defaultSort } : {}), ...rest, fields }
}

export type ListResource = {
  name: string
  /** A trusted FROM clause, with joins. */
  from: string
  /**
   * Rows made for this request instead of `from` (a parameterised `(SELECT … FROM unnest(…)) AS x`):
   * a list computed by a service, not stored — the lookalike engine's candidates — filtered, sorted
   * and paged by the same engine. Never cached.
   */
  source?: RawBuilder<unknown>
  fields: Record<string, FieldSpec>
  /** The column holding the account id; when set, every query is scoped by it. */
  accountColumn?: string
  /** A unique column that makes any sort order total, so pages never overlap. */
  tiebreak: string
  /** A trusted condition always applied (e.g. hiding deleted rows). */
  where?: string
  defaultSort?: string
  /**
   * The name of this resource's change counter in `list_versions` (decision 009). When set, and
   * the list is scoped to one account and neither filters nor sorts on a `joined` field, the
   * ordered keys of the list are kept per process and reused while the counter is unchanged.
   */
  versioned?: string
}

export type ListMeta = { total: number; page: number; limit: number; total_capped?: boolean }
export type ListPage<T = Record<string, unknown>> = { data: T[]; meta: ListMeta }

/** Exact counts stop here; above it the total reads as "10,000+". */
export const COUNT_CAP = 10_000

/** The operators a field of this type accepts. */
export const operatorsFor = (type: FieldType) => OPERATORS_BY_TYPE[type]

/** Reads the list query of a URL and throws a 400 problem naming what is wrong. */
export function listQueryFromUrl(resource: ListResource, url: URL): ListQuery {
  const { query, issues } = readListQuery(url.searchParams, { sort: resource.defaultSort })
  const first = issues[0]
  if (first?.kind === 'pql') {
    throw badRequest(
      `Invalid pql at position ${first.error.position}: ${first.error.message}`,
      [{ field: 'pql', message: first.error.message, ...(first.error.expected ? { allowed: first.error.expected } : {}) }],
      { position: first.error.position },
    )
  }
  if (first?.kind === 'param') throw badRequest(first.message, [{ field: first.param, message: first.message }])
  return query
}

/** Runs a list query over a resource: filtered, sorted, paged and projected, scoped to the account. */
export async function runList(db: Kysely<DB>, resource: ListResource, query: ListQuery, scope: { accountId: string | null }): Promise<ListPage> {
  const errors: FieldError[] = []
  const conditions = conditionsOf(resource, query.filters, scope, errors)

  const sortable = Object.entries(resource.fields)
    .filter(([, f]) => f.sortable)
    .map(([k]) => k)
  const sortKeys: { column: string; direction: string }[] = []
  for (const key of query.sort) {
    const spec = resource.fields[key.key]
    if (!spec || !spec.sortable) {
      errors.push({ field: 'sort', message: `Cannot sort by '${key.key}'`, allowed: sortable })
      continue
    }
    sortKeys.push({ column: spec.sort ?? spec.column, direction: key.order === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST' })
  }

  const allFields = Object.keys(resource.fields)
  let selected = allFields
  if (query.fields) {
    const wanted = expandFields(query.fields)
    for (const field of query.fields) {
      if (!allFields.includes(field) && !allFields.some((f) => f.startsWith(`${field}.`))) {
        errors.push({ field: 'fields', message: `Unknown field '${field}'`, allowed: allFields })
      }
    }
    selected = allFields.filter((f) => wanted.includes(f) || wanted.some((w) => f.startsWith(`${w}.`)))
  }
  if (errors.length) throw badRequest('The list query is not valid', errors)

  const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``
  const from = resource.source ?? sql.raw(resource.from)
  const columns = sql.join(selected.map((f) => sql`${sql.raw(resource.fields[f]!.column)} AS ${sql.id(f)}`))
  const offset = (query.page - 1) * query.limit
  const scan = Math.max(offset + query.limit, COUNT_CAP + 1)
  const plan: ListPlan = { from, where, columns, sortKeys, offset, limit: query.limit, scan, page: query.page }

  const usesJoined = [...query.filters.map((f) => f.field), ...query.sort.map((s) => s.key)].some((f) => resource.fields[f]?.joined)
  if (!resource.source && resource.versioned && resource.accountColumn && scope.accountId && !db.isTransaction && !usesJoined) {
    const page = await cachedList(db, resource, plan, scope.accountId)
    if (page) return page
  }
  return listInOneStatement(db, resource, plan)
}

/** The resource's own condition, its account scope and the filters, as SQL; unknown or unfit filters are added to `errors`. */
function conditionsOf(resource: ListResource, filters: readonly Filter[], scope: { accountId: string | null }, errors: FieldError[]): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = []
  if (resource.where) conditions.push(sql.raw(resource.where))
  if (resource.accountColumn) {
    if (!scope.accountId) throw new Error(`list ${resource.name} needs an account scope`)
    conditions.push(sql`${sql.raw(resource.accountColumn)} = ${scope.accountId}`)
  }
  const filterable = Object.entries(resource.fields)
    .filter(([, f]) => f.filterable)
    .map(([k]) => k)
  for (const filter of filters) {
    const spec = resource.fields[filter.field]
    if (!spec || !spec.filterable) {
      errors.push({ field: filter.field, message: `Unknown filter field '${filter.field}'`, allowed: filterable })
      continue
    }
    const condition = buildCondition(spec, filter, errors)
    if (condition) conditions.push(condition)
  }
  return conditions
}

/**
 * Every row a list's filters select (not a page): its key and the field `label`, in the order of
 * `label`, at most `cap` (one more is read, so a caller can tell "more than cap"). For a selection
 * that acts on the rows (a change set's objects, issue 33): the same fields, operators and scope as
 * the list a person filtered on screen. 400 naming the filter when one is not valid.
 */
export async function matchingRows(db: Kysely<DB>, resource: ListResource, filters: readonly Filter[], scope: { accountId: string | null }, label: string, cap: number) {
  const errors: FieldError[] = []
  const conditions = conditionsOf(resource, filters, scope, errors)
  if (errors.length) throw badRequest('The list query is not valid', errors)
  const where = conditions.length ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``
  const column = sql.raw(resource.fields[label]!.column)
  const result = await sql<{ key: string; label: string }>`
    SELECT ${sql.raw(resource.tiebreak)}::text AS key, ${column} AS label FROM ${sql.raw(resource.from)} ${where}
    ORDER BY ${column}, ${sql.raw(resource.tiebreak)} LIMIT ${cap + 1}`.execute(db)
  return result.rows
}

type ListPlan = {
  from: RawBuilder<unknown>
  where: RawBuilder<unknown>
  columns: RawBuilder<unknown>
  sortKeys: { column: string; direction: string }[]
  offset: number
  limit: number
  /** Rows walked: the page's end, and at least one past the count cap. */
  scan: number
  page: number
}

function metaOf(plan: ListPlan, counted: number): ListMeta {
  const meta: ListMeta = { total: Math.min(counted, COUNT_CAP), page: plan.page, limit: plan.limit }
  if (counted > COUNT_CAP) meta.total_capped = true
  return meta
}

const scanOrderOf = (resource: ListResource, plan: ListPlan) => sql.join([...plan.sortKeys.map((k) => sql.raw(`${k.column} ${k.direction}`)), sql.raw(`${resource.tiebreak} ASC`)])
const keyColumnsOf = (resource: ListResource, plan: ListPlan) =>
  sql.join([sql`${sql.raw(resource.tiebreak)} AS "__key"`, ...plan.sortKeys.map((k, i) => sql`${sql.raw(k.column)} AS ${sql.id(`__s${i}`)}`)])
const pageOrderOf = (plan: ListPlan, alias: string) => sql.join([...plan.sortKeys.map((k, i) => sql.raw(`${alias}."__s${i}" ${k.direction}`)), sql.raw(`${alias}."__key" ASC`)])

async function listInOneStatement(db: Kysely<DB>, resource: ListResource, plan: ListPlan): Promise<ListPage> {
  // One statement, one scan. `k` walks the matching rows in list order, keeping only the key and
  // the sort values, and stops after max(offset + limit, COUNT_CAP + 1) rows: that bounded set is
  // both the capped count and the rows the page is cut from, so a deep page (offset 10,000) costs
  // about what the count of page 1 costs instead of a second scan. Only the page's own rows are
  // then joined for their columns (a deferred join): LEFT JOINs used neither by the filter nor the
  // sort drop out of `k` (PostgreSQL removes unique, unused left joins), instead of being joined
  // for every matching row.
  const { from, where, columns } = plan
  const pageOrder = (alias: string) => pageOrderOf(plan, alias)
  // CTE and alias names that no resource's FROM clause uses (resources alias their tables freely).
  const result = await sql<Record<string, unknown>>`
    WITH list_keys__ AS (SELECT ${keyColumnsOf(resource, plan)} FROM ${from} ${where} ORDER BY ${scanOrderOf(resource, plan)} LIMIT ${plan.scan}),
         list_page__ AS (SELECT * FROM list_keys__ ORDER BY ${pageOrder('list_keys__')} LIMIT ${plan.limit} OFFSET ${plan.offset})
    SELECT list_count__.n AS "__total", list_page__."__key" AS "__page_key", list_row__.*
    FROM (SELECT count(*)::int AS n FROM list_keys__) list_count__
    LEFT JOIN (list_page__ CROSS JOIN LATERAL (SELECT ${columns} FROM ${from} WHERE ${sql.raw(resource.tiebreak)} = list_page__."__key") list_row__) ON true
    ORDER BY ${pageOrder('list_page__')}`.execute(db)
  const counted = Number(result.rows[0]?.__total ?? 0)
  const data = result.rows.filter((row) => row.__page_key !== null && row.__page_key !== undefined).map(({ __total: _total, __page_key: _key, ...row }) => nest(row))
  return { data, meta: metaOf(plan, counted) }
}

/**
 * The list through the key cache (decision 009): the ordered keys of the filtered, sorted list
 * are listed once with the resource's change counter, in one statement (one snapshot); each page
 * then fetches only its rows by key, reading the counter again in the same statement. The rows are
 * used only when the counter is the one the keys were listed with — nothing of those rows changed
 * in between — otherwise the keys are listed again. Page 1, page 401 and the count all come from
 * the same keys. Undefined after repeated changes under our feet: the caller runs the plain query.
 */
async function cachedList(db: Kysely<DB>, resource: ListResource, plan: ListPlan, accountId: string): Promise<ListPage | undefined> {
  const cache = keyCacheOf(db)
  const order = plan.sortKeys.map((k) => `${k.column} ${k.direction}`).join(',')
  const compiled = plan.where.compile(db)
  const cacheKey = `${resource.name}\u0000${accountId}\u0000${order}\u0000${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`
  const version = sql`coalesce((SELECT version FROM list_versions WHERE account_id = ${accountId} AND resource = ${resource.versioned}), 0)::text`
  const keyType = resource.fields[Object.keys(resource.fields).find((f) => resource.fields[f]!.column === resource.tiebreak) ?? '']?.type === 'uuid' ? 'uuid' : 'text'
  const servable = (entry: KeyList) => entry.complete || plan.offset + plan.limit <= entry.keys.length

  const pageOf = async (entry: KeyList): Promise<ListPage | undefined> => {
    const ids = entry.keys.slice(plan.offset, plan.offset + plan.limit)
    const result = await sql<Record<string, unknown>>`
      SELECT list_version__.v AS "__version", list_row__.*
      FROM (SELECT ${version} AS v) list_version__
      LEFT JOIN LATERAL (
        SELECT ${sql.raw(resource.tiebreak)}::text AS "__page_key", ${plan.columns} FROM ${plan.from}
        WHERE ${sql.raw(resource.tiebreak)} = ANY(${sql.val(ids)}::${sql.raw(keyType)}[]) AND ${sql.raw(resource.accountColumn!)} = ${accountId}
      ) list_row__ ON true`.execute(db)
    if (result.rows[0]?.__version !== entry.version) return undefined
    const byKey = new Map<string, Record<string, unknown>>()
    for (const { __version: _v, __page_key: key, ...row } of result.rows) if (key !== null && key !== undefined) byKey.set(String(key), row)
    const data: Record<string, unknown>[] = []
    for (const id of ids) {
      const row = byKey.get(id)
      if (!row) return undefined
      data.push(nest(row))
    }
    return { data, meta: metaOf(plan, entry.complete ? entry.keys.length : Math.max(entry.keys.length, COUNT_CAP + 1)) }
  }

  const known = cache.get(cacheKey)
  if (known && servable(known)) {
    const page = await pageOf(known)
    if (page) return page
    cache.delete(cacheKey)
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const listed = await sql<{ version: string; n: number; keys: string }>`
      WITH list_keys__ AS (SELECT ${keyColumnsOf(resource, plan)} FROM ${plan.from} ${plan.where} ORDER BY ${scanOrderOf(resource, plan)} LIMIT ${plan.scan})
      SELECT ${version} AS version, count(*)::int AS n, coalesce(string_agg(list_keys__."__key"::text, ',' ORDER BY ${pageOrderOf(plan, 'list_keys__')}), '') AS keys
      FROM list_keys__`.execute(db)
    const row = listed.rows[0]!
    const entry: KeyList = { version: row.version, keys: row.keys ? row.keys.split(',') : [], complete: Number(row.n) < plan.scan, at: Date.now() }
    cache.set(cacheKey, entry)
    const page = await pageOf(entry)
    if (page) return page
    cache.delete(cacheKey)
  }
  return undefined
}

// `account.name` columns (aliased as one quoted identifier) become { account: { name } }.
function nest(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key in row) {
    const value = row[key] instanceof Date ? (row[key] as Date).toISOString() : row[key]
    // Most columns are plain: no path to walk.
    if (!key.includes('.')) {
      out[key] = value
      continue
    }
    const parts = key.split('.')
    let target = out
    for (let i = 0; i < parts.length - 1; i++) target = (target[parts[i]!] ??= {}) as Record<string, unknown>
    target[parts.at(-1)!] = value
  }
  return out
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/

function buildCondition(spec: FieldSpec, filter: Filter, errors: FieldError[]): RawBuilder<unknown> | null {
  const allowed = OPERATORS_BY_TYPE[spec.type]
  if (!allowed.includes(filter.operator)) {
    errors.push({ field: filter.field, message: `Operator '${filter.operator}' does not apply to ${spec.type} field '${filter.field}'`, allowed: [...allowed] })
    return null
  }
  if (filter.operator === 'between' && filter.values.length !== 2) {
    errors.push({ field: filter.field, message: `'between' takes two values separated by a comma` })
    return null
  }
  const values: unknown[] = []
  for (const raw of filter.values) {
    const value = coerce(spec, raw)
    if (value === undefined) {
      errors.push({
        field: filter.field,
        message: `'${raw}' is not a valid ${spec.type} value for '${filter.field}'`,
        ...(spec.choices ? { allowed: [...spec.choices] } : spec.type === 'boolean' ? { allowed: ['true', 'false'] } : {}),
      })
      return null
    }
    values.push(value)
  }
  if (filter.operator !== 'equals' && filter.operator !== 'between' && values.length !== 1) {
    errors.push({ field: filter.field, message: `'${filter.operator}' takes one value` })
    return null
  }
  const col = sql.raw(spec.column)
  if (spec.type === 'tags') {
    if (filter.operator === 'equals') return sql`${col} && ${sql.val(values)}::text[]`
    return sql`EXISTS (SELECT 1 FROM unnest(${col}) AS tag WHERE tag ILIKE ${'%' + escapeLike(String(values[0])) + '%'})`
  }
  if (spec.type === 'text') {
    // A lowercase-only column matches the lowercased value exactly; others ignore case with ILIKE.
    const fold = (value: unknown) => (spec.lowercase ? String(value).toLowerCase() : String(value))
    const like = spec.lowercase ? sql`LIKE` : sql`ILIKE`
    const v = fold(values[0])
    switch (filter.operator) {
      case 'contains':
        return sql`${col} ${like} ${'%' + escapeLike(v) + '%'}`
      case 'starts_with':
        return sql`${col} ${like} ${escapeLike(v) + '%'}`
      case 'ends_with':
        return sql`${col} ${like} ${'%' + escapeLike(v)}`
      default:
        return values.length === 1 ? sql`${col} = ${v}` : sql`${col} = ANY(${sql.val(values.map(fold))}::text[])`
    }
  }
  if (spec.type === 'timestamp') return timestampCondition(col, filter.operator, filter.values)
  switch (filter.operator) {
    case 'equals':
      return values.length === 1 ? sql`${col} = ${values[0]}` : sql`${col} IN (${sql.join(values.map((v) => sql`${v}`))})`
    case 'less_than':
      return sql`${col} < ${values[0]}`
    case 'less_than_and_including':
      return sql`${col} <= ${values[0]}`
    case 'greater_than':
      return sql`${col} > ${values[0]}`
    case 'greater_than_and_including':
      return sql`${col} >= ${values[0]}`
    case 'between':
      return sql`${col} BETWEEN ${values[0]} AND ${values[1]}`
    default:
      return null
  }
}

// A date-only value on a timestamp means that whole UTC day: [start, next day).
function timestampCondition(col: RawBuilder<unknown>, operator: Operator, raw: string[]): RawBuilder<unknown> {
  const range = (v: string) => {
    if (DATE_ONLY.test(v)) {
      const start = new Date(`${v}T00:00:00Z`)
      return { start, end: new Date(start.getTime() + 86_400_000), exact: false }
    }
    const at = new Date(v.replace(' ', 'T'))
    return { start: at, end: at, exact: true }
  }
  const a = range(raw[0]!)
  switch (operator) {
    case 'equals':
      if (raw.length > 1) {
        return sql`(${sql.join(
          raw.map((v) => {
            const r = range(v)
            return r.exact ? sql`${col} = ${r.start}` : sql`(${col} >= ${r.start} AND ${col} < ${r.end})`
          }),
          sql` OR `,
        )})`
      }
      return a.exact ? sql`${col} = ${a.start}` : sql`${col} >= ${a.start} AND ${col} < ${a.end}`
    case 'less_than':
      return sql`${col} < ${a.start}`
    case 'less_than_and_including':
      return a.exact ? sql`${col} <= ${a.start}` : sql`${col} < ${a.end}`
    case 'greater_than':
      return a.exact ? sql`${col} > ${a.start}` : sql`${col} >= ${a.end}`
    case 'greater_than_and_including':
      return sql`${col} >= ${a.start}`
    case 'between': {
      const b = range(raw[1]!)
      return b.exact ? sql`${col} >= ${a.start} AND ${col} <= ${b.start}` : sql`${col} >= ${a.start} AND ${col} < ${b.end}`
    }
    default:
      throw new Error(`unsupported operator ${operator}`)
  }
}

function coerce(spec: FieldSpec, raw: string): unknown {
  switch (spec.type) {
    case 'text':
    case 'tags':
      return raw
    case 'uuid':
      return UUID.test(raw) ? raw.toLowerCase() : undefined
    case 'enum':
      return spec.choices?.includes(raw) ? raw : undefined
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : undefined
    case 'integer':
      return /^-?\d{1,15}$/.test(raw) ? Number(raw) : undefined
    case 'date':
      return DATE_ONLY.test(raw) && !Number.isNaN(Date.parse(raw)) ? raw : undefined
    case 'timestamp':
      return (DATE_ONLY.test(raw) || DATE_TIME.test(raw)) && !Number.isNaN(Date.parse(raw.replace(' ', 'T'))) ? raw : undefined
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`)
}
