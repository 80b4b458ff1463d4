import { z, type OpenAPIHono } from '@hono/zod-openapi'

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

export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string(), allowed: z.array(z.string()).optional() })).optional(),
    request_id: z.string().optional(),
  })
  .openapi('Problem')

const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: Problem } } })

export const ProblemResponses = {
  400: problem('The request is not valid'),
  401: problem('Authentication required'),
  403: problem('Permission denied'),
  404: problem('Not found'),
  429: problem('Too many requests'),
} as const

/** JSON request body of a route. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } }, required: true })
export const jsonResponse = <T extends z.ZodType>(schema: T, description = 'OK') => ({ description, content: { 'application/json': { schema } } })

/**
 * Who may call an operation, declared on its route and published as the operation's
 * `x-permission` (the /api/reference page shows it): a permission name (roles and abilities
 * expanded, staff holds every one), `signed-in` for any bearer, or `public` for no credential.
 * The area's router (`createRouter`, core/http.ts) refuses a request that lacks it before the
 * handler runs (401, or 403 problem+json naming the permission); a rule that needs more (a row's
 * own account, the user's own events) narrows further in the service.
 */
export type RouteAccess = 'public' | 'signed-in' | (string & {})

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
 * (a route, schema or webhook registered since): always the live document, made once.
 */
export function serveOpenApiDocument(api: Pick<OpenAPIHono<any, any, any>, 'get' | 'getOpenAPI31Document' | 'openAPIRegistry'>, path: string, config: DocumentConfig) {
  let kept: { definitions: number; text: string } | null = null
  api.get(path, (c) => {
    const definitions = api.openAPIRegistry.definitions.length
    if (kept?.definitions !== definitions) kept = { definitions, text: JSON.stringify(api.getOpenAPI31Document(config)) }
    return c.body(kept.text, 200, { 'Content-Type': 'application/json' })
  })
}
