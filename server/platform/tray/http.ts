import { createRoute, z } from '@hono/zod-openapi'
import { TRAY_ENTITY_TYPES } from '#common/lists/tray.ts'
import { badRequest } from '#server/platform/core/errors.ts'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonBody, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listQueryFromUrl, runList } from '#server/platform/list/engine.ts'
import { addToTray, removeFromTray, trayResource, traySizes } from './service.ts'

const TAGS = ['Bulk tray']
const EntityType = z.enum(TRAY_ENTITY_TYPES)
const ContextParam = z.object({ context: z.string() })
const TrayRow = z.object({ id: z.uuid(), entity_type: EntityType, name: z.string(), added_at: z.string() }).passthrough().partial().openapi('TrayItem')
const TraySize = z.object({ entity_type: EntityType, count: z.number().int() }).openapi('TraySize')
const TraySizes = z.object({ domain: z.number().int(), record: z.number().int() }).openapi('TraySizes')
const TrayChange = z
  .object({ entity_type: EntityType, ids: z.array(z.uuid()).max(10_000) })
  .strict()
  .openapi('TrayAdd')
const TrayRemove = z
  .object({ entity_type: EntityType, ids: z.array(z.uuid()).max(10_000).optional() })
  .strict()
  .openapi('TrayRemove')

/** The bulk tray: per user and account, kept in the database so it outlives sessions. */
export const trayRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/tray',
      ...access('signed-in'),
      tags: TAGS,
      summary: "The signed-in user's bulk tray in this account (list engine; entity_type domain or record)",
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(TrayRow), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const url = new URL(c.req.url)
      const type = EntityType.safeParse(url.searchParams.get('entity_type') ?? 'domain')
      if (!type.success) throw badRequest('entity_type is domain or record', [{ field: 'entity_type', message: 'domain or record', allowed: [...TRAY_ENTITY_TYPES] }])
      url.searchParams.delete('entity_type')
      const resource = trayResource(scope.actor.userId ?? '', type.data)
      const page = await runList(c.get('deps').db, resource, listQueryFromUrl(resource, url), scope)
      return c.json({ ...page, data: page.data.map((row) => ({ ...row, entity_type: type.data })) }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/tray/size',
      ...access('signed-in'),
      tags: TAGS,
      summary: "How many domains and DNS records the signed-in user's tray holds in this account",
      request: { params: ContextParam },
      responses: { 200: jsonResponse(TraySizes), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      return c.json(await traySizes(c.get('deps').db, scope), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/tray',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'Add domains or DNS records to the tray (adding twice keeps one)',
      request: { params: ContextParam, body: jsonBody(TrayChange) },
      responses: { 200: jsonResponse(TraySize), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const body = c.req.valid('json')
      const count = await addToTray(c.get('deps').db, scope, body.entity_type, body.ids)
      return c.json({ entity_type: body.entity_type, count }, 200)
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/groups/{context}/tray',
      ...access('signed-in'),
      tags: TAGS,
      summary: 'Remove items from the tray; without ids, empty it',
      request: { params: ContextParam, body: { content: { 'application/json': { schema: TrayRemove } }, required: false } },
      responses: { 200: jsonResponse(TraySize), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      const text = await c.req.text()
      const parsed = TrayRemove.safeParse(text ? JSON.parse(text) : { entity_type: 'domain' })
      if (!parsed.success) throw parsed.error
      const count = await removeFromTray(c.get('deps').db, scope, parsed.data.entity_type, parsed.data.ids)
      return c.json({ entity_type: parsed.data.entity_type, count }, 200)
    },
  )
