import { sql } from 'kysely'
import type { DnsZone } from '#server/db/schema-dns.ts'
import { change, txRunner } from '#server/platform/core/change.ts'
import { conflict, refused } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { DNS_JOBS, getZone } from './zones.ts'

/** DNSSEC on and off for a zone, each a chain of jobs in the safe order. */

type Step = { from: DnsZone['dnssec_state']; to: DnsZone['dnssec_state']; action: string; job: string }

/** Moves the zone from one DNSSEC state to the next, audited, and queues the job that carries it on. */
function startStep(deps: PlatformDeps, scope: Scope, zoneId: string, step: Step) {
  return change(deps.db, scope, async (tx, audit) => {
    const zone = await getZone(tx, scope, zoneId, true)
    if (zone.dnssec_state !== step.from) throw conflict(`The zone is ${zone.dnssec_state}`)
    if (!zone.verified_at) throw refused('dns.zone-unverified', 'The zone waits for its proof of control: it is not served, so it cannot be signed')
    const updated = await tx
      .updateTable('dns_zones')
      .set({ dnssec_state: step.to, version: sql<number>`version + 1`, updated_at: deps.now() })
      .where('id', '=', zone.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'dns', entityType: 'dns_zone', entityId: zone.id, action: step.action, before: { dnssec_state: zone.dnssec_state }, after: { dnssec_state: step.to } })
    await deps.jobs.send(step.job, { zoneId: zone.id }, { runner: txRunner(tx), retryLimit: 10 })
    return updated
  })
}

/** Turns DNSSEC on: the zone is signed, then its DS goes to the parent. */
export const requestSigning = (deps: PlatformDeps, scope: Scope, zoneId: string) => startStep(deps, scope, zoneId, { from: 'unsigned', to: 'signing', action: 'dnssec-sign', job: DNS_JOBS.sign })

/**
 * Turns DNSSEC off in the safe order: the DS goes from the parent first, then after the DS TTL
 * (resolvers may still hold it) the zone is unsigned. Done as a chain of jobs.
 */
export const requestUnsigning = (deps: PlatformDeps, scope: Scope, zoneId: string) =>
  startStep(deps, scope, zoneId, { from: 'signed', to: 'unsigning', action: 'dnssec-unsign', job: DNS_JOBS.removeDs })
