import { createHash, randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import type { MaterialChange, MaterialChangeRequest } from '#server/db/schema-tray.ts'
import type { DB } from '#server/db/schema.ts'
import { applyDomainChange, errorMessage, isMaterialChange, loadDomain } from '#server/platform/domains/update.ts'
import { change, txRunner, type Tx } from '#server/platform/core/change.ts'
import { badRequest, conflict, notFound } from '#server/platform/core/errors.ts'
import { systemScope, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import type { ListResource } from '#server/platform/list/engine.ts'

export const MATERIAL_JOBS = { notify: 'material-change-requests.notify', sweep: 'material-change-requests.sweep' } as const
export const REQUEST_LIFETIME_DAYS = 7
const DAY_MS = 24 * 3600 * 1000

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export const materialRequestsResource: ListResource = {
  name: 'material-change-requests',
  from: 'material_change_requests m',
  accountColumn: 'm.account_id',
  tiebreak: 'm.id',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', column: 'm.id', filterable: true },
    domain_id: { type: 'uuid', column: 'm.domain_id', filterable: true },
    domain_name: { type: 'text', column: 'm.domain_name', filterable: true, sortable: true },
    state: { type: 'enum', column: 'm.state', filterable: true, sortable: true, choices: ['pending', 'approved', 'rejected', 'expired', 'applied'] },
    requested_by_label: { type: 'text', column: 'm.requested_by_label', filterable: true, sortable: true },
    decided_by: { type: 'text', column: 'm.decided_by', filterable: true, sortable: true },
    created_at: { type: 'timestamp', column: 'm.created_at', filterable: true, sortable: true },
    expires_at: { type: 'timestamp', column: 'm.expires_at', filterable: true, sortable: true },
    decided_at: { type: 'timestamp', column: 'm.decided_at', filterable: true, sortable: true },
  },
}

/** The designated approvers of an account (emails, lower case). */
export async function listApprovers(db: Kysely<DB> | Tx, accountId: string): Promise<string[]> {
  const rows = await db.selectFrom('material_approvers').select('email').where('account_id', '=', accountId).orderBy('email').execute()
  return rows.map((r) => r.email)
}

/** Replaces the approvers of the scope's account; audited. */
export async function setApprovers(db: Kysely<DB>, scope: Scope, emails: string[]): Promise<string[]> {
  const accountId = scope.accountId!
  const clean = [...new Set(emails.map((e) => e.trim().toLowerCase()))]
  const bad = clean.filter((e) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e))
  if (bad.length) throw badRequest('Some approver addresses are not valid', bad.map((e) => ({ field: 'emails', message: `Not an email address: ${e}` })))
  return change(db, scope, async (tx, audit) => {
    const before = await listApprovers(tx, accountId)
    await tx.deleteFrom('material_approvers').where('account_id', '=', accountId).execute()
    if (clean.length) await tx.insertInto('material_approvers').values(clean.map((email) => ({ account_id: accountId, email }))).execute()
    await audit.record({ area: 'domains', entityType: 'material-approvers', entityId: accountId, action: 'update', before: { emails: before }, after: { emails: clean.sort() } })
    return clean
  })
}

/** Marks domains of the scope's account material or not; audited per domain. */
export async function setMaterial(db: Kysely<DB>, scope: Scope, ids: string[], isMaterial: boolean): Promise<number> {
  return change(db, scope, async (tx, audit) => {
    const rows = await tx
      .updateTable('domains')
      .set({ is_material: isMaterial, updated_at: new Date() })
      .where('id', 'in', ids)
      .where('account_id', '=', scope.accountId!)
      .where('is_material', '<>', isMaterial)
      .returning(['id'])
      .execute()
    for (const row of rows) await audit.record({ area: 'domains', entityType: 'domain', entityId: row.id, action: 'update', before: { is_material: !isMaterial }, after: { is_material: isMaterial } })
    return rows.length
  })
}

/**
 * Records a change to a material domain as a pending request instead of applying it (for the
 * domains core's PATCH and for bulk actions). Runs inside the caller's transaction; the approvers
 * are mailed by a job queued in that same transaction when `deps` is given, otherwise by the
 * sweep that picks up requests not yet notified.
 */
export async function createMaterialChangeRequest(
  tx: Tx,
  scope: Scope,
  input: { domainId: string; change: MaterialChange },
  deps?: Pick<PlatformDeps, 'jobs' | 'now'>,
): Promise<{ id: string }> {
  if (!isMaterialChange(input.change)) throw badRequest('A material change request needs a contact or nameserver change')
  const domain = await tx.selectFrom('domains').select(['id', 'name', 'account_id']).where('id', '=', input.domainId).where('account_id', '=', scope.accountId!).executeTakeFirst()
  if (!domain) throw notFound('Domain not found')
  const approvers = await listApprovers(tx, domain.account_id)
  if (approvers.length === 0) throw conflict('This domain is material, but its account has no designated approvers')
  const now = deps?.now() ?? new Date()
  const row = await tx
    .insertInto('material_change_requests')
    .values({
      account_id: domain.account_id,
      domain_id: domain.id,
      domain_name: domain.name,
      change: JSON.stringify(input.change),
      requested_by: scope.actor.userId,
      requested_by_label: scope.actor.label,
      approvers,
      expires_at: new Date(now.getTime() + REQUEST_LIFETIME_DAYS * DAY_MS),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await tx
    .insertInto('audit_entries')
    .values({
      request_id: scope.requestId,
      actor_user_id: scope.actor.userId,
      actor_label: scope.actor.label,
      account_id: domain.account_id,
      area: 'domains',
      entity_type: 'material-change-request',
      entity_id: row.id,
      action: 'request',
      changes: JSON.stringify({ after: { domain_id: domain.id, domain_name: domain.name, change: input.change, approvers } }),
    })
    .execute()
  if (deps?.jobs) await deps.jobs.send(MATERIAL_JOBS.notify, { requestId: row.id }, { runner: txRunner(tx), retryLimit: 5 })
  return { id: row.id }
}

/** Mails each approver a single-use link, once per request (a second run finds it notified). */
export async function notifyApprovers(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'config' | 'now' | 'logger'>, requestId: string): Promise<void> {
  const links = await deps.db.transaction().execute(async (tx) => {
    const request = await tx.selectFrom('material_change_requests').selectAll().where('id', '=', requestId).forUpdate().executeTakeFirst()
    if (!request || request.notified_at || request.state !== 'pending') return []
    const out: { email: string; token: string }[] = []
    for (const email of request.approvers) {
      const token = randomBytes(32).toString('base64url')
      await tx.insertInto('material_approval_tokens').values({ token_hash: hashToken(token), request_id: request.id, email }).execute()
      out.push({ email, token })
    }
    await tx.updateTable('material_change_requests').set({ notified_at: deps.now() }).where('id', '=', request.id).execute()
    return out.map((o) => ({ ...o, request }))
  })
  const base = (deps.config.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/$/, '')
  for (const { email, token, request } of links) {
    const url = `${base}/approvals/${request.id}?token=${token}`
    await deps.mailer.send({
      to: email,
      subject: `Approval needed: change to ${request.domain_name}`,
      text: [
        `${request.requested_by_label} asked to change ${request.domain_name}, a domain marked material:`,
        '',
        describeChange(request.change),
        '',
        `Approve or reject it here (the link works once, until ${request.expires_at.toISOString().slice(0, 16).replace('T', ' ')} UTC):`,
        url,
      ].join('\n'),
    })
  }
}

export function describeChange(c: MaterialChange): string {
  const lines: string[] = []
  for (const [role, id] of Object.entries(c.contacts ?? {})) lines.push(`- ${role} contact → ${id}`)
  if (c.nameservers) lines.push(`- nameservers → ${c.nameservers.join(', ') || '(none)'}`)
  return lines.join('\n')
}

/** Marks every pending request past its expiry as expired (the scheduled job; also run lazily). */
export async function expireRequests(db: Kysely<DB>, now: Date, onlyId?: string): Promise<number> {
  return change(db, systemScope('material-change-expiry'), async (tx, audit) => {
    let query = tx.updateTable('material_change_requests').set({ state: 'expired', updated_at: now }).where('state', '=', 'pending').where('expires_at', '<=', now)
    if (onlyId) query = query.where('id', '=', onlyId)
    const rows = await query.returning(['id', 'account_id']).execute()
    for (const row of rows) await audit.record({ area: 'domains', entityType: 'material-change-request', entityId: row.id, accountId: row.account_id, action: 'expire', before: { state: 'pending' }, after: { state: 'expired' } })
    return rows.length
  })
}

export type RequestView = ReturnType<typeof requestJson>

export function requestJson(r: MaterialChangeRequest) {
  const iso = (d: Date | null) => d?.toISOString() ?? null
  return {
    id: r.id,
    group_id: r.account_id,
    domain_id: r.domain_id,
    domain_name: r.domain_name,
    change: r.change,
    state: r.state,
    requested_by_label: r.requested_by_label,
    approvers: r.approvers,
    created_at: r.created_at.toISOString(),
    expires_at: r.expires_at.toISOString(),
    decided_at: iso(r.decided_at),
    decided_by: r.decided_by,
    comment: r.comment,
    applied_at: iso(r.applied_at),
    error: r.error,
  }
}

/** A request of the scope's account (staff in their own group: any). */
export async function getRequest(db: Kysely<DB>, accountId: string | null, id: string, now: Date): Promise<MaterialChangeRequest> {
  await expireRequests(db, now, id)
  let query = db.selectFrom('material_change_requests').selectAll().where('id', '=', id)
  if (accountId) query = query.where('account_id', '=', accountId)
  const row = await query.executeTakeFirst()
  if (!row) throw notFound('Material change request not found')
  return row
}

/** The request behind a public link: 404 unless the token is one of its unused ones. */
export async function requestForToken(db: Kysely<DB>, id: string, token: string, now: Date) {
  await expireRequests(db, now, id)
  const row = await db
    .selectFrom('material_approval_tokens as t')
    .innerJoin('material_change_requests as m', 'm.id', 't.request_id')
    .selectAll('m')
    .select(['t.email as approver_email', 't.used_at as token_used_at'])
    .where('t.token_hash', '=', hashToken(token))
    .where('m.id', '=', id)
    .executeTakeFirst()
  if (!row || row.token_used_at) throw notFound('This approval link is not valid')
  return row
}

/**
 * An approver's decision through the public link: the token is used up, the decision audited, and
 * an approval applies the change through the same path as the domain change itself.
 */
export async function decide(
  deps: Pick<PlatformDeps, 'db' | 'registries' | 'now'>,
  id: string,
  input: { token: string; decision: 'approve' | 'reject'; comment: string },
): Promise<MaterialChangeRequest> {
  const request = await requestForToken(deps.db, id, input.token, deps.now())
  if (request.state !== 'pending') throw conflict(`This request is ${request.state} already`, { state: request.state })
  const scope: Scope = { actor: { userId: null, label: `approver ${request.approver_email}`, homeAccountId: request.account_id, roles: [], abilities: [] }, accountId: request.account_id, requestId: null }
  const decided = await change(deps.db, scope, async (tx, audit) => {
    const used = await tx
      .updateTable('material_approval_tokens')
      .set({ used_at: deps.now() })
      .where('token_hash', '=', hashToken(input.token))
      .where('used_at', 'is', null)
      .returning('email')
      .executeTakeFirst()
    if (!used) throw notFound('This approval link is not valid')
    const state = input.decision === 'approve' ? 'approved' : 'rejected'
    const row = await tx
      .updateTable('material_change_requests')
      .set({ state, decided_at: deps.now(), decided_by: used.email, comment: input.comment, updated_at: deps.now() })
      .where('id', '=', id)
      .where('state', '=', 'pending')
      .returningAll()
      .executeTakeFirst()
    if (!row) throw conflict('This request was decided already')
    // Other approvers' links die with the decision: one decision per request.
    await tx.updateTable('material_approval_tokens').set({ used_at: deps.now() }).where('request_id', '=', id).where('used_at', 'is', null).execute()
    await audit.record({ area: 'domains', entityType: 'material-change-request', entityId: id, action: input.decision, before: { state: 'pending' }, after: { state, decided_by: used.email, comment: input.comment } })
    return row
  })
  if (decided.state !== 'approved') return decided
  try {
    const domain = await loadDomain(deps.db, scope, decided.domain_id)
    await applyDomainChange(deps, scope, domain, decided.change, 'material-change-applied')
    return await change(deps.db, scope, async (tx, audit) => {
      const row = await tx.updateTable('material_change_requests').set({ state: 'applied', applied_at: deps.now(), updated_at: deps.now() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      await audit.record({ area: 'domains', entityType: 'material-change-request', entityId: id, action: 'apply', before: { state: 'approved' }, after: { state: 'applied' } })
      return row
    })
  } catch (error) {
    // Approved but not applied (e.g. the registry refused): kept with its reason, never silent.
    const message = errorMessage(error)
    return change(deps.db, scope, async (tx, audit) => {
      const row = await tx.updateTable('material_change_requests').set({ error: message, updated_at: deps.now() }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      await audit.record({ area: 'domains', entityType: 'material-change-request', entityId: id, action: 'apply-failed', after: { error: message } })
      return row
    })
  }
}

/** Requests whose approvers were never mailed (created without a job) get their mail here. */
export async function unnotifiedRequests(db: Kysely<DB>): Promise<string[]> {
  const rows = await db.selectFrom('material_change_requests').select('id').where('notified_at', 'is', null).where('state', '=', 'pending').where(sql<boolean>`true`).limit(100).execute()
  return rows.map((r) => r.id)
}

export function registerMaterialJobs(deps: PlatformDeps) {
  deps.jobs.register<{ requestId: string }>(MATERIAL_JOBS.notify, (data) => notifyApprovers(deps, data.requestId))
  deps.jobs.register(MATERIAL_JOBS.sweep, async () => {
    await expireRequests(deps.db, deps.now())
    for (const id of await unnotifiedRequests(deps.db)) await notifyApprovers(deps, id)
  })
  deps.jobs.schedule?.(MATERIAL_JOBS.sweep, '*/10 * * * *')
}
