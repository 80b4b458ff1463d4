import type { Kysely } from 'kysely'
import { WEBHOOK_ENDPOINTS_MAX, WEBHOOK_EVENT_TYPES, type WebhookAttemptView, type WebhookEndpointView } from '#common/webhooks.ts'
import type { DB } from '#server/db/schema.ts'
import type { WebhookEndpoint } from '#server/db/schema-webhooks.ts'
import { reachOf, requirePermission } from '#server/platform/core/scope.ts'
import { change } from '#server/platform/core/change.ts'
import { type CodedFieldError, fieldError, invalid, notFound, refused, staleVersion } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { outboundOf, type WithOutbound } from '#server/platform/core/outbound.ts'
import { resolvedProblem, urlProblem } from './address.ts'
import { nudgeSenders } from './delivery.ts'
import { newWebhookSecret } from './signing.ts'

type Deps = Pick<PlatformDeps, 'db' | 'jobs' | 'now' | 'webhooks'> & WithOutbound

/** A rotated secret keeps signing beside the new one for a day, so receivers can switch over. */
const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000
const MANAGE = 'account-admin'
const VIEW = 'account-viewer'

export type EndpointInput = { url: string; description?: string; events: string[]; enabled?: boolean }

export function endpointView(endpoint: WebhookEndpoint, now: Date): WebhookEndpointView {
  return {
    id: endpoint.id,
    account_id: endpoint.account_id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabled_reason,
    failing_since: endpoint.failing_since?.toISOString() ?? null,
    rotating_until: endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now ? endpoint.previous_secret_expires_at.toISOString() : null,
    version: endpoint.version,
    created_at: new Date(endpoint.created_at).toISOString(),
  }
}

/** The public shape for the audit trail: never the secrets. */
const audited = (endpoint: WebhookEndpoint) => ({ url: endpoint.url, description: endpoint.description, events: endpoint.events, enabled: endpoint.enabled, disabled_reason: endpoint.disabled_reason })

async function check(deps: Pick<Deps, 'webhooks' | 'outbound'>, input: Partial<EndpointInput>): Promise<CodedFieldError[]> {
  const errors: CodedFieldError[] = []
  if (input.url !== undefined) {
    const allowPrivate = Boolean(deps.webhooks?.allowPrivateAddresses)
    const url = input.url.trim()
    const problem = urlProblem(url, allowPrivate, outboundOf(deps)) ?? (await resolvedProblem(url, allowPrivate, outboundOf(deps)))
    if (problem)
      errors.push(
        fieldError(
          'url',
          `webhook.url_${problem}`,
          problem === 'https_required' ? 'The URL must start with https://' : problem === 'private_address' ? 'The URL must not point at a loopback or private address' : 'Not a valid URL',
        ),
      )
  }
  if (input.events !== undefined) {
    if (!input.events.length) errors.push(fieldError('events', 'webhook.events_required', 'Choose at least one event'))
    input.events.forEach((e, i) => {
      if (!(WEBHOOK_EVENT_TYPES as readonly string[]).includes(e)) errors.push(fieldError(`events.${i}`, 'webhook.event_unknown', `'${e}' is not an event`, [...WEBHOOK_EVENT_TYPES]))
    })
  }
  return errors
}

/** The account's endpoints, oldest first. */
export async function listEndpoints(deps: Deps, scope: Scope): Promise<WebhookEndpointView[]> {
  requirePermission(scope.actor, VIEW)
  const rows = await deps.db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', scope.accountId!).orderBy('created_at').orderBy('id').execute()
  return rows.map((r) => endpointView(r, deps.now()))
}

/** One endpoint of the scope's account, or 404 (the same whether it exists elsewhere or not). */
async function findEndpoint(db: Pick<Kysely<DB>, 'selectFrom'>, scope: Scope, id: string, lock = false): Promise<WebhookEndpoint> {
  let query = db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id)
  const reach = reachOf(scope)
  if (reach !== null) query = query.where('account_id', '=', reach)
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst()
  if (!row) throw notFound('Webhook endpoint not found')
  return row
}

export async function getEndpoint(deps: Deps, scope: Scope, id: string): Promise<WebhookEndpointView> {
  const row = await findEndpoint(deps.db, scope, id)
  requirePermission(scope.actor, VIEW)
  return endpointView(row, deps.now())
}

/** Makes an endpoint; answers its secret once (the signing key receivers verify with). */
export async function createEndpoint(deps: Pick<Deps, 'db' | 'now' | 'webhooks' | 'outbound'>, scope: Scope, input: EndpointInput): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  requirePermission(scope.actor, MANAGE)
  const errors = await check(deps, input)
  if (errors.length) throw invalid(errors[0]!.code, 'The webhook endpoint is not valid', errors)
  const accountId = scope.accountId!
  const secret = newWebhookSecret()
  return change(deps.db, scope, async (tx, audit) => {
    const count = await tx
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow()
    if (Number(count.n) >= WEBHOOK_ENDPOINTS_MAX) throw refused('webhook.too_many', `An account has at most ${WEBHOOK_ENDPOINTS_MAX} endpoints`)
    const row = await tx
      .insertInto('webhook_endpoints')
      .values({ account_id: accountId, url: input.url.trim(), description: (input.description ?? '').trim(), events: [...new Set(input.events)], secret, enabled: input.enabled ?? true })
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'accounts', entityType: 'webhook_endpoint', entityId: row.id, accountId, action: 'create', after: audited(row) })
    return { endpoint: endpointView(row, deps.now()), secret }
  })
}

/** Changes the URL, description, events or enabled state (optimistic: the version read). Enabling clears the failure. */
export async function updateEndpoint(deps: Deps, scope: Scope, id: string, patch: Partial<EndpointInput> & { version: number }): Promise<WebhookEndpointView> {
  requirePermission(scope.actor, MANAGE)
  const errors = await check(deps, patch)
  if (errors.length) throw invalid(errors[0]!.code, 'The webhook endpoint is not valid', errors)
  return change(deps.db, scope, async (tx, audit) => {
    const before = await findEndpoint(tx, scope, id, true)
    if (before.version !== patch.version) throw staleVersion(before.version, 'endpoint')
    const enabling = patch.enabled === true && !before.enabled
    const after = await tx
      .updateTable('webhook_endpoints')
      .set({
        ...(patch.url !== undefined ? { url: patch.url.trim() } : {}),
        ...(patch.description !== undefined ? { description: patch.description.trim() } : {}),
        ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled, disabled_reason: patch.enabled ? null : 'Disabled by a person' } : {}),
        ...(enabling ? { failing_since: null } : {}),
        version: before.version + 1,
        updated_at: deps.now(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'accounts', entityType: 'webhook_endpoint', entityId: id, accountId: before.account_id, action: 'update', before: audited(before), after: audited(after) })
    return endpointView(after, deps.now())
  })
}

export async function deleteEndpoint(deps: Deps, scope: Scope, id: string): Promise<void> {
  requirePermission(scope.actor, MANAGE)
  await change(deps.db, scope, async (tx, audit) => {
    const before = await findEndpoint(tx, scope, id, true)
    await tx.deleteFrom('webhook_endpoints').where('id', '=', id).execute()
    await audit.record({ area: 'accounts', entityType: 'webhook_endpoint', entityId: id, accountId: before.account_id, action: 'delete', before: audited(before) })
  })
}

/** A new secret; the old one keeps signing beside it for a day (two signatures per message). */
export async function rotateSecret(deps: Deps, scope: Scope, id: string): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  requirePermission(scope.actor, MANAGE)
  const secret = newWebhookSecret()
  return change(deps.db, scope, async (tx, audit) => {
    const before = await findEndpoint(tx, scope, id, true)
    const now = deps.now()
    const after = await tx
      .updateTable('webhook_endpoints')
      .set({ secret, previous_secret: before.secret, previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS), version: before.version + 1, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'accounts',
      entityType: 'webhook_endpoint',
      entityId: id,
      accountId: before.account_id,
      action: 'rotate-secret',
      after: { rotating_until: after.previous_secret_expires_at?.toISOString() },
    })
    return { endpoint: endpointView(after, now), secret }
  })
}

/** Sends a `webhook.test` event to this endpoint only (whatever events it wants). */
export async function sendTestPing(deps: Deps, scope: Scope, id: string): Promise<{ delivery_id: string }> {
  requirePermission(scope.actor, MANAGE)
  return change(deps.db, scope, async (tx, audit) => {
    const endpoint = await findEndpoint(tx, scope, id)
    const now = deps.now()
    // Dispatched at birth: the fan-out never sends it to the account's other endpoints.
    const event = await tx
      .insertInto('webhook_events')
      .values({ account_id: endpoint.account_id, type: 'webhook.test', data: JSON.stringify({ endpoint_id: endpoint.id, message: 'A test of this endpoint' }), dispatched_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    const delivery = await tx.insertInto('webhook_deliveries').values({ event_id: event.id, endpoint_id: endpoint.id, next_attempt_at: now }).returning('id').executeTakeFirstOrThrow()
    await nudgeSenders(tx)
    await audit.record({ area: 'accounts', entityType: 'webhook_endpoint', entityId: id, accountId: endpoint.account_id, action: 'test-ping', after: { delivery_id: delivery.id } })
    return { delivery_id: delivery.id }
  })
}

/** Sends a delivery again (same webhook-id, so the receiver can tell a repeat), with a fresh schedule of retries. */
export async function replayDelivery(deps: Deps, scope: Scope, id: string, deliveryId: string): Promise<{ delivery_id: string }> {
  requirePermission(scope.actor, MANAGE)
  return change(deps.db, scope, async (tx, audit) => {
    const endpoint = await findEndpoint(tx, scope, id)
    const delivery = await tx.selectFrom('webhook_deliveries').select(['id', 'state']).where('id', '=', deliveryId).where('endpoint_id', '=', endpoint.id).forUpdate().executeTakeFirst()
    if (!delivery) throw notFound('Delivery not found')
    if (delivery.state === 'pending') throw refused('webhook.delivery_pending', 'This delivery is still being attempted')
    await tx.updateTable('webhook_deliveries').set({ state: 'pending', attempts: 0, next_attempt_at: deps.now(), claimed_until: null, updated_at: deps.now() }).where('id', '=', delivery.id).execute()
    await nudgeSenders(tx)
    await audit.record({ area: 'accounts', entityType: 'webhook_endpoint', entityId: id, accountId: endpoint.account_id, action: 'replay', after: { delivery_id: delivery.id } })
    return { delivery_id: delivery.id }
  })
}

/** The endpoint's delivery log: each request made, newest first. */
export async function listAttempts(deps: Deps, scope: Scope, id: string, limit = 50): Promise<WebhookAttemptView[]> {
  const endpoint = await findEndpoint(deps.db, scope, id)
  requirePermission(scope.actor, VIEW)
  const rows = await deps.db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select(['a.id', 'a.delivery_id', 'd.event_id', 'e.type as event_type', 'a.attempted_at', 'a.status', 'a.response_excerpt', 'a.error', 'a.duration_ms', 'd.state as delivery_state'])
    .where('a.endpoint_id', '=', endpoint.id)
    .orderBy('a.attempted_at', 'desc')
    .orderBy('a.id')
    .limit(Math.min(Math.max(limit, 1), 200))
    .execute()
  return rows.map((r) => ({ ...r, attempted_at: new Date(r.attempted_at).toISOString() }))
}
