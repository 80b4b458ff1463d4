import { sql, type Kysely } from 'kysely'
import type { ChangeSetTarget, ChangeSpec } from '#common/change-sets.ts'
import { mailTexts } from '#server/lib/mail-texts.ts'
import type { DB } from '#server/db/schema.ts'
import type { ChangeSet } from '#server/db/schema-change-sets.ts'
import { change, txRunner, type Audit, type Tx } from '#server/platform/core/change.ts'
import { AppError, badRequest, refused } from '#server/platform/core/errors.ts'
import { requirePermission, type Scope } from '#server/platform/core/scope.ts'
import { linkBase, type PlatformDeps } from '#server/platform/deps.ts'
import { listApprovers } from '#server/platform/material-changes/service.ts'
import { languagesOfEmails, usersByIds } from '#server/platform/users/reads.ts'
import { accountById } from '#server/platform/accounts/reads.ts'
import { liveDomainsOf } from '#server/platform/domains/reads.ts'
import { actorEmail } from './approval-reads.ts'
import { areaOf, readChangeSet, type ObjectRow } from './service.ts'

/**
 * A change set's approval (issue 33, decision 030): a set whose change is a material change (the
 * nameservers of a material domain, as the domains area's material change requests say), or any set
 * of an account whose rule says so, waits for N of the account's designated approvers — ONE
 * request naming every object of the set (its objects, as previewed). Each approver decides once,
 * signed in, and never on a set they made; one rejection ends the set; the N-th approval starts it.
 */
export const APPROVAL_JOBS = { notify: 'change-sets.approval-notify' } as const

export type ApprovalRule = { required: number; every_set: boolean }

/** The account's rule; no row is one approval, for material sets only. */
export async function approvalRule(db: Kysely<DB> | Tx, accountId: string): Promise<ApprovalRule> {
  const row = await db.selectFrom('change_set_approval_rules').select(['required', 'every_set']).where('account_id', '=', accountId).executeTakeFirst()
  return row ?? { required: 1, every_set: false }
}

/** Sets the account's rule (the domain admin, who names the approvers); audited. */
export async function setApprovalRule(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, rule: ApprovalRule): Promise<ApprovalRule & { approvers: string[] }> {
  requirePermission(scope.actor, 'domain-admin')
  const accountId = scope.accountId
  if (!accountId) throw badRequest('Choose an account (context)')
  if (!Number.isInteger(rule.required) || rule.required < 1 || rule.required > 50) throw badRequest('Give 1 to 50 approvals', [{ field: 'required', message: 'Give 1 to 50' }])
  return change(deps.db, scope, async (tx, audit) => {
    const before = await approvalRule(tx, accountId)
    await tx
      .insertInto('change_set_approval_rules')
      .values({ account_id: accountId, required: rule.required, every_set: rule.every_set, updated_at: deps.now() })
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ required: rule.required, every_set: rule.every_set, updated_at: deps.now() }))
      .execute()
    await audit.record({ area: 'domains', entityType: 'change-set-approval-rule', entityId: accountId, action: 'update', before, after: rule })
    return { ...rule, approvers: await listApprovers(tx, accountId) }
  })
}

/** True when the change is a material change (spec: contacts and nameservers of a material domain). */
export const isMaterialKind = (spec: ChangeSpec) => spec.kind === 'nameservers'

/** Why the set must wait for approval before it starts, or null: a material domain among the objects that change, or the account's rule. */
export async function approvalReason(tx: Tx, set: { account_id: string; target: ChangeSetTarget; change: ChangeSpec }, rows: ObjectRow[]): Promise<'material' | 'account' | null> {
  if (set.target === 'domains' && isMaterialKind(set.change)) {
    const ids = rows.filter((r) => r.preview === 'change').map((r) => r.subject_id)
    for (let i = 0; i < ids.length; i += 5000) {
      const material = await liveDomainsOf(tx, set.account_id)
        .select('domains.id')
        .where('domains.id', 'in', ids.slice(i, i + 5000))
        .where('domains.is_material', '=', true)
        .limit(1)
        .executeTakeFirst()
      if (material) return 'material'
    }
  }
  return (await approvalRule(tx, set.account_id)).every_set ? 'account' : null
}

/**
 * Puts a previewed set into `awaiting_approval` (inside the start's transaction): the approvers and
 * the number needed fixed now, the request audited, the approvers mailed by a job of the same
 * transaction. Refused when the account has fewer designated approvers than it asks for.
 */
export async function requestApproval(deps: Pick<PlatformDeps, 'jobs' | 'now'>, tx: Tx, audit: Audit, set: ChangeSet, reason: 'material' | 'account', objects: number) {
  const [rule, approvers] = await Promise.all([approvalRule(tx, set.account_id), listApprovers(tx, set.account_id)])
  // The author is never one of their own approvers.
  const author = set.created_by ? await usersByIds(tx, [set.created_by]).select('email').executeTakeFirst() : undefined
  const eligible = approvers.filter((e) => e !== author?.email.toLowerCase())
  if (eligible.length < rule.required)
    throw refused(
      'change_set.approvers_missing',
      `This change set needs ${rule.required} approval(s) but the account has ${eligible.length} designated approver(s) other than its author: name them under the domain's material settings`,
    )
  await tx
    .updateTable('change_sets')
    .set({
      state: 'awaiting_approval',
      approvals_required: rule.required,
      approvers: eligible,
      approval_reason: reason,
      approval_requested_at: deps.now(),
      updated_at: deps.now(),
      version: sql`version + 1`,
    })
    .where('id', '=', set.id)
    .execute()
  await audit.record({
    area: areaOf(set.target),
    entityType: 'change_set',
    entityId: set.id,
    action: 'request_approval',
    after: { reason, required: rule.required, approvers: eligible, objects },
  })
  await deps.jobs.send(APPROVAL_JOBS.notify, { setId: set.id }, { runner: txRunner(tx), retryLimit: 5 })
}

/** Mails each approver of a set waiting for approval a link to it (signed in, they decide there). */
export async function notifySetApprovers(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'config' | 'listeningUrl'>, setId: string) {
  const set = await deps.db.selectFrom('change_sets').selectAll().where('id', '=', setId).executeTakeFirst()
  if (!set || set.state !== 'awaiting_approval') return
  const account = await accountById(deps.db, set.account_id).select('name').executeTakeFirstOrThrow()
  const decided = new Set((await deps.db.selectFrom('change_set_approvals').select('email').where('change_set_id', '=', set.id).execute()).map((r) => r.email))
  const to = set.approvers.filter((e) => !decided.has(e))
  const languages = await languagesOfEmails(deps.db, to)
  const url = `${linkBase(deps)}/change-sets/${set.id}?context=${set.account_id}`
  for (const email of to) {
    const t = mailTexts(languages.get(email))
    await deps.mailer.send({
      to: email,
      subject: t('changeSetApproval.subject', { name: set.name }),
      text: [
        t('changeSetApproval.intro', { who: set.created_by_label, name: set.name, account: account.name, count: set.preview?.changed ?? 0 }),
        t('changeSetApproval.required', { count: set.approvals_required ?? 1 }),
        '',
        url,
      ].join('\n'),
    })
  }
}

/**
 * An approver's decision (signed in: an API token does not approve). The N-th approval answers
 * `approved: true` and the caller starts the rollout; a rejection ends the set. Audited either way.
 */
export async function decideChangeSet(deps: Pick<PlatformDeps, 'db' | 'now'>, scope: Scope, id: string, decision: 'approve' | 'reject', comment: string): Promise<{ approved: boolean }> {
  return change(deps.db, scope, async (tx, audit) => {
    const set = await readChangeSet(tx, scope, id, true)
    if (set.state !== 'awaiting_approval') throw refused('change_set.not_awaiting', 'This change set is not waiting for approval')
    if (set.created_by && set.created_by === scope.actor.userId) throw new AppError(403, 'change_set.own_set', 'The author of a change set does not approve it: another approver does')
    const email = await actorEmail(tx, scope)
    if (!email || !set.approvers.includes(email)) throw new AppError(403, 'change_set.not_approver', 'Only a designated approver of this account decides on this change set')
    const inserted = await tx
      .insertInto('change_set_approvals')
      .values({ change_set_id: set.id, account_id: set.account_id, email, user_id: scope.actor.userId, decision, comment: comment.slice(0, 2000), decided_at: deps.now() })
      .onConflict((oc) => oc.columns(['change_set_id', 'email']).doNothing())
      .returning('email')
      .executeTakeFirst()
    if (!inserted) throw refused('change_set.decided_already', 'You have decided on this change set already')
    const approvals = Number(
      (
        await tx
          .selectFrom('change_set_approvals')
          .select(sql<number>`count(*)`.as('n'))
          .where('change_set_id', '=', set.id)
          .where('decision', '=', 'approve')
          .executeTakeFirstOrThrow()
      ).n,
    )
    const approved = decision === 'approve' && approvals >= (set.approvals_required ?? 1)
    await audit.record({
      area: areaOf(set.target),
      entityType: 'change_set',
      entityId: set.id,
      action: decision,
      before: { state: set.state },
      after: { by: email, comment, approvals, required: set.approvals_required, ...(decision === 'reject' ? { state: 'rejected' } : approved ? { state: 'approved' } : {}) },
    })
    if (decision === 'reject') await tx.updateTable('change_sets').set({ state: 'rejected', finished_at: deps.now(), updated_at: deps.now() }).where('id', '=', set.id).execute()
    if (approved) await tx.updateTable('change_sets').set({ approved_at: deps.now(), updated_at: deps.now() }).where('id', '=', set.id).execute()
    return { approved }
  })
}
