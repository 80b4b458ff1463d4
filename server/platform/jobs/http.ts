import { createRoute, z } from '@hono/zod-openapi'
import { createRouter, requireScope } from '#server/platform/core/http.ts'
import { access, jsonResponse, ListQueryParams, ListResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import { listPage } from '#server/platform/core/list-route.ts'
import { failedJobsResource, requireJobsScope, retryFailedJob } from './service.ts'

const TAGS = ['Jobs']
const ContextParam = z.object({ context: z.string() })
const JobParams = z.object({ context: z.string(), id: z.uuid() })

const FailedJobSchema = z
  .object({
    id: z.uuid(),
    queue: z.string(),
    failed_at: z.string().nullable(),
    created_at: z.string(),
    retries: z.number().int(),
    error: z.string().openapi({ description: "pg-boss's error message, at most 500 characters" }),
    data_keys: z.array(z.string()).openapi({ description: "The keys of the job's data" }),
    data_ids: z.array(z.string()).openapi({ description: 'The ids the data carries, `key=uuid` (no other value of the data is shown)' }),
    archived: z.boolean().openapi({ description: 'pg-boss has moved it to its archive (12 hours after it failed); a retry brings it back' }),
  })
  .openapi('FailedJob')

export const jobsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/groups/{context}/jobs/failed',
      ...access('staff'),
      tags: TAGS,
      summary: "Staff, in the registrar's own group: the background jobs that spent their retries, by queue, when, the error and the ids their data carries",
      request: { params: ContextParam, query: ListQueryParams },
      responses: { 200: ListResponse(FailedJobSchema.partial()), ...ProblemResponses },
    }),
    async (c) => {
      const scope = requireScope(c, c.req.valid('param').context)
      requireJobsScope(scope)
      return c.json(await listPage(c, scope, failedJobsResource), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/groups/{context}/jobs/failed/{id}/retry',
      ...access('staff'),
      tags: TAGS,
      summary: 'Staff: put a failed job back in its queue (one more retry), audited',
      request: { params: JobParams },
      responses: { 200: jsonResponse(z.object({ id: z.uuid(), queue: z.string() })), ...ProblemResponses },
    }),
    async (c) => {
      const { context, id } = c.req.valid('param')
      return c.json(await retryFailedJob(c.get('deps'), requireScope(c, context), id), 200)
    },
  )
