/**
 * The API reference read from the live OpenAPI 3.1 document (`GET /v1/openapi.json`): operations
 * grouped by area (tag), the search over them, and what a schema looks like as rows of fields and
 * as an example. Pure and browser-safe: the loader builds the view, the page renders it, and the
 * same functions answer on both sides.
 */

/** A JSON Schema as the document writes it (OpenAPI 3.1: JSON Schema 2020-12 plus `$ref`). */
export type Schema = {
  $ref?: string
  type?: string | string[]
  format?: string
  description?: string
  enum?: unknown[]
  const?: unknown
  default?: unknown
  example?: unknown
  examples?: unknown[]
  nullable?: boolean
  properties?: Record<string, Schema>
  required?: string[]
  additionalProperties?: boolean | Schema
  items?: Schema
  allOf?: Schema[]
  anyOf?: Schema[]
  oneOf?: Schema[]
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  pattern?: string
}

type MediaObject = { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> }
type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: Schema; example?: unknown }
type Operation = {
  tags?: string[]
  summary?: string
  description?: string
  operationId?: string
  deprecated?: boolean
  parameters?: Parameter[]
  requestBody?: { required?: boolean; description?: string; content?: Record<string, MediaObject> }
  responses?: Record<string, { description?: string; content?: Record<string, MediaObject> }>
  'x-permission'?: string
  /** The operation takes a signed-in session only, never an API token (`access(…, { session: true })`). */
  'x-session-only'?: boolean
}
export type OpenApiDocument = {
  openapi: string
  info: { title: string; version: string; description?: string }
  paths?: Record<string, Record<string, Operation>>
  webhooks?: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Schema> }
}

export type ParameterView = { name: string; in: string; required: boolean; description: string | null; schema: Schema }
export type BodyView = { mediaType: string; description: string | null; required: boolean; schema: Schema | null; example: unknown }
export type ResponseView = BodyView & { status: string; isProblem: boolean }
export type OperationView = {
  /** The anchor of the operation: `get-v1-groups-context-domains`. */
  id: string
  method: string
  path: string
  summary: string
  description: string | null
  deprecated: boolean
  /** `x-permission`: a permission name, `signed-in`, `public`, or null when the route declares none. */
  permission: string | null
  /** `x-session-only`: a session may call it, an API token may not (403 `token.not_allowed`). */
  sessionOnly: boolean
  parameters: ParameterView[]
  body: BodyView | null
  responses: ResponseView[]
}
export type AreaView = { name: string; id: string; operations: OperationView[] }
export type ReferenceView = {
  title: string
  version: string
  description: string | null
  query: string
  /** Operations and webhooks in the whole document, and how many the query kept. */
  total: number
  matched: number
  areas: AreaView[]
  webhooks: (OperationView & { event: string })[]
  /** The component schemas the kept operations reach (by `$ref`, transitively), by name. */
  schemas: Record<string, Schema>
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const

/** A fragment id from words: lower-case letters, digits and dashes. */
export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

export const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1)
export const schemaAnchor = (name: string) => `schema-${slug(name)}`

function bodyOf(content: Record<string, MediaObject> | undefined, description: string | null, required: boolean): BodyView | null {
  if (!content) return null
  const [mediaType, media] = Object.entries(content)[0] ?? []
  if (!mediaType || !media) return null
  const example = media.example ?? Object.values(media.examples ?? {})[0]?.value
  return { mediaType, description, required, schema: media.schema ?? null, example: example === undefined ? null : example }
}

function operationView(method: string, path: string, op: Operation): OperationView {
  const responses = Object.entries(op.responses ?? {})
    .map(([status, answer]): ResponseView => {
      const body = bodyOf(answer.content, answer.description ?? null, false)
      const mediaType = body?.mediaType ?? ''
      return {
        status,
        mediaType,
        description: answer.description ?? null,
        required: false,
        schema: body?.schema ?? null,
        example: body?.example ?? null,
        isProblem: mediaType === 'application/problem+json',
      }
    })
    .sort((a, b) => a.status.localeCompare(b.status))
  return {
    id: slug(`${method} ${path}`),
    method,
    path,
    summary: op.summary ?? '',
    description: op.description ?? null,
    deprecated: op.deprecated === true,
    permission: op['x-permission'] ?? null,
    sessionOnly: op['x-session-only'] === true,
    parameters: (op.parameters ?? []).map((p) => ({ name: p.name, in: p.in, required: p.required === true, description: p.description ?? p.schema?.description ?? null, schema: p.schema ?? {} })),
    body: op.requestBody ? bodyOf(op.requestBody.content, op.requestBody.description ?? null, op.requestBody.required === true) : null,
    responses,
  }
}

/** Every word of the query in the operation's method, path, summary, description, area or permission. */
export function matches(words: string[], area: string, op: OperationView): boolean {
  if (words.length === 0) return true
  const text = `${op.method} ${op.path} ${op.summary} ${op.description ?? ''} ${area} ${op.permission ?? ''}`.toLowerCase()
  return words.every((word) => text.includes(word))
}

/** The component schemas that the given schemas reach through `$ref`, by name. */
export function reachable(roots: Schema[], all: Record<string, Schema>): Record<string, Schema> {
  const out: Record<string, Schema> = {}
  const visit = (value: unknown) => {
    if (!value || typeof value !== 'object') return
    if (Array.isArray(value)) return value.forEach(visit)
    const ref = (value as Schema).$ref
    if (typeof ref === 'string') {
      const name = refName(ref)
      if (!out[name] && all[name]) {
        out[name] = all[name]
        visit(all[name])
      }
    }
    for (const child of Object.values(value)) visit(child)
  }
  roots.forEach(visit)
  return out
}

/** The reference page's view of the document, kept to the operations the query matches. */
export function referenceView(doc: OpenApiDocument, query = ''): ReferenceView {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  const byArea = new Map<string, OperationView[]>()
  let total = 0
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      total++
      const area = op.tags?.[0] ?? 'Other'
      const view = operationView(method, path, op)
      if (!matches(words, area, view)) continue
      let list = byArea.get(area)
      if (!list) byArea.set(area, (list = []))
      list.push(view)
    }
  }
  const webhooks: ReferenceView['webhooks'] = []
  for (const [event, item] of Object.entries(doc.webhooks ?? {})) {
    for (const method of METHODS) {
      const op = item[method]
      if (!op) continue
      total++
      const view = { ...operationView(method, event, op), id: slug(`webhook ${event}`), event }
      if (matches(words, 'webhook', view)) webhooks.push(view)
    }
  }
  const areas = [...byArea.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, operations]) => ({ name, id: `area-${slug(name)}`, operations }))
  const kept = [...areas.flatMap((a) => a.operations), ...webhooks]
  return {
    title: doc.info.title,
    version: doc.info.version,
    description: doc.info.description ?? null,
    query,
    total,
    matched: kept.length,
    areas,
    webhooks,
    schemas: reachable(schemaRoots(kept), doc.components?.schemas ?? {}),
  }
}

/** The schemas operations name directly: bodies, answers, parameters. */
const schemaRoots = (operations: OperationView[]) =>
  operations.flatMap((op) => [op.body?.schema, ...op.responses.map((r) => r.schema), ...op.parameters.map((p) => p.schema)]).filter((s): s is Schema => Boolean(s))

// ---------------------------------------------------------------------------------------------
// The reference in pages (issue 34): /api/reference lists every operation as a link, each area's
// operations are rendered in full on their own page (/api/reference/<area>) with the schemas they
// reach, and the webhook events, the errors and the schemas have a page each.

export const REFERENCE_PATH = '/api/reference'
/** The pages of the reference that are not an area's. */
export const REFERENCE_PARTS = { webhooks: 'webhook-events', errors: 'errors', schemas: 'schemas' } as const
const PART_SLUGS: readonly string[] = Object.values(REFERENCE_PARTS)
/** A search that keeps at most this many operations shows them in full; more are listed as links. */
export const FULL_MATCHES = 25

/** The page of the schemas whose names begin with one letter: `schemas-s` (`schemas-0` for any other first character). */
const SCHEMA_PAGE = /^schemas-([a-z0])$/
export const schemaPage = (name: string) => `${REFERENCE_PARTS.schemas}-${/^[a-z]/i.test(name) ? name[0]!.toLowerCase() : '0'}`

/** The last segment of an area's page: its name as a slug (never one of the other pages' names). */
export const areaSlug = (name: string) => {
  const own = slug(name) || 'other'
  return PART_SLUGS.includes(own) || SCHEMA_PAGE.test(own) ? `${own}-area` : own
}
export const referenceHref = (part: string, anchor?: string) => `${REFERENCE_PATH}/${part}${anchor ? `#${anchor}` : ''}`
/** Where a schema is rendered in full: its letter's page. */
export const schemaHref = (name: string) => referenceHref(schemaPage(name), schemaAnchor(name))

/** An operation as a line of the contents (its full entry is at its part's page, `#id`). */
export type OperationLink = { id: string; method: string; path: string; summary: string }
export type ReferenceContents = {
  title: string
  version: string
  query: string
  total: number
  matched: number
  areas: { name: string; id: string; href: string; operations: OperationLink[] }[]
  /** The webhook events: `path` is the event's name. */
  webhooks: OperationLink[]
  /** The names of the schemas the listed operations reach. */
  schemas: string[]
}

/** The reference's contents: every operation the view keeps as a link to its area's page. */
export function referenceContents(view: ReferenceView): ReferenceContents {
  const link = (op: OperationView): OperationLink => ({ id: op.id, method: op.method, path: op.path, summary: op.summary })
  return {
    title: view.title,
    version: view.version,
    query: view.query,
    total: view.total,
    matched: view.matched,
    areas: view.areas.map((area) => ({ name: area.name, id: area.id, href: referenceHref(areaSlug(area.name)), operations: area.operations.map(link) })),
    webhooks: view.webhooks.map((hook) => ({ ...link(hook), path: hook.event })),
    schemas: Object.keys(view.schemas).sort((a, b) => a.localeCompare(b)),
  }
}

/**
 * What one page of the reference shows: an area, the webhook events, the errors, or schemas — every
 * schema's name (`names`, the page `schemas`) or the schemas of one letter in full (`name` the letter).
 */
export type ReferencePart = { kind: 'area' | 'webhooks' | 'errors' | 'schemas'; name: string; view: ReferenceView; names?: string[] }

/**
 * One page of the full view (`part` is the page's last segment), with the schemas its operations
 * reach, so every link of a type lands on the same page; null when there is no such page.
 */
export function referencePart(full: ReferenceView, doc: OpenApiDocument, part: string): ReferencePart | null {
  const all = doc.components?.schemas ?? {}
  const only = (areas: AreaView[], webhooks: ReferenceView['webhooks'], schemas: Record<string, Schema>): ReferenceView => ({
    ...full,
    matched: areas.reduce((n, a) => n + a.operations.length, 0) + webhooks.length,
    areas,
    webhooks,
    schemas,
  })
  if (part === REFERENCE_PARTS.webhooks) return { kind: 'webhooks', name: '', view: only([], full.webhooks, reachable(schemaRoots(full.webhooks), all)) }
  // Every schema in full was the one page far above the rest (660 KB): the names, then a page a letter,
  // each with the schemas its own reach, so a type's link lands on the same page.
  if (part === REFERENCE_PARTS.schemas) return { kind: 'schemas', name: '', names: Object.keys(all).sort((a, b) => a.localeCompare(b)), view: only([], [], {}) }
  const letter = SCHEMA_PAGE.exec(part)?.[1]
  if (letter) {
    const names = Object.keys(all).filter((name) => schemaPage(name) === part)
    if (names.length === 0) return null
    const schemas = reachable(
      names.map((name) => ({ $ref: `#/components/schemas/${name}` })),
      all,
    )
    return { kind: 'schemas', name: letter === '0' ? '#' : letter.toUpperCase(), names, view: only([], [], schemas) }
  }
  if (part === REFERENCE_PARTS.errors) {
    // Every problem an operation answers, and the base Problem.
    const problems = full.areas.flatMap((a) => a.operations.flatMap((op) => op.responses.filter((r) => r.isProblem).map((r) => r.schema)))
    const roots = [{ $ref: '#/components/schemas/Problem' }, ...problems].filter((s): s is Schema => Boolean(s))
    return { kind: 'errors', name: '', view: only([], [], reachable(roots, all)) }
  }
  const area = full.areas.find((a) => areaSlug(a.name) === part)
  return area ? { kind: 'area', name: area.name, view: only([area], [], reachable(schemaRoots(area.operations), all)) } : null
}

/** The schema a `$ref` names, or the schema itself. */
export function resolve(schema: Schema, schemas: Record<string, Schema>): Schema {
  return schema.$ref ? (schemas[refName(schema.$ref)] ?? {}) : schema
}

/** Types in a notation every language reads: `string (uuid)`, `SslCertificate[]`, `integer | null`. */
export function typeLabel(schema: Schema): string {
  if (schema.$ref) return refName(schema.$ref)
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  const variants = schema.oneOf ?? schema.anyOf
  if (variants) return variants.map(typeLabel).join(' | ')
  if (schema.allOf) return schema.allOf.map(typeLabel).join(' & ')
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  const label = types
    .map((type) => {
      if (type === 'array') return `${schema.items ? typeLabel(schema.items) : 'any'}[]`
      if (type === 'object' && !schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object') return `map<string, ${typeLabel(schema.additionalProperties)}>`
      return schema.format && type !== 'null' ? `${type} (${schema.format})` : type
    })
    .join(' | ')
  return (label || 'any') + (schema.nullable ? ' | null' : '')
}

/** The limits a field states: length, range, items, pattern, one of the values. */
export function constraints(schema: Schema): string[] {
  const out: string[] = []
  if (schema.enum) out.push(`enum: ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`)
  if (schema.minLength !== undefined) out.push(`minLength ${schema.minLength}`)
  if (schema.maxLength !== undefined) out.push(`maxLength ${schema.maxLength}`)
  if (schema.minimum !== undefined) out.push(`≥ ${schema.minimum}`)
  if (schema.maximum !== undefined) out.push(`≤ ${schema.maximum}`)
  if (schema.minItems !== undefined) out.push(`minItems ${schema.minItems}`)
  if (schema.maxItems !== undefined) out.push(`maxItems ${schema.maxItems}`)
  if (schema.pattern) out.push(`pattern ${schema.pattern}`)
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`)
  return out
}

/** An object schema's fields once `allOf` parts are merged: [name, schema, required]. */
export function fieldsOf(schema: Schema, schemas: Record<string, Schema>, seen = new Set<string>()): [string, Schema, boolean][] {
  const own = resolve(schema, schemas)
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return []
    seen = new Set(seen).add(schema.$ref)
  }
  const fields: [string, Schema, boolean][] = []
  for (const part of own.allOf ?? []) fields.push(...fieldsOf(part, schemas, seen))
  const required = new Set(own.required ?? [])
  for (const [name, field] of Object.entries(own.properties ?? {})) fields.push([name, field, required.has(name)])
  return fields
}

const EXAMPLE_STRINGS: Record<string, string> = {
  uuid: '0b9c4a55-6f1e-4c38-9d2a-5f8e7c1d2b3a',
  'date-time': '2026-01-31T12:00:00.000Z',
  date: '2026-01-31',
  email: 'admin@acme.example',
  uri: 'https://acme.example/',
}

/** A string field's example by its name when the schema gives no format: `expires_at`, `email`, `country_code`… */
const NAMED_STRINGS: [RegExp, string][] = [
  [/(^|_)(at|from|until)$/, EXAMPLE_STRINGS['date-time']!],
  [/email/, EXAMPLE_STRINGS.email!],
  [/(^|_)id$/, EXAMPLE_STRINGS.uuid!],
  [/url|uri/, EXAMPLE_STRINGS.uri!],
  [/country_code/, 'ES'],
  [/currency/, 'EUR'],
  [/^(phone|mobile|fax)$/, '+34600123456'],
]

/** An example value of a schema: its own example or default, else one made from its type (and the field's name). */
export function exampleOf(schema: Schema, schemas: Record<string, Schema>, depth = 0, seen: ReadonlySet<string> = new Set(), field = ''): unknown {
  if (schema.$ref) {
    if (seen.has(schema.$ref) || depth > 6) return {}
    return exampleOf(resolve(schema, schemas), schemas, depth, new Set(seen).add(schema.$ref), field)
  }
  if (schema.example !== undefined) return schema.example
  if (schema.examples?.length) return schema.examples[0]
  if (schema.default !== undefined) return schema.default
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return schema.enum[0]
  const variants = schema.oneOf ?? schema.anyOf
  if (variants?.length) return exampleOf(variants.find((v) => v.type !== 'null') ?? variants[0]!, schemas, depth + 1, seen, field)
  if (schema.allOf || schema.properties) {
    const out: Record<string, unknown> = {}
    for (const [name, child] of fieldsOf(schema, schemas)) out[name] = exampleOf(child, schemas, depth + 1, seen, name)
    return out
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type
  switch (type) {
    case 'string':
      return EXAMPLE_STRINGS[schema.format ?? ''] ?? NAMED_STRINGS.find(([pattern]) => pattern.test(field))?.[1] ?? 'string'
    case 'integer':
      return schema.minimum ?? 1
    case 'number':
      return schema.minimum ?? 1.5
    case 'boolean':
      return true
    case 'null':
      return null
    case 'array':
      return schema.items && depth < 6 ? [exampleOf(schema.items, schemas, depth + 1, seen, field)] : []
    case 'object':
      return {}
    default:
      return null
  }
}
