import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { ChangeSet } from '#server/db/schema-change-sets.ts'
import type { Tx } from '#server/platform/core/change.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { usersByIds } from '#server/platform/users/reads.ts'

/** What a change set's view reads of its approval (approvals.ts decides; this file only reads, so the view needs nothing of the decision). */

/** The approvals given so far, for the set's view. */
export const approvalsOf = (db: Kysely<DB>, setId: string) =>
  db.selectFrom('change_set_approvals').select(['email', 'decision', 'comment', 'decided_at']).where('change_set_id', '=', setId).orderBy('decided_at').execute()

/** The signed-in actor's address, lower case (an approver is named by address). */
export async function actorEmail(db: Kysely<DB> | Tx, scope: Scope): Promise<string | null> {
  if (!scope.actor.userId || scope.actor.token) return null
  const row = await usersByIds(db, [scope.actor.userId]).select('email').executeTakeFirst()
  return row?.email.toLowerCase() ?? null
}

/** Whether the actor may decide the set now: a designated approver of it, not its author, not decided yet. */
export async function canDecide(db: Kysely<DB>, scope: Scope, set: ChangeSet): Promise<boolean> {
  if (set.state !== 'awaiting_approval' || set.created_by === scope.actor.userId) return false
  const email = await actorEmail(db, scope)
  if (!email || !set.approvers.includes(email)) return false
  return !(await db.selectFrom('change_set_approvals').select('email').where('change_set_id', '=', set.id).where('email', '=', email).executeTakeFirst())
}
