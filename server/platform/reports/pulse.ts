import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { change } from '#server/platform/core/change.ts'
import { badRequest, conflict, forbidden } from '#server/platform/core/errors.ts'
import { isStaff, type Scope } from '#server/platform/core/scope.ts'
import { defaultWidgets, PULSE_MAX, readWidget, type PulseWidget } from '#common/pulse.ts'

export type PulseConfiguration = { widgets: PulseWidget[]; customised: boolean; version: number }

/** The signed-in person's dashboard (issue 29): what they arranged, or their role's defaults. */
export async function readPulse(db: Kysely<DB>, scope: Scope): Promise<PulseConfiguration> {
  if (!scope.actor.userId) throw forbidden('Pulse is a person’s dashboard')
  const row = await db.selectFrom('pulse_configurations').select(['widgets', 'version']).where('user_id', '=', scope.actor.userId).executeTakeFirst()
  if (!row) return { widgets: defaultWidgets(isStaff(scope.actor)), customised: false, version: 0 }
  return { widgets: row.widgets.map(readWidget).filter((w): w is PulseWidget => w !== null), customised: true, version: row.version }
}

/**
 * Saves the dashboard as sent (`widgets` null: back to the role's defaults), in one transaction
 * with its audit entry; `version` is the one read (0 before the first save), a stale one a 409.
 */
export async function savePulse(db: Kysely<DB>, scope: Scope, input: { widgets: unknown[] | null; version: number }): Promise<PulseConfiguration> {
  const userId = scope.actor.userId
  if (!userId) throw forbidden('Pulse is a person’s dashboard')
  let widgets: PulseWidget[] | null = null
  if (input.widgets !== null) {
    if (input.widgets.length > PULSE_MAX) throw badRequest(`At most ${PULSE_MAX} widgets`, [{ field: 'widgets', message: `At most ${PULSE_MAX} widgets` }])
    widgets = input.widgets.map(readWidget).filter((w): w is PulseWidget => w !== null)
    if (widgets.length !== input.widgets.length)
      throw badRequest('A widget names an unknown report, section or size', [{ field: 'widgets', message: 'A widget names an unknown report, section or size' }])
  }
  return change(db, scope, async (tx, audit) => {
    const before = await tx.selectFrom('pulse_configurations').select(['widgets', 'version']).where('user_id', '=', userId).forUpdate().executeTakeFirst()
    if ((before?.version ?? 0) !== input.version) throw conflict('The dashboard was changed meanwhile: reload it')
    if (widgets === null) {
      await tx.deleteFrom('pulse_configurations').where('user_id', '=', userId).execute()
    } else if (before) {
      await tx
        .updateTable('pulse_configurations')
        .set({ widgets: JSON.stringify(widgets), version: before.version + 1, updated_at: new Date() })
        .where('user_id', '=', userId)
        .execute()
    } else {
      await tx
        .insertInto('pulse_configurations')
        .values({ user_id: userId, widgets: JSON.stringify(widgets) })
        .execute()
    }
    await audit.record({
      area: 'users',
      entityType: 'pulse-configuration',
      entityId: userId,
      action: widgets === null ? 'reset' : 'update',
      accountId: scope.actor.homeAccountId,
      before: before ? { widgets: before.widgets } : null,
      after: widgets ? { widgets } : null,
    })
    return widgets === null ? { widgets: defaultWidgets(isStaff(scope.actor)), customised: false, version: 0 } : { widgets, customised: true, version: (before?.version ?? 0) + 1 }
  })
}
