import { dsKey, MAX_DS_RECORDS, parseDsRecord } from '#common/ds.ts'
import type { DsRecord } from '#server/db/schema-domains.ts'
import type { DsData } from '#server/integrations/registry/index.ts'
import { change } from '#server/platform/core/change.ts'
import { fieldError, invalid, notFound, refused } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { updateVersioned } from '#server/platform/core/versioned.ts'
import { liveZoneOfDomain } from '#server/platform/dns/reads.ts'
import { registryFor } from '#server/platform/registries/connection.ts'
import { dsToRecord, registryFailure, type LifecycleDeps } from './lifecycle.ts'
import { findDomain, requireDomainManager } from './portfolio.ts'
import { refuseWhileLocked } from './rules.ts'
import { oneAtATime } from './update.ts'

/** A registry call whose failure reaches the API as its problem (throttled 429, refused 4xx, unreachable 503). */
async function callRegistry<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw registryFailure(error)
  }
}

/**
 * A DS record the customer gives for a domain whose zone is signed where it is hosted (issue 28,
 * item 16): checked as RFC 4034 and 8624 say (common/ds.ts), then sent to the registry over EPP
 * secDNS (add), then recorded on the domain with an audit entry. A domain whose zone is hosted here
 * takes its DS from the zone's DNSSEC, so it is refused one by hand; a registry-locked domain, a
 * DS it holds already, or one past the eighth, too.
 */
export async function addDs(deps: LifecycleDeps, scope: Scope, domainId: string, input: unknown): Promise<DsRecord[]> {
  requireDomainManager(scope)
  const parsed = parseDsRecord(input)
  if (!parsed.ok) throw invalid('ds.invalid', 'The DS record is not valid', parsed.errors)
  const ds = parsed.ds
  return oneAtATime(domainId, async () => {
    const domain = await dsDomain(deps, scope, domainId)
    if (domain.ds_data.some((d) => dsKey(d) === dsKey(ds))) throw invalid('ds.invalid', 'The DS record is not valid', [fieldError('digest', 'ds.duplicate', 'The domain has this DS record already')])
    if (domain.ds_data.length >= MAX_DS_RECORDS) throw refused('ds.too-many', `A domain holds at most ${MAX_DS_RECORDS} DS records: remove one first`)
    const data: DsData = { keyTag: ds.key_tag, alg: ds.alg, digestType: ds.digest_type, digest: ds.digest }
    await callRegistry(() => registryFor(deps, domain.tld).updateDomain({ name: domain.name, dsData: { add: [data] } }))
    return recordDs(deps, scope, domain, [...domain.ds_data, dsToRecord(data)], 'ds-added')
  })
}

/** Removes one DS record (`{key_tag}-{alg}-{digest_type}-{digest}`) at the registry (secDNS rem), then from the domain, audited. */
export async function removeDs(deps: LifecycleDeps, scope: Scope, domainId: string, key: string): Promise<DsRecord[]> {
  requireDomainManager(scope)
  return oneAtATime(domainId, async () => {
    const domain = await dsDomain(deps, scope, domainId)
    const found = domain.ds_data.find((d) => dsKey(d) === key.toUpperCase())
    if (!found) throw notFound('The domain has no such DS record')
    const data: DsData = { keyTag: found.key_tag, alg: found.alg, digestType: found.digest_type, digest: found.digest }
    await callRegistry(() => registryFor(deps, domain.tld).updateDomain({ name: domain.name, dsData: { rem: [data] } }))
    return recordDs(
      deps,
      scope,
      domain,
      domain.ds_data.filter((d) => d !== found),
      'ds-removed',
    )
  })
}

/** The domain whose DS is changed by hand: in reach, not locked at the registry, its zone not hosted here. */
async function dsDomain(deps: LifecycleDeps, scope: Scope, domainId: string) {
  const domain = await findDomain(deps.db, scope, domainId)
  const zone = await liveZoneOfDomain(deps.db, domain.id)
  if (zone) throw refused('ds.zone-here', `The zone of ${domain.name} is hosted here: its DS records follow the zone's DNSSEC (sign or unsign it on this tab)`)
  refuseWhileLocked(domain, { touchesRegistryRecord: true })
  return domain
}

async function recordDs(deps: LifecycleDeps, scope: Scope, domain: { id: string; account_id: string; ds_data: DsRecord[] }, records: DsRecord[], action: 'ds-added' | 'ds-removed') {
  await change(deps.db, scope, async (tx, audit) => {
    await updateVersioned(tx, 'domains', domain.id, null, { ds_data: JSON.stringify(records), dnssec: records.length > 0 }, { accountId: domain.account_id, label: 'domain' })
    await audit.record({ area: 'domains', entityType: 'domain', entityId: domain.id, accountId: domain.account_id, action, before: { ds_data: domain.ds_data }, after: { ds_data: records } })
  })
  return records
}
