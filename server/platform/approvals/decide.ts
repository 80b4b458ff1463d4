import { change } from '#server/platform/core/change.ts'
import { conflict, notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { applyDomainChange, errorMessage, loadDomain, oneAtATime } from '#server/platform/domains/update.ts'
import { alreadyDecided, hashToken, requestForToken } from '#server/platform/material-changes/service.ts'
import type { MaterialChangeRequest } from '#server/db/schema-tray.ts'

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
  const scope: Scope = {
    actor: { userId: null, label: `approver ${request.approver_email}`, homeAccountId: request.account_id, roles: [], abilities: [] },
    accountId: request.account_id,
    requestId: null,
  }
  const decided = await change(deps.db, scope, async (tx, audit) => {
    const used = await tx
      .updateTable('material_approval_tokens')
      .set({ used_at: deps.now() })
      .where('token_hash', '=', hashToken(input.token))
      .where('used_at', 'is', null)
      .returning('email')
      .executeTakeFirst()
    if (!used) {
      // Used by a decision made at the same moment (a second click): say what it decided.
      const current = await tx.selectFrom('material_change_requests').selectAll().where('id', '=', id).executeTakeFirst()
      throw current ? alreadyDecided(current) : notFound('This approval link is not valid')
    }
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
    await audit.record({
      area: 'domains',
      entityType: 'material-change-request',
      entityId: id,
      action: input.decision,
      before: { state: 'pending' },
      after: { state, decided_by: used.email, comment: input.comment },
    })
    return row
  })
  if (decided.state !== 'approved') return decided
  try {
    await oneAtATime(decided.domain_id, async () => {
      const domain = await loadDomain(deps.db, scope, decided.domain_id)
      await applyDomainChange(deps, scope, domain, decided.change, { action: 'material-change-applied' })
    })
    return await change(deps.db, scope, async (tx, audit) => {
      const row = await tx
        .updateTable('material_change_requests')
        .set({ state: 'applied', applied_at: deps.now(), updated_at: deps.now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow()
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
