import { sql } from 'kysely'
import { change, txRunner } from '#server/platform/core/change.ts'
import { conflict } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { DNS_JOBS, getZone } from './zones.ts'

/** DNSSEC on and off for a zone, each a chain of jobs in the safe order. */

export async function requestSigning(deps: PlatformDeps, scope: Scope, zoneId: string) {
  return change(deps.db, scope, async (tx, audit) => {
    const zone = await getZone(tx, scope, zoneId, true)
    if (zone.dnssec_state !== 'unsigned') throw conflict(`The zone is ${zone.dnssec_state}`)
    const updated = await tx.updateTable('dns_zones').set({ dnssec_state: 'signing', version: sql<number>`version + 1`, updated_at: deps.now() }).where('id', '=', zone.id).returningAll().executeTakeFirstOrThrow()
    await audit.record({ area: 'dns', entityType: 'dns_zone', entityId: zone.id, action: 'dnssec-sign', before: { dnssec_state: zone.dnssec_state }, after: { dnssec_state: 'signing' } })
    await deps.jobs.send(DNS_JOBS.sign, { zoneId: zone.id }, { runner: txRunner(tx), retryLimit: 10 })
    return updated
  })
}

/**
 * Turns DNSSEC off in the safe order: the DS goes from the parent first, then after the DS TTL
 * (resolvers may still hold it) the zone is unsigned. Done as a chain of jobs.
 */
export async function requestUnsigning(deps: PlatformDeps, scope: Scope, zoneId: string) {
  return change(deps.db, scope, async (tx, audit) => {
    const zone = await getZone(tx, scope, zoneId, true)
    if (zone.dnssec_state !== 'signed') throw conflict(`The zone is ${zone.dnssec_state}`)
    const updated = await tx.updateTable('dns_zones').set({ dnssec_state: 'unsigning', version: sql<number>`version + 1`, updated_at: deps.now() }).where('id', '=', zone.id).returningAll().executeTakeFirstOrThrow()
    await audit.record({ area: 'dns', entityType: 'dns_zone', entityId: zone.id, action: 'dnssec-unsign', before: { dnssec_state: zone.dnssec_state }, after: { dnssec_state: 'unsigning' } })
    await deps.jobs.send(DNS_JOBS.removeDs, { zoneId: zone.id }, { runner: txRunner(tx), retryLimit: 10 })
    return updated
  })
}
