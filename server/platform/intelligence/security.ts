import type { Kysely } from 'kysely'
import { isZoneFix, measuresOf, scoreOf, zoneFixRecord, type Measure, type MeasureResult } from '#common/intelligence.ts'
import type { DB } from '#server/db/schema.ts'
import type { IntelligenceItem } from '#server/db/schema-intelligence.ts'
import { change } from '#server/platform/core/change.ts'
import { fieldError, invalid, notFound, refused } from '#server/platform/core/errors.ts'
import { requirePermission, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { applyChangeSet } from '#server/platform/dns/service.ts'
import { zoneMailPosture } from '#server/platform/dns/reads.ts'
import { liveDomainsOf } from '#server/platform/domains/reads.ts'
import { AREA, itemOf } from './service.ts'

/**
 * The security score (issue 32): per domain of the brand that we hold, the measures of `common/
 * intelligence.ts` read from data already here — the domain's registry flags and name servers, its
 * zone's records when we host it (two statements for any number of domains: `bench/intelligence-score.ts`)
 * — with the published weights; the brand's score is the mean of its domains'.
 */

export type DomainScore = {
  id: string
  name: string
  zone_id: string | null
  mx: boolean
  measures: Record<Measure, MeasureResult>
  score: number
}

/** The brand's domains we hold: the item account's live domains whose label holds a brand string, or that the item names. */
function brandDomains(db: Kysely<DB>, item: Pick<IntelligenceItem, 'account_id' | 'brand' | 'strings' | 'known_domains'>) {
  const strings = [item.brand, ...item.strings].map((s) => s.replace(/[\\%_]/g, (c) => `\\${c}`))
  return liveDomainsOf(db, item.account_id)
    .select(['domains.id', 'domains.name', 'domains.registry_lock', 'domains.dnssec', 'domains.nameservers'])
    .where((eb) => eb.or([...strings.map((s) => eb('domains.name', 'like', `%${s}%`)), ...(item.known_domains.length ? [eb('domains.name', 'in', item.known_domains)] : [])]))
}

/** Every domain's measures and score, ordered by score (worst first) then name. */
export async function domainScores(db: Kysely<DB>, item: Pick<IntelligenceItem, 'account_id' | 'brand' | 'strings' | 'known_domains'>): Promise<DomainScore[]> {
  const domains = await brandDomains(db, item).execute()
  const zones = new Map(
    (
      await zoneMailPosture(
        db,
        item.account_id,
        domains.map((d) => d.name),
      )
    ).map((z) => [z.zone, z]),
  )
  return domains
    .map((d) => {
      const z = zones.get(d.name) ?? null
      const measures = measuresOf({
        registry_lock: d.registry_lock,
        dnssec: d.dnssec,
        nameservers: d.nameservers.length,
        held_here: true,
        zone: z ? { caa: z.caa, spf: z.spf, dmarc: z.dmarc, dkim: z.dkim, mta_sts: z.mta_sts, mx: z.mx } : null,
      })
      return { id: d.id, name: d.name, zone_id: z?.zone_id ?? null, mx: z?.mx ?? false, measures, score: scoreOf(measures) }
    })
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
}

/** The brand's score: the mean of its domains' (null when we hold none of its domains). */
export async function brandScore(db: Kysely<DB>, item: Pick<IntelligenceItem, 'account_id' | 'brand' | 'strings' | 'known_domains'>) {
  const scores = await domainScores(db, item)
  return { domains: scores.length, score: scores.length ? Math.round(scores.reduce((sum, d) => sum + d.score, 0) / scores.length) : null }
}

/** The item's security: the brand's score and each domain's measures (at most `limit` domains shown, worst first). */
export async function securityOf(db: Kysely<DB>, scope: Scope, id: string, limit = 500) {
  const item = await itemOf(db, scope, id)
  const scores = await domainScores(db, item)
  const score = scores.length ? Math.round(scores.reduce((sum, d) => sum + d.score, 0) / scores.length) : null
  return { item, score, total: scores.length, domains: scores.slice(0, limit) }
}

/**
 * Applies one failing point's fix to a domain of the item that we host: a CAA, SPF, DMARC or DKIM
 * record added to its zone through the DNS service (the person's own DNS permission, its audit and
 * its publishing). Registry lock and DS go the domain's own ways (its screens, the material-change
 * approval where the spec asks it): the screen links there, and this answers 400 for them.
 */
export async function applyFix(deps: PlatformDeps, scope: Scope, id: string, domainId: string, measure: string) {
  requirePermission(scope.actor, 'prospect-manager')
  const item = await itemOf(deps.db, scope, id)
  if (!isZoneFix(measure)) throw invalid('intelligence.fix-unknown', `${measure} has no fix here`, [fieldError('measure', 'intelligence.fix-unknown', `${measure} has no fix here`)])
  const scores = await domainScores(deps.db, item)
  const domain = scores.find((d) => d.id === domainId)
  if (!domain) throw notFound('Domain not found')
  if (!domain.zone_id) throw refused('intelligence.fix-not-hosted', `${domain.name}'s zone is not hosted here: the record is added where it is hosted`)
  if (domain.measures[measure] === 'pass') return { domain: domain.name, measure, added: null }
  const caIdentity = deps.ssl?.acme?.caaIdentities?.[0] ?? 'letsencrypt.org'
  const record = zoneFixRecord(measure, { mx: domain.mx, caIdentity })
  if (!record) throw refused('intelligence.fix-needs-provider', `${domain.name} takes mail: its DKIM key comes from its mail provider`)
  const scoped: Scope = { ...scope, accountId: item.account_id }
  await applyChangeSet(deps, scoped, domain.zone_id, { changes: [{ action: 'add', name: record.name, type: record.type, content: record.content }] })
  await change(deps.db, scoped, async (_tx, audit) => {
    await audit.record({
      area: AREA,
      entityType: 'intelligence-item',
      entityId: item.id,
      action: 'fix',
      after: { domain: domain.name, measure, record: `${record.name} ${record.type} ${record.content}` },
    })
  })
  return { domain: domain.name, measure, added: `${record.name} ${record.type} ${record.content}` }
}
