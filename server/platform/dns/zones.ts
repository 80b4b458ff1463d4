import { CompiledQuery, sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { DnsZone } from '#server/db/schema-dns.ts'
import { auditWriter, change, txRunner, type Audit, type Tx } from '#server/platform/core/change.ts'
import { badRequest, conflict, notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { powerDnsFromEnv, type PowerDnsSettings } from '#server/integrations/powerdns/client.ts'
import { checkName, NameError } from './names.ts'

/** DNS zones: creating one (with its managed SOA and NS), reading, deleting, and what every zone write shares. */

export const DNS_JOBS = {
  publish: 'dns.publish',
  sign: 'dns.dnssec-sign',
  removeDs: 'dns.dnssec-remove-ds',
  unsign: 'dns.dnssec-unsign',
  unpublish: 'dns.unpublish',
  driftSweep: 'dns.drift-sweep',
} as const

export const DEFAULT_NAMESERVERS = ['ns1.registrar.example', 'ns2.registrar.example']
export const DEFAULT_TTL = 3600

/** A raw statement with its parameters, for the SQL Kysely does not build (COPY, staging, the export's lines). */
export async function run<T = unknown>(tx: Tx | Kysely<DB>, text: string, params: unknown[] = []): Promise<T[]> {
  return (await tx.executeQuery(CompiledQuery.raw(text, params))).rows as T[]
}

/** PowerDNS settings: given explicitly (tests, dev:dns) or from POWERDNS_API_URL/KEY. */
export function powerDnsSettings(deps: Pick<PlatformDeps, 'powerdns' | 'config'>): PowerDnsSettings | undefined {
  return deps.powerdns ?? powerDnsFromEnv(deps.config)
}

export const nameserversOf = (deps: Pick<PlatformDeps, 'powerdns' | 'config'>) => powerDnsSettings(deps)?.nameservers ?? DEFAULT_NAMESERVERS

/** YYYYMMDDnn serials (RFC 1912 §2.2): the next one after `current` on this day. */
export function nextSerial(current: number, now: Date): number {
  const base = Number(now.toISOString().slice(0, 10).replace(/-/g, '')) * 100
  return Math.max(current + 1, base + 1)
}

export const soaContent = (zone: string, serial: number, primary: string) => `${primary}. hostmaster.${zone}. ${serial} 10800 3600 604800 3600`

export type ZoneView = ReturnType<typeof zoneView>

/** A zone as the API shows it: `published` is true when PowerDNS serves the current serial. */
export function zoneView(zone: DnsZone, deps: Pick<PlatformDeps, 'powerdns' | 'config'>) {
  return {
    id: zone.id,
    name: zone.name,
    domain_id: zone.domain_id,
    kind: zone.kind,
    serial: zone.serial,
    publish_state: zone.publish_state,
    published: zone.publish_state === 'published' && zone.published_serial === zone.serial,
    published_serial: zone.published_serial,
    published_at: zone.published_at?.toISOString() ?? null,
    last_error: zone.last_error,
    powerdns_configured: Boolean(powerDnsSettings(deps)),
    dnssec_state: zone.dnssec_state,
    ds_records: zone.ds_records,
    drift: zone.drift,
    drift_checked_at: zone.drift_checked_at?.toISOString() ?? null,
    version: zone.version,
    created_at: zone.created_at.toISOString(),
    updated_at: zone.updated_at.toISOString(),
  }
}

export function requireAccount(scope: Scope): string {
  if (!scope.accountId) throw badRequest('An account is required')
  return scope.accountId
}

/** The zone in the scope's account; another account's zone is a 404 like a missing one. */
export async function getZone(db: Kysely<DB> | Tx, scope: Scope, zoneId: string, forUpdate = false): Promise<DnsZone> {
  const accountId = requireAccount(scope)
  if (!/^[0-9a-f-]{36}$/i.test(zoneId)) throw notFound('Zone not found')
  let query = db.selectFrom('dns_zones').selectAll().where('id', '=', zoneId).where('account_id', '=', accountId)
  if (forUpdate) query = query.forUpdate()
  const zone = await query.executeTakeFirst()
  if (!zone) throw notFound('Zone not found')
  return zone
}

export async function queuePublish(deps: Pick<PlatformDeps, 'jobs'>, tx: Tx, zoneId: string) {
  await deps.jobs.send(DNS_JOBS.publish, { zoneId }, { runner: txRunner(tx), retryLimit: 10 })
}

/** Creates a zone with a managed SOA and NS records, and queues its first publish. */
export async function createZone(deps: PlatformDeps, scope: Scope, input: { name?: string; domain_id?: string | null }): Promise<DnsZone> {
  const accountId = requireAccount(scope)
  let given = input.name?.trim()
  if (!given && input.domain_id) {
    // A domain's zone takes the domain's name: the DNS tab creates it with the domain id alone.
    const domain = await deps.db.selectFrom('domains').select('name').where('id', '=', input.domain_id).where('account_id', '=', accountId).executeTakeFirst()
    if (!domain) throw notFound('Domain not found')
    given = domain.name
  }
  if (!given) throw badRequest('The zone name is not valid', [{ field: 'name', message: 'a name or a domain_id is required' }])
  let name: string
  try {
    name = checkName(given.replace(/\.$/, ''), 'host')
  } catch (error) {
    if (error instanceof NameError) throw badRequest('The zone name is not valid', [{ field: 'name', message: error.message }])
    throw error
  }
  if (!name.includes('.')) throw badRequest('The zone name is not valid', [{ field: 'name', message: 'a zone needs at least two labels' }])
  return change(deps.db, scope, async (tx, audit) => {
    if (input.domain_id) {
      const domain = await tx.selectFrom('domains').select(['id', 'name']).where('id', '=', input.domain_id).where('account_id', '=', accountId).executeTakeFirst()
      if (!domain) throw notFound('Domain not found')
      if (domain.name !== name) throw badRequest('The zone must have the domain name', [{ field: 'name', message: `the domain is ${domain.name}` }])
    }
    const existing = await tx.selectFrom('dns_zones').select('id').where('name', '=', name).executeTakeFirst()
    if (existing) throw conflict(`A zone for ${name} already exists`)
    return insertZone(deps, tx, audit, accountId, name, input.domain_id ?? null)
  })
}

/** The zone row, its managed SOA and NS, the audit entry and the first publish, in `tx`. */
async function insertZone(deps: ZoneDeps, tx: Tx, audit: Audit, accountId: string, name: string, domainId: string | null): Promise<DnsZone> {
  const serial = nextSerial(0, deps.now())
  const zone = await tx
    .insertInto('dns_zones')
    .values({ account_id: accountId, domain_id: domainId, name, serial, published_serial: null, published_at: null, last_error: null, drift: null, drift_checked_at: null })
    .returningAll()
    .executeTakeFirstOrThrow()
  const nameservers = nameserversOf(deps)
  await tx
    .insertInto('dns_records')
    .values([
      { zone_id: zone.id, account_id: accountId, name, type: 'SOA', ttl: DEFAULT_TTL, content: soaContent(name, serial, nameservers[0]!), priority: null },
      ...nameservers.map((ns) => ({ zone_id: zone.id, account_id: accountId, name, type: 'NS', ttl: DEFAULT_TTL, content: `${ns}.`, priority: null })),
    ])
    .execute()
  await audit.record({ area: 'dns', entityType: 'dns_zone', entityId: zone.id, action: 'create', after: { name, domain_id: zone.domain_id, serial } })
  await queuePublish(deps, tx, zone.id)
  return zone
}

export type ZoneDeps = Pick<PlatformDeps, 'jobs' | 'now' | 'powerdns' | 'config'>

/**
 * For the domains code: makes sure the domain has its zone, inside the caller's transaction
 * (a domain created or added "with DNS"). Idempotent: the domain's zone if it has one; a
 * standalone zone of the same name in the same account is attached to the domain; otherwise a
 * new zone with managed SOA and NS, queued for publishing. A zone of that name in another
 * account is a conflict (PowerDNS serves one namespace).
 */
export async function ensureZoneForDomain(tx: Tx, scope: Scope, domainId: string, deps: ZoneDeps): Promise<DnsZone> {
  const accountId = requireAccount(scope)
  const domain = await tx.selectFrom('domains').select(['id', 'name']).where('id', '=', domainId).where('account_id', '=', accountId).executeTakeFirst()
  if (!domain) throw notFound('Domain not found')
  const audit = auditWriter(tx, scope)
  const own = await tx.selectFrom('dns_zones').selectAll().where('domain_id', '=', domain.id).executeTakeFirst()
  if (own) return own
  const name = domain.name.toLowerCase().replace(/\.$/, '')
  const same = await tx.selectFrom('dns_zones').selectAll().where('name', '=', name).forUpdate().executeTakeFirst()
  if (same && same.account_id !== accountId) throw conflict(`A zone for ${name} already exists`)
  if (same) {
    const linked = await tx
      .updateTable('dns_zones')
      .set({ domain_id: domain.id, version: sql<number>`version + 1`, updated_at: deps.now() })
      .where('id', '=', same.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'dns', entityType: 'dns_zone', entityId: same.id, action: 'attach-domain', before: { domain_id: null }, after: { domain_id: domain.id } })
    return linked
  }
  return insertZone(deps, tx, audit, accountId, name, domain.id)
}

/**
 * Deletes a zone: its records, statistics and publish state go with it (the DNS log stays in the
 * audit trail), and a job removes it from PowerDNS. A zone with DNSSEC on (or on its way on or off)
 * is refused: the parent would keep a DS for keys that no longer exist and validating resolvers
 * would fail the domain — DNSSEC is turned off first, in its safe order.
 */
export async function deleteZone(deps: PlatformDeps, scope: Scope, zoneId: string): Promise<void> {
  await change(deps.db, scope, async (tx, audit) => {
    const zone = await getZone(tx, scope, zoneId, true)
    if (zone.dnssec_state !== 'unsigned') throw conflict(`DNSSEC is ${zone.dnssec_state}: turn it off before deleting the zone`)
    const counted = await tx
      .selectFrom('dns_records')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('zone_id', '=', zone.id)
      .executeTakeFirst()
    await tx.deleteFrom('dns_zones').where('id', '=', zone.id).execute()
    await audit.record({
      area: 'dns',
      entityType: 'dns_zone',
      entityId: zone.id,
      action: 'delete',
      before: { name: zone.name, serial: zone.serial, records: counted?.n ?? 0, domain_id: zone.domain_id },
    })
    // Only where PowerDNS is configured: without it nothing was ever published.
    if (powerDnsSettings(deps)) await deps.jobs.send(DNS_JOBS.unpublish, { name: zone.name }, { runner: txRunner(tx), retryLimit: 10 })
  })
}
