import { CompiledQuery, sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { DnsZone } from '#server/db/schema-dns.ts'
import { auditWriter, change, txRunner, type Audit, type Tx } from '#server/platform/core/change.ts'
import { badRequest, conflict, fieldError, forbidden, invalid, notFound, refused } from '#server/platform/core/errors.ts'
import { isStaff, type Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { powerDnsFromEnv, type PowerDnsSettings } from '#server/integrations/powerdns/client.ts'
import { checkName, NameError } from './names.ts'
import { foreignHolders, isLive, lockNames, lookupTxt, newProofToken, portfolioCovers, proofRecordName, type Holder } from './control.ts'
import { domainOfAccount } from '#server/platform/domains/reads.ts'

/** DNS zones: creating one (with its managed SOA and NS), reading, deleting, and what every zone write shares. */

export const DNS_JOBS = {
  publish: 'dns.publish',
  sign: 'dns.dnssec-sign',
  removeDs: 'dns.dnssec-remove-ds',
  unsign: 'dns.dnssec-unsign',
  unpublish: 'dns.unpublish',
  driftSweep: 'dns.drift-sweep',
  postureRollup: 'dns.posture-rollup',
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
    control: zone.control,
    verified: isLive(zone),
    verified_at: zone.verified_at?.toISOString() ?? null,
    // While the proof is awaited: the record to add where the name is hosted now.
    proof: isLive(zone) || !zone.proof_token ? null : { name: proofRecordName(zone.name), type: 'TXT' as const, value: zone.proof_token },
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

/** Queues the zone's publish, in `tx`; a zone waiting for its proof of control is never published. */
export async function queuePublish(deps: Pick<PlatformDeps, 'jobs'>, tx: Tx, zoneId: string, known?: { verified_at: Date | null }) {
  // The zone as the caller holds it (read under its lock), or read now.
  const zone = known ?? (await tx.selectFrom('dns_zones').select('verified_at').where('id', '=', zoneId).executeTakeFirst())
  if (!zone || !isLive(zone)) return
  await deps.jobs.send(DNS_JOBS.publish, { zoneId }, { runner: txRunner(tx), retryLimit: 10 })
}

const nameInvalid = (message: string) => invalid('dns.zone-name-invalid', 'The zone name is not valid', [fieldError('name', 'dns.zone-name-invalid', message)])

/** 409 when another account holds the name, a name above it or one below it (a domain, or a live zone). */
function refuseHeld(name: string, held: Holder[]): void {
  if (!held.length) return
  const message = `${name} is at, inside or above a domain or zone of another account: it is theirs to host`
  throw refused('dns.zone-name-held', message, [fieldError('name', 'dns.zone-name-held', message)])
}

/** Creates a zone with a managed SOA and NS records, and queues its first publish. */
export async function createZone(deps: PlatformDeps, scope: Scope, input: { name?: string; domain_id?: string | null }): Promise<DnsZone> {
  const accountId = requireAccount(scope)
  let given = input.name?.trim()
  if (!given && input.domain_id) {
    // A domain's zone takes the domain's name: the DNS tab creates it with the domain id alone.
    const domain = await domainOfAccount(deps.db, accountId, input.domain_id).select('name').executeTakeFirst()
    if (!domain) throw notFound('Domain not found')
    given = domain.name
  }
  if (!given) throw invalid('field.required', 'The zone name is not valid', [fieldError('name', 'field.required', 'a name or a domain_id is required')])
  let name: string
  try {
    name = checkName(given.replace(/\.$/, ''), 'host')
  } catch (error) {
    if (error instanceof NameError) throw nameInvalid(error.message)
    throw error
  }
  if (!name.includes('.')) throw nameInvalid('a zone needs at least two labels')
  return change(deps.db, scope, async (tx, audit) => {
    await lockNames(tx)
    if (input.domain_id) {
      const domain = await domainOfAccount(tx, accountId, input.domain_id).select(['id', 'name']).executeTakeFirst()
      if (!domain) throw notFound('Domain not found')
      if (domain.name !== name) throw badRequest('The zone must have the domain name', [{ field: 'name', message: `the domain is ${domain.name}` }])
    }
    const existing = await tx.selectFrom('dns_zones').select('id').where('account_id', '=', accountId).where('name', '=', name).executeTakeFirst()
    if (existing) throw refused('dns.zone-exists', `A zone for ${name} already exists`, [fieldError('name', 'dns.zone-exists', `A zone for ${name} already exists`)])
    // Never at, inside or above another account's domain or zone — for staff too, acting in this account.
    refuseHeld(name, await foreignHolders(tx, accountId, name))
    // A domain of the portfolio (or a name under it, or under a live zone of the account) needs no proof; any other name waits for one.
    const covered = Boolean(input.domain_id) || (await portfolioCovers(tx, accountId, name))
    return insertZone(deps, tx, audit, accountId, name, input.domain_id ?? null, covered ? 'portfolio' : 'proof')
  })
}

/**
 * Checks the proof of control of a zone waiting for it — the TXT record `_registrar-portal-challenge.<name>`
 * holding the zone's token, looked up in the DNS (`lookupTxt`) — and makes the zone live: its
 * name held, its first publish queued. Staff may confirm the proof themselves (`staff: true`: the
 * customer proved control another way; audited as such). Either way the name must still be no
 * other account's. A live zone is answered as it is.
 */
export async function verifyZone(deps: PlatformDeps, scope: Scope, zoneId: string, input: { staff?: boolean } = {}): Promise<DnsZone> {
  const accountId = requireAccount(scope)
  const zone = await getZone(deps.db, scope, zoneId)
  if (isLive(zone)) return zone
  if (input.staff && !isStaff(scope.actor)) throw forbidden('Only staff may confirm a proof of control')
  if (!input.staff) {
    const record = proofRecordName(zone.name)
    const found = await lookupTxt(deps, record)
    if (!zone.proof_token || !found.includes(zone.proof_token)) {
      const message = `No TXT record ${record} with the zone's token was found: add it where ${zone.name} is hosted now, then check again`
      throw refused('dns.zone-proof-missing', message, [fieldError('name', 'dns.zone-proof-missing', message)], { record: { name: record, type: 'TXT', value: zone.proof_token } })
    }
  }
  return change(deps.db, scope, async (tx, audit) => {
    await lockNames(tx)
    const current = await getZone(tx, scope, zoneId, true)
    if (isLive(current)) return current
    refuseHeld(current.name, await foreignHolders(tx, accountId, current.name))
    const verified = await tx
      .updateTable('dns_zones')
      .set({ verified_at: deps.now(), version: sql<number>`version + 1`, updated_at: deps.now() })
      .where('id', '=', current.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({
      area: 'dns',
      entityType: 'dns_zone',
      entityId: current.id,
      action: 'verify',
      before: { verified_at: null },
      after: { verified_at: verified.verified_at, by: input.staff ? 'staff' : 'dns' },
    })
    await queuePublish(deps, tx, current.id)
    return verified
  })
}

/** The zone row, its managed SOA and NS, the audit entry and the first publish, in `tx`. */
async function insertZone(deps: ZoneDeps, tx: Tx, audit: Audit, accountId: string, name: string, domainId: string | null, control: 'portfolio' | 'proof'): Promise<DnsZone> {
  const serial = nextSerial(0, deps.now())
  const proof = control === 'proof'
  const zone = await tx
    .insertInto('dns_zones')
    .values({
      account_id: accountId,
      domain_id: domainId,
      name,
      serial,
      published_serial: null,
      published_at: null,
      last_error: null,
      drift: null,
      drift_checked_at: null,
      control,
      proof_token: proof ? newProofToken() : null,
      verified_at: proof ? null : deps.now(),
    })
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
  await audit.record({ area: 'dns', entityType: 'dns_zone', entityId: zone.id, action: 'create', after: { name, domain_id: zone.domain_id, serial, control, verified: !proof } })
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
  const domain = await domainOfAccount(tx, accountId, domainId).select(['id', 'name']).executeTakeFirst()
  if (!domain) throw notFound('Domain not found')
  const audit = auditWriter(tx, scope)
  const own = await tx.selectFrom('dns_zones').selectAll().where('domain_id', '=', domain.id).executeTakeFirst()
  if (own) return own
  const name = domain.name.toLowerCase().replace(/\.$/, '')
  await lockNames(tx)
  // Another account's live zone at, inside or above the domain: PowerDNS serves one namespace.
  if ((await foreignHolders(tx, accountId, name)).some((h) => h.kind === 'zone')) throw conflict(`A zone for ${name} or a name of it already exists in another account`)
  const same = await tx.selectFrom('dns_zones').selectAll().where('account_id', '=', accountId).where('name', '=', name).forUpdate().executeTakeFirst()
  if (same) {
    // The account's own zone of the name, waiting for a proof or not: the domain is the proof now.
    const linked = await tx
      .updateTable('dns_zones')
      .set({ domain_id: domain.id, control: 'portfolio', verified_at: same.verified_at ?? deps.now(), version: sql<number>`version + 1`, updated_at: deps.now() })
      .where('id', '=', same.id)
      .returningAll()
      .executeTakeFirstOrThrow()
    await audit.record({ area: 'dns', entityType: 'dns_zone', entityId: same.id, action: 'attach-domain', before: { domain_id: null }, after: { domain_id: domain.id } })
    if (!same.verified_at) await queuePublish(deps, tx, same.id)
    return linked
  }
  return insertZone(deps, tx, audit, accountId, name, domain.id, 'portfolio')
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
    if (powerDnsSettings(deps) && isLive(zone)) await deps.jobs.send(DNS_JOBS.unpublish, { name: zone.name }, { runner: txRunner(tx), retryLimit: 10 })
  })
}
