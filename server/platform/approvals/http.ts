import { MATERIAL_STATES } from '#common/lists/material-changes.ts'
import { createRoute, z } from '@hono/zod-openapi'
import { createRouter } from '#server/platform/core/http.ts'
import { access, ConflictResponse, jsonBody, jsonResponse, ProblemResponses } from '#server/platform/core/openapi.ts'
import type { MaterialChangeRequest } from '#server/db/schema-tray.ts'
import { MaterialChange } from '#server/platform/material-changes/http.ts'
import { requestForToken } from '#server/platform/material-changes/service.ts'
import { decide } from './decide.ts'

const TAGS = ['Approvals (public)']
const Params = z.object({ id: z.uuid() })
const Token = z.string().min(20).max(200)

const ApprovalView = z
  .object({
    id: z.uuid(),
    domain_name: z.string(),
    change: MaterialChange,
    state: z.enum(MATERIAL_STATES),
    requested_by_label: z.string(),
    approver: z.string(),
    created_at: z.string(),
    expires_at: z.string(),
    decided_by: z.string().nullable(),
    comment: z.string().nullable(),
    error: z.string().nullable(),
  })
  .openapi('Approval')

const DecisionBody = z
  .object({ token: Token, decision: z.enum(['approve', 'reject']), comment: z.string().max(2000).default('') })
  .strict()
  .openapi('ApprovalDecision')

type ViewSource = Parameters<typeof toView>[0]
function toView(r: Pick<MaterialChangeRequest, 'id' | 'domain_name' | 'change' | 'state' | 'requested_by_label' | 'created_at' | 'expires_at' | 'decided_by' | 'comment' | 'error'>, approver: string) {
  return {
    id: r.id,
    domain_name: r.domain_name,
    change: r.change,
    state: r.state,
    requested_by_label: r.requested_by_label,
    approver,
    created_at: r.created_at.toISOString(),
    expires_at: r.expires_at.toISOString(),
    decided_by: r.decided_by,
    comment: r.comment,
    error: r.error,
  }
}
export type { ViewSource }

/**
 * The public side of material change requests: no login, the single-use token of the mailed link
 * is the credential. A wrong, used or unknown token answers 404 and shows nothing.
 */
export const approvalsRouter = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/approvals/{id}',
      ...access('public'),
      tags: TAGS,
      summary: 'The request behind an approval link (token required); a request decided already is a 409 approval.decided saying when and by whom',
      request: { params: Params, query: z.object({ token: Token }) },
      responses: { 200: jsonResponse(ApprovalView), ...ProblemResponses, ...ConflictResponse },
    }),
    async (c) => {
      const deps = c.get('deps')
      const row = await requestForToken(deps.db, c.req.valid('param').id, c.req.valid('query').token, deps.now())
      return c.json(toView(row, row.approver_email), 200)
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/approvals/{id}',
      ...access('public'),
      tags: TAGS,
      summary: 'Approve or reject with a comment; the link is used up',
      request: { params: Params, body: jsonBody(DecisionBody) },
      responses: { 200: jsonResponse(ApprovalView), ...ProblemResponses },
    }),
    async (c) => {
      const body = c.req.valid('json')
      const deps = c.get('deps')
      const token = await requestForToken(deps.db, c.req.valid('param').id, body.token, deps.now())
      const row = await decide(deps, c.req.valid('param').id, body)
      return c.json(toView(row, token.approver_email), 200)
    },
  )
