import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { zoneQueriesSince } from '#server/platform/dns/reads.ts'
import { certificatesNaming } from '#server/platform/ssl/reads.ts'
import { domainScores } from './security.ts'
import { itemOf } from './service.ts'

/**
 * The focus screens of an item (issue 32), read live from what we hold: the certificates we keep
 * for the brand's names (SSL focus), and the queries our PowerDNS answered for the brand's zones
 * we host over the last 30 days, from the sampled statistics of decision 202 (traffic focus).
 * Certificate Transparency, HTTPS probes and NXDOMAIN counts are not read yet (decision 033).
 */

const DAY = 86_400_000

export async function sslFocus(db: Kysely<DB>, scope: Scope, id: string, now: Date) {
  const item = await itemOf(db, scope, id)
  const domains = await domainScores(db, item)
  const hosts = domains.flatMap((d) => [d.name, `www.${d.name}`])
  const certificates = await certificatesNaming(db, item.account_id, hosts)
  const soon = new Date(now.getTime() + 30 * DAY)
  const covered = new Set(certificates.filter((c) => c.valid).flatMap((c) => c.names))
  return {
    item,
    certificates: certificates.map((c) => ({
      id: c.id,
      common_name: c.common_name,
      names: c.names,
      status: c.status,
      ca: c.ca,
      key_type: c.key_type,
      origin: c.origin,
      not_after: c.not_after?.toISOString() ?? null,
      valid: c.valid,
      expiring: !!(c.valid && c.not_after && c.not_after < soon),
      wildcard: c.names.some((n) => n.startsWith('*.')),
    })),
    uncovered: domains.filter((d) => !covered.has(d.name) && !covered.has(`*.${d.name.slice(d.name.indexOf('.') + 1)}`)).map((d) => d.name),
  }
}

export async function trafficFocus(db: Kysely<DB>, scope: Scope, id: string, now: Date) {
  const item = await itemOf(db, scope, id)
  const domains = await domainScores(db, item)
  const hosted = domains.filter((d) => d.zone_id)
  const queries = await zoneQueriesSince(
    db,
    hosted.map((d) => d.zone_id!),
    new Date(now.getTime() - 30 * DAY),
  )
  const rows = hosted.map((d) => ({ domain_id: d.id, name: d.name, queries: queries.get(d.zone_id!) ?? 0 })).sort((a, b) => b.queries - a.queries || a.name.localeCompare(b.name))
  return { item, hosted: hosted.length, not_hosted: domains.length - hosted.length, rows }
}
