import { createHash } from 'node:crypto'
import { z, type OpenAPIHono } from '@hono/zod-openapi'
import type { Permission } from '#common/permissions.ts'

/** The list query of every list resource (spec §7 "List requests"). */
export const ListQueryParams = z
  .object({
    limit: z.string().optional().openapi({ description: 'Rows per page, 1–1000 (default 25)', example: '25' }),
    page: z.string().optional().openapi({ description: 'Page number from 1 (default 1)', example: '1' }),
    sort: z.string().optional().openapi({ description: 'Comma-separated keys; a leading - sorts descending', example: '-created_at' }),
    fields: z.string().optional().openapi({ description: 'Comma-separated projection; a nested field adds its parent' }),
    pql: z.string().optional().openapi({ description: "Filter text: field operator 'value' and …", example: "name contains 'acme'" }),
  })
  .catchall(z.string())
  .openapi('ListQuery')

export const ListMeta = z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int(), total_capped: z.boolean().optional() }).openapi('ListMeta')

/** `{ data: [...], meta: { total, page, limit } }` around a row schema. */
export function ListResponse<T extends z.ZodType>(row: T) {
  return {
    description: 'A page of rows',
    content: { 'application/json': { schema: z.object({ data: z.array(row), meta: ListMeta }) } },
  }
}

/**
 * RFC 9457 problem details, as `toProblem` (core/errors.ts) writes them. Extension members beside
 * these are allowed (RFC 9457 §3.2): the ones an answer carries for its status are declared in the
 * status's own schema below, so a client finds them in the document.
 */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z
      .array(
        z
          .object({
            field: z.string().openapi({ description: 'The field refused (a dotted path into the body, or a parameter)' }),
            message: z.string(),
            code: z.string().optional().openapi({ description: 'The rule broken, a stable code (e.g. phone.invalid)' }),
            allowed: z.array(z.string()).optional().openapi({ description: 'The values the field takes' }),
            reason: z.string().optional().openapi({ description: 'What is wrong in more detail (e.g. a phone number too short)' }),
            params: z.record(z.string(), z.unknown()).optional().openapi({ description: "The rule's figures, for a message in the reader's words (e.g. { min: 12 })" }),
          })
          // A rule may name more of what it checked (a VAT id's country and an example of its shape).
          .catchall(z.unknown()),
      )
      .optional(),
    request_id: z.string().optional(),
  })
  .openapi('Problem')

/** 403: `permission` names the permission the route needs when that is what is missing. */
export const ForbiddenProblem = Problem.extend({
  permission: z.string().optional().openapi({ description: 'The permission the operation needs, when the caller lacks it', example: 'domains-editor' }),
}).openapi('ForbiddenProblem')
/** 409: a rule on stored state; a stale version (decision 006) says the row's current version. */
export const ConflictProblem = Problem.extend({
  current_version: z.number().int().optional().openapi({ description: 'A stale version (code version.conflict): the version the row has now' }),
  reason: z.string().optional().openapi({ description: 'Which rule refused, where the code alone does not say' }),
  registry_code: z.number().int().optional().openapi({ description: "The registry's EPP result code, when the registry refused" }),
}).openapi('ConflictProblem')
/** 422, 502, 503: the registry refused, failed, or could not be reached. */
export const RegistryProblem = Problem.extend({
  registry_code: z.number().int().optional().openapi({ description: "The registry's EPP result code (e.g. 2004, 2306)", example: 2306 }),
  reason: z.string().optional(),
  tld: z.string().optional().openapi({ description: 'The TLD no registry serves (code no-registry)' }),
}).openapi('RegistryProblem')
/** 429: when to try again (also the Retry-After header). */
export const TooManyRequestsProblem = Problem.extend({
  retry_after: z.number().int().openapi({ description: 'Seconds to wait before trying again (as Retry-After)' }),
  registry: z.string().optional().openapi({ description: 'The registry that throttled us, when it was the registry' }),
}).openapi('TooManyRequestsProblem')

const problem = (description: string, schema: z.ZodType = Problem) => ({ description, content: { 'application/problem+json': { schema } } })

/** The refusals every operation may answer, spread into each route's `responses`. */
export const ProblemResponses = {
  400: problem('The request is not valid'),
  401: problem('Authentication required'),
  403: problem('Permission denied', ForbiddenProblem),
  404: problem('Not found'),
  429: problem('Too many requests', TooManyRequestsProblem),
} as const

/**
 * What an operation that waits on the registry may answer beside ProblemResponses, spread after
 * them (a registry's 409 — the object exists, is not ours — is every change's 409, ConflictProblem).
 */
export const RegistryProblemResponses = {
  422: problem('The registry refused the request, or no registry serves the TLD', RegistryProblem),
  502: problem('The registry failed to answer properly', RegistryProblem),
  503: problem('The registry could not be reached; try again later', RegistryProblem),
} as const

/** A 409 of a route's own rule (in use, decided, stale version), spread after ProblemResponses. */
export const ConflictResponse = { 409: problem('Refused by a rule on stored state', ConflictProblem) } as const

/** JSON request body of a route. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } }, required: true })
export const jsonResponse = <T extends z.ZodType>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema } } })

/**
 * Who may call an operation, declared on its route and published as the operation's
 * `x-permission` (the /api/reference page shows it): a name of the permission registry
 * (`Permission`, common/permissions.ts: an unknown one is a type error; roles and abilities
 * expanded, staff holds every one), `signed-in` for any bearer, or `public` for no credential.
 * The area's router (`createRouter`, core/http.ts) refuses a request that lacks it before the
 * handler runs (401, or 403 problem+json naming the permission); a rule that needs more (a row's
 * own account, the user's own events) narrows further in the service.
 */
export type RouteAccess = 'public' | 'signed-in' | Permission

/**
 * The route's access, spread into `createRoute({ …, ...access('ssl-viewer') })`. `{ session: true }`:
 * a signed-in session only, never an API token (403 `token.not_allowed`, published as
 * `x-session-only`): what a person signs in with — password, second factor, API tokens, their
 * preferences, the sign-in itself — is out of a script's reach whatever the token holds (decision 021).
 */
export function access(permission: RouteAccess, options: { session?: true } = {}) {
  return { 'x-permission': permission, ...(options.session ? { 'x-session-only': true as const } : {}), security: permission === 'public' ? [] : [{ bearer: [] }] } as const
}

type DocumentConfig = Parameters<OpenAPIHono['getOpenAPI31Document']>[0]

/**
 * Serves the OpenAPI 3.1 document of `api` at `path`. Generating it from every route's zod
 * schemas takes ~100 ms, so the text is kept and made again only when the registry changed
 * (a route, schema or webhook registered since): always the live document, made once. Its ETag
 * (a hash of the text) answers a conditional GET with 304, so a reader that keeps the document —
 * the portal's API reference, on every request (issue 34) — is not sent its ~700 KB again.
 */
export function serveOpenApiDocument(api: Pick<OpenAPIHono<any, any, any>, 'get' | 'getOpenAPI31Document' | 'openAPIRegistry'>, path: string, config: DocumentConfig) {
  let kept: { definitions: number; text: string; etag: string } | null = null
  // The problems completeDocument refers to, whether or not a route names them itself.
  api.openAPIRegistry.register('ConflictProblem', ConflictProblem)
  api.get(path, (c) => {
    const definitions = api.openAPIRegistry.definitions.length
    if (kept?.definitions !== definitions) {
      const text = JSON.stringify(completeDocument(api.getOpenAPI31Document(config)))
      kept = { definitions, text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` }
    }
    if (c.req.header('if-none-match') === kept.etag) return c.body(null, 304, { ETag: kept.etag })
    return c.body(kept.text, 200, { 'Content-Type': 'application/json', ETag: kept.etag })
  })
}

type Operation = { operationId?: string; tags?: string[]; security?: unknown[]; requestBody?: unknown; responses?: Record<string, unknown> }
type GeneratedDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>

const WRITES = new Set(['post', 'put', 'patch', 'delete'])
const problemRef = (description: string, schema = 'Problem') => ({ description, content: { 'application/problem+json': { schema: { $ref: `#/components/schemas/${schema}` } } } })
const camel = (words: string[]) => words.map((w, i) => (i ? w.charAt(0).toUpperCase() + w.slice(1) : w.toLowerCase())).join('')
const wordsOf = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean)

/**
 * The operation id a route gets when it declares none: its method and path in camelCase, a
 * parameter as `By<Name>` — `get /v1/groups/{context}/domains/{id}` is
 * `getGroupsByContextDomainsById`. Stable (it changes only when the path does) and unique (method
 * and path are).
 */
export function operationIdOf(method: string, path: string): string {
  const segments = path
    .replace(/^\/v1(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
  return camel([method, ...segments.flatMap((segment) => (segment.startsWith('{') ? ['by', ...wordsOf(segment)] : wordsOf(segment)))])
}

/**
 * What every operation of the document says the same way, added once here rather than on each of
 * ~200 routes (issue 26): an `operationId` where the route declares none, the document's `tags`
 * (every tag an operation uses), `security` on webhooks (we call the receiver; it checks the
 * signature headers, no credential of ours), and the refusals the API's edge answers whatever the
 * route: 413 and 415 for an operation that takes a body (api.ts: the body limit, JSON only), and
 * 409 for every change (a concurrent change or a duplicate the database refused, core/errors.ts).
 */
export function completeDocument<D extends GeneratedDocument>(doc: D): D {
  const tags = new Set<string>()
  const complete = (op: Operation, id: string) => {
    op.operationId ??= id
    for (const tag of op.tags ?? []) tags.add(tag)
    return op
  }
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      if (typeof op !== 'object' || !op.responses) continue
      complete(op, operationIdOf(method, path))
      if (op.requestBody) {
        op.responses['413'] ??= problemRef('The request body is larger than the API takes')
        op.responses['415'] ??= problemRef('The request body is not application/json')
      }
      if (WRITES.has(method)) op.responses['409'] ??= problemRef('A concurrent change or an existing record got in the way; read again and retry', 'ConflictProblem')
    }
  }
  for (const [event, item] of Object.entries(doc.webhooks ?? {})) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      if (typeof op !== 'object' || !op.responses) continue
      complete(op, camel(['on', ...wordsOf(event)]))
      op.security ??= []
    }
  }
  const declared = new Set((doc.tags ?? []).map((tag) => tag.name))
  doc.tags = [...(doc.tags ?? []), ...[...tags].filter((tag) => !declared.has(tag)).map((name) => ({ name }))]
  return doc
}
