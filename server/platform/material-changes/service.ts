import { createHash, randomBytes } from 'node:crypto'
import { sql, type Kysely } from 'kysely'
import { mailTexts } from '#server/lib/mail-texts.ts'
import type { MaterialChange, MaterialChangeRequest } from '#server/db/schema-tray.ts'
import type { DB } from '#server/db/schema.ts'
import { auditWriter, change, txRunner, type Tx } from '#server/platform/core/change.ts'
import { AppError, badRequest, conflict, notFound } from '#server/platform/core/errors.ts'
import { systemScope, type Scope } from '#server/platform/core/scope.ts'
import { linkBase, type PlatformDeps } from '#server/platform/deps.ts'
import { refuseWhileLocked } from '#server/platform/domains/rules.ts'
import { domainOfAccount } from '#server/platform/domains/reads.ts'
import { markMaterial } from '#server/platform/domains/writes.ts'
import { listResource } from '#server/platform/list/engine.ts'
import { MATERIAL_REQUESTS_LIST } from '#common/lists/material-changes.ts'
import { languagesOfEmails } from '#server/platform/users/reads.ts'

/** True when the change touches what a material domain needs approval for. */
export const isMaterialChange = (c: MaterialChange) => Boolean((c.contacts && Object.keys(c.contacts).length) || c.nameservers)

export const MATERIAL_JOBS = { notify: 'material-change-requests.notify', sweep: 'material-change-requests.sweep' } as const
export const REQUEST_LIFETIME_DAYS = 7
const DAY_MS = 24 * 3600 * 1000

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

export const materialRequestsResource = listResource(MATERIAL_REQUESTS_LIST, {
  from: 'material_change_requests m',
  accountColumn: 'm.account_id',
  tiebreak: 'm.id',
  columns: {
    id: 'm.id',
    domain_id: 'm.domain_id',
    domain_name: 'm.domain_name',
    state: 'm.state',
    requested_by_label: 'm.requested_by_label',
    decided_by: 'm.decided_by',
    created_at: 'm.created_at',
    expires_at: 'm.expires_at',
    decided_at: 'm.decided_at',
  },
})

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
  if (bad.length)
    throw badRequest(
      'Some approver addresses are not valid',
      bad.map((e) => ({ field: 'emails', message: `Not an email address: ${e}` })),
    )
  return change(db, scope, async (tx, audit) => {
    const before = await listApprovers(tx, accountId)
    await tx.deleteFrom('material_approvers').where('account_id', '=', accountId).execute()
    if (clean.length)
      await tx
        .insertInto('material_approvers')
        .values(clean.map((email) => ({ account_id: accountId, email })))
        .execute()
    await audit.record({ area: 'domains', entityType: 'material-approvers', entityId: accountId, action: 'update', before: { emails: before }, after: { emails: clean.sort() } })
    return clean
  })
}

/** Marks domains of the scope's account material or not; audited per domain. */
export async function setMaterial(db: Kysely<DB>, scope: Scope, ids: string[], isMaterial: boolean): Promise<number> {
  return change(db, scope, async (tx, audit) => {
    const changed = await markMaterial(tx, scope.accountId!, ids, isMaterial)
    for (const id of changed) await audit.record({ area: 'domains', entityType: 'domain', entityId: id, action: 'update', before: { is_material: !isMaterial }, after: { is_material: isMaterial } })
    return changed.length
  })
}

/**
 * Records a change to a material domain as a pending request instead of applying it (for the
 * domains core's PATCH and for bulk actions). Runs inside the caller's transaction; the approvers
 * are mailed by a job queued in that same transaction when `deps` is given, otherwise by the
 * sweep that picks up requests not yet notified.
 */
export async function createMaterialChangeRequest(tx: Tx, scope: Scope, input: { domainId: string; change: MaterialChange }, deps?: Pick<PlatformDeps, 'jobs' | 'now'>): Promise<{ id: string }> {
  if (!isMaterialChange(input.change)) throw badRequest('A material change request needs a contact or nameserver change')
  const domain = await domainOfAccount(tx, scope.accountId!, input.domainId).select(['id', 'name', 'account_id', 'registry_lock']).executeTakeFirst()
  if (!domain) throw notFound('Domain not found')
  // The registry would refuse it when approved: refused now, and nobody is mailed.
  refuseWhileLocked(domain, { touchesRegistryRecord: true })
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
  await auditWriter(tx, scope).record({
    accountId: domain.account_id,
    area: 'domains',
    entityType: 'material-change-request',
    entityId: row.id,
    action: 'request',
    after: { domain_id: domain.id, domain_name: domain.name, change: input.change, approvers },
  })
  if (deps?.jobs) await deps.jobs.send(MATERIAL_JOBS.notify, { requestId: row.id }, { runner: txRunner(tx), retryLimit: 5 })
  return { id: row.id }
}

/** Mails each approver a single-use link, once per request (a second run finds it notified). */
export async function notifyApprovers(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'config' | 'now' | 'logger' | 'listeningUrl'>, requestId: string): Promise<void> {
  const links = await deps.db.transaction().execute(async (tx) => {
    const request = await tx.selectFrom('material_change_requests').selectAll().where('id', '=', requestId).forUpdate().executeTakeFirst()
    if (!request || request.notified_at || request.state !== 'pending') return []
    const out: { email: string; token: string }[] = []
    for (const email of request.approvers) {
      const token = randomBytes(32).toString('base64url')
      await tx
        .insertInto('material_approval_tokens')
        .values({ token_hash: hashToken(token), request_id: request.id, email })
        .execute()
      out.push({ email, token })
    }
    await tx.updateTable('material_change_requests').set({ notified_at: deps.now() }).where('id', '=', request.id).execute()
    return out.map((o) => ({ ...o, request }))
  })
  const base = linkBase(deps)
  // An approver who is a user of the portal reads it in their language; another address in English.
  const emails = links.map((l) => l.email)
  const languages = await languagesOfEmails(deps.db, emails)
  for (const { email, token, request } of links) {
    const url = `${base}/approvals/${request.id}?token=${token}`
    const t = mailTexts(languages.get(email))
    await deps.mailer.send({
      to: email,
      subject: t('approval.subject', { domain: request.domain_name }),
      text: [
        t('approval.intro', { who: request.requested_by_label, domain: request.domain_name }),
        '',
        describeChange(request.change),
        '',
        t('approval.link', { until: request.expires_at.toISOString().slice(0, 16).replace('T', ' ') }),
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
    for (const row of rows)
      await audit.record({
        area: 'domains',
        entityType: 'material-change-request',
        entityId: row.id,
        accountId: row.account_id,
        action: 'expire',
        before: { state: 'pending' },
        after: { state: 'expired' },
      })
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

/**
 * 409 `approval.decided` for a link whose request was decided already (by this link or another
 * approver's): what became of it and when, instead of a bare "not valid".
 */
export function alreadyDecided(request: { state: string; decided_at: Date | null; decided_by: string | null; updated_at: Date }): AppError {
  const at = request.decided_at ?? request.updated_at
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`
  const by = request.decided_by ? ` by ${request.decided_by}` : ''
  return new AppError(409, 'approval.decided', `This request was already decided${by} on ${when}; it is ${request.state} now`, {
    extra: { state: request.state, decided_at: at.toISOString(), decided_by: request.decided_by },
  })
}

/**
 * The request behind a public link: 404 unless the token is one of its own, 409 with the decision
 * and its time when the link was used already (it works once).
 */
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
  if (!row) throw notFound('This approval link is not valid')
  if (row.token_used_at) throw alreadyDecided(row)
  return row
}

/** Requests whose approvers were never mailed (created without a job) get their mail here. */
export async function unnotifiedRequests(db: Kysely<DB>): Promise<string[]> {
  const rows = await db
    .selectFrom('material_change_requests')
    .select('id')
    .where('notified_at', 'is', null)
    .where('state', '=', 'pending')
    .where(sql<boolean>`true`)
    .limit(100)
    .execute()
  return rows.map((r) => r.id)
}
