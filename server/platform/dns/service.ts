import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { from as copyFrom, to as copyTo } from 'pg-copy-streams'
import { CompiledQuery, sql, type Kysely } from 'kysely'
import { BinaryCopyWriter, uuidBytes } from '#server/db/copy-binary.ts'
import { leaseConnection, type Database } from '#server/db/database.ts'
import type { DB } from '#server/db/schema.ts'
import type { DnsRecord, DnsZone } from '#server/db/schema-dns.ts'
import { auditWriter, change, txRunner, type Audit, type Tx } from '#server/platform/core/change.ts'
import { badRequest, conflict, notFound, type FieldError } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { powerDnsFromEnv, type PowerDnsSettings } from '#server/integrations/powerdns/client.ts'
import { KeySet } from './key-set.ts'
import { checkName, inZone, NameError, resolveName } from './names.ts'
import { isRecordType, parseRdata, RdataError, type RecordType } from './rdata.ts'
import { parseZoneBatches, TTL_POLICY, tokenizeRdata, ZoneChecker, type ZoneIssue } from './zone-parser.ts'

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

/** PowerDNS settings: given explicitly (tests, dev:dns) or from POWERDNS_API_URL/KEY. */
export function powerDnsSettings(deps: Pick<PlatformDeps, 'powerdns' | 'config'>): PowerDnsSettings | undefined {
  return deps.powerdns ?? powerDnsFromEnv(deps.config)
}

const nameserversOf = (deps: Pick<PlatformDeps, 'powerdns' | 'config'>) => powerDnsSettings(deps)?.nameservers ?? DEFAULT_NAMESERVERS

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

function requireAccount(scope: Scope): string {
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

async function queuePublish(deps: Pick<PlatformDeps, 'jobs'>, tx: Tx, zoneId: string) {
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

type ZoneDeps = Pick<PlatformDeps, 'jobs' | 'now' | 'powerdns' | 'config'>

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
    const linked = await tx.updateTable('dns_zones').set({ domain_id: domain.id, version: sql<number>`version + 1`, updated_at: deps.now() }).where('id', '=', same.id).returningAll().executeTakeFirstOrThrow()
    await audit.record({ area: 'dns', entityType: 'dns_zone', entityId: same.id, action: 'attach-domain', before: { domain_id: null }, after: { domain_id: domain.id } })
    return linked
  }
  return insertZone(deps, tx, audit, accountId, name, domain.id)
}

// --- change sets ---------------------------------------------------------------------------

export type RecordInput = { name: string; type: string; ttl?: number; content: string }
export type Change =
  | ({ action: 'add' } & RecordInput)
  | ({ action: 'update'; id: string } & Partial<RecordInput>)
  | { action: 'delete'; id: string }

export type RecordValue = { name: string; type: RecordType; ttl: number; content: string; priority: number | null }
export type RecordDiff = {
  added: RecordValue[]
  updated: { id: string; before: RecordValue; after: RecordValue }[]
  removed: (RecordValue & { id: string })[]
}

/** Validates one record as typed in a form; errors name the field under `prefix`. */
export function validateRecord(zone: string, input: RecordInput, prefix: string, errors: FieldError[]): RecordValue | null {
  const before = errors.length
  let name = ''
  try {
    name = resolveName(input.name.trim() === '' ? '@' : input.name.trim(), zone, 'owner')
    if (!inZone(name, zone)) errors.push({ field: `${prefix}.name`, message: `${name} is outside the zone ${zone}` })
  } catch (error) {
    if (!(error instanceof NameError)) throw error
    errors.push({ field: `${prefix}.name`, message: error.message })
  }
  const type = input.type.toUpperCase()
  if (!isRecordType(type) || type === 'SOA') {
    errors.push({ field: `${prefix}.type`, message: type === 'SOA' ? 'the SOA record is managed by the portal' : `record type '${input.type}' is not supported` })
    return null
  }
  const ttl = input.ttl ?? DEFAULT_TTL
  if (!Number.isInteger(ttl) || ttl < TTL_POLICY.min || ttl > TTL_POLICY.max) {
    errors.push({ field: `${prefix}.ttl`, message: `TTL must be between ${TTL_POLICY.min} and ${TTL_POLICY.max} seconds` })
  }
  const { tokens, error } = tokenizeRdata(input.content)
  if (error) {
    errors.push({ field: `${prefix}.content`, message: `column ${error.column}: ${error.message}` })
    return null
  }
  try {
    const rdata = parseRdata(type, tokens, zone)
    if (errors.length > before) return null
    return { name, type, ttl, content: rdata.content, priority: rdata.priority }
  } catch (e) {
    if (!(e instanceof RdataError)) throw e
    errors.push({ field: `${prefix}.content`, message: e.column ? `column ${e.column}: ${e.message}` : e.message })
    return null
  }
}

const rrKey = (r: { name: string; type: string; content: string }) => `${r.name}\t${r.type}\t${r.content}`
const rrsetKey = (r: { name: string; type: string }) => `${r.name}\t${r.type}`
const valueOf = (r: DnsRecord): RecordValue => ({ name: r.name, type: r.type as RecordType, ttl: r.ttl, content: r.content, priority: r.priority })

/**
 * Applies adds, updates and deletes of many records as one change: all valid or nothing.
 * With `dry_run` it answers the diff it would apply and writes nothing.
 */
export async function applyChangeSet(deps: PlatformDeps, scope: Scope, zoneId: string, input: { changes: Change[]; dry_run?: boolean }) {
  const accountId = requireAccount(scope)
  const run = async (tx: Tx, audit: Parameters<Parameters<typeof change>[2]>[1] | null) => {
    const zone = await getZone(tx, scope, zoneId, !input.dry_run)
    const current = await tx.selectFrom('dns_records').selectAll().where('zone_id', '=', zone.id).execute()
    const byId = new Map(current.map((r) => [r.id, r]))
    const next = new Map<string, RecordValue>(current.map((r) => [r.id, valueOf(r)]))
    const errors: FieldError[] = []
    const diff: RecordDiff = { added: [], updated: [], removed: [] }
    input.changes.forEach((c, i) => {
      const prefix = `changes.${i}`
      if (c.action === 'add') {
        const value = validateRecord(zone.name, c, prefix, errors)
        if (value) {
          next.set(`new:${i}`, value)
          diff.added.push(value)
        }
        return
      }
      const existing = byId.get(c.id)
      if (!existing || !next.has(c.id)) {
        errors.push({ field: `${prefix}.id`, message: existing ? 'this record is changed twice in the change set' : 'no such record in this zone' })
        return
      }
      if (existing.type === 'SOA') {
        errors.push({ field: `${prefix}.id`, message: 'the SOA record is managed by the portal' })
        return
      }
      if (c.action === 'delete') {
        next.delete(c.id)
        diff.removed.push({ id: c.id, ...valueOf(existing) })
        return
      }
      const merged: RecordInput = {
        name: c.name ?? `${existing.name}.`,
        type: c.type ?? existing.type,
        ttl: c.ttl ?? existing.ttl,
        content: c.content ?? existing.content,
      }
      const value = validateRecord(zone.name, merged, prefix, errors)
      if (value) {
        next.delete(c.id)
        next.set(`upd:${c.id}`, value)
        diff.updated.push({ id: c.id, before: valueOf(existing), after: value })
      }
    })
    oneTtlPerRrset(input.changes, next, byId, diff, errors)
    // Zone-wide rules over the zone as it would be after the change.
    const checker = new ZoneChecker(zone.name)
    const seen = new Set<string>()
    let apexNs = 0
    for (const [key, value] of next) {
      const problem = checker.check(value)
      const field = key.startsWith('new:') ? `changes.${key.slice(4)}` : key.startsWith('upd:') ? `changes.${input.changes.findIndex((c) => c.action === 'update' && c.id === key.slice(4))}` : 'changes'
      if (problem) errors.push({ field, message: problem })
      const k = rrKey(value)
      if (seen.has(k)) errors.push({ field, message: `${value.name} ${value.type} ${value.content} is already in the zone` })
      seen.add(k)
      if (value.type === 'NS' && value.name === zone.name) apexNs++
    }
    if (apexNs === 0) errors.push({ field: 'changes', message: 'the zone needs at least one NS record at its apex' })
    if (errors.length) throw badRequest('The change set is not valid', errors)
    if (input.dry_run || !audit) return { zone, diff, applied: false }

    const now = deps.now()
    for (const r of diff.removed) {
      await tx.deleteFrom('dns_records').where('id', '=', r.id).execute()
      await audit.record({ area: 'dns', entityType: 'dns_record', entityId: r.id, action: 'delete', before: { zone_id: zone.id, ...r } })
    }
    for (const u of diff.updated) {
      await tx.updateTable('dns_records').set({ ...u.after, updated_at: now }).where('id', '=', u.id).execute()
      await audit.record({ area: 'dns', entityType: 'dns_record', entityId: u.id, action: 'update', before: { zone_id: zone.id, ...u.before }, after: { zone_id: zone.id, ...u.after } })
    }
    for (const a of diff.added) {
      const row = await tx.insertInto('dns_records').values({ zone_id: zone.id, account_id: accountId, ...a }).returning('id').executeTakeFirstOrThrow()
      await audit.record({ area: 'dns', entityType: 'dns_record', entityId: row.id, action: 'create', after: { zone_id: zone.id, ...a } })
    }
    // RRsets that no longer exist go to PowerDNS as deletes on the next publish.
    const remaining = new Set([...next.values()].map(rrsetKey))
    const gone = [...diff.removed, ...diff.updated.map((u) => u.before)].map(rrsetKey).filter((k) => !remaining.has(k))
    const updated = await bumpZone(deps, tx, zone, gone)
    await queuePublish(deps, tx, zone.id)
    return { zone: updated, diff, applied: true }
  }
  if (input.dry_run) return deps.db.transaction().execute((tx) => run(tx, null))
  return change(deps.db, scope, (tx, audit) => run(tx, audit))
}

/**
 * RFC 2181 §5.2: the records of an RRset (one name and type) share one TTL, and PowerDNS keeps one
 * per RRset. A TTL given in the change set becomes its RRset's TTL: the set's other records take
 * it too, each shown in the diff as an update. A record added or changed without a TTL takes its
 * set's. Two different TTLs given to one RRset in one change set are refused.
 */
function oneTtlPerRrset(changes: Change[], next: Map<string, RecordValue>, byId: Map<string, DnsRecord>, diff: RecordDiff, errors: FieldError[]) {
  const changeOf = (key: string) => (key.startsWith('new:') ? Number(key.slice(4)) : key.startsWith('upd:') ? changes.findIndex((c) => c.action === 'update' && c.id === key.slice(4)) : -1)
  const sets = new Map<string, string[]>()
  for (const [key, value] of next) {
    const k = rrsetKey(value)
    const keys = sets.get(k)
    if (keys) keys.push(key)
    else sets.set(k, [key])
  }
  for (const keys of sets.values()) {
    // Only the sets this change set touches: a set it leaves alone is left as it is.
    if (!keys.some((key) => key.startsWith('new:') || key.startsWith('upd:'))) continue
    const given = new Map<number, number>()
    const kept: number[] = []
    for (const key of keys) {
      const i = changeOf(key)
      const ttl = next.get(key)!.ttl
      const c = i >= 0 ? changes[i] : undefined
      if (c && c.action !== 'delete' && c.ttl !== undefined) {
        if (!given.has(ttl)) given.set(ttl, i)
      } else if (i < 0 || key.startsWith('upd:')) kept.push(ttl)
    }
    const value = next.get(keys[0]!)!
    if (given.size > 1) {
      const [, second] = [...given.values()]
      errors.push({ field: `changes.${second}.ttl`, message: `${value.name} ${value.type} is one record set with one TTL, and this change set gives it ${[...given.keys()].join(' and ')}: give its records the same TTL` })
      continue
    }
    // The TTL given, else the one the set has (the lowest, where older data left several), else the default.
    const ttl = given.size ? [...given.keys()][0]! : kept.length ? Math.min(...kept) : DEFAULT_TTL
    for (const key of keys) {
      const current = next.get(key)!
      if (current.ttl === ttl) continue
      if (key.startsWith('new:') || key.startsWith('upd:')) {
        // The same object as in diff.added / diff.updated[].after.
        current.ttl = ttl
        continue
      }
      const after = { ...current, ttl }
      next.set(key, after)
      diff.updated.push({ id: key, before: valueOf(byId.get(key)!), after })
    }
  }
}

/** New serial, SOA rewritten, publish pending: every saved change goes through here. */
async function bumpZone(deps: PlatformDeps, tx: Tx, zone: DnsZone, goneRrsets: string[]): Promise<DnsZone> {
  const serial = nextSerial(zone.serial, deps.now())
  const soa = await tx.selectFrom('dns_records').select(['id', 'content']).where('zone_id', '=', zone.id).where('type', '=', 'SOA').executeTakeFirst()
  const primary = soa ? soa.content.split(' ')[0]!.replace(/\.$/, '') : nameserversOf(deps)[0]!
  if (soa) await tx.updateTable('dns_records').set({ content: soaContent(zone.name, serial, primary), updated_at: deps.now() }).where('id', '=', soa.id).execute()
  return tx
    .updateTable('dns_zones')
    .set({
      serial,
      publish_state: 'pending',
      pending_deletes: sql<string[]>`ARRAY(SELECT DISTINCT unnest(pending_deletes || ${goneRrsets}::text[]))`,
      version: sql<number>`version + 1`,
      updated_at: deps.now(),
    })
    .where('id', '=', zone.id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

// --- BIND import and export ----------------------------------------------------------------

export type ImportSummary = {
  applied: boolean
  counts: { added: number; changed: number; removed: number; unchanged: number }
  added: RecordValue[]
  changed: { before: RecordValue; after: RecordValue }[]
  removed: RecordValue[]
  errors: ZoneIssue[]
  /** Lines the import adjusted (an RRset's TTL, RFC 2181 §5.2), at most MAX_ERRORS of them. */
  warnings: ZoneIssue[]
  notes: string[]
  zone?: DnsZone
}

const SAMPLE = 200
const BATCH = 10_000
const MAX_ERRORS = 1000
/** Above this many written rows the import refreshes the planner's statistics (see decision 201). */
const ANALYZE_AFTER = 10_000
/** A zone with at most this many records (SOA aside) takes an import straight into dns_records (decision 204). */
const DIRECT_MAX_CURRENT = 1000

type CurrentRecord = RecordValue & { id: string }

/**
 * Imports a BIND master file into a zone: the file becomes the zone's content (the SOA stays
 * managed; without apex NS in the file the current ones stay). For a key (name, type, content)
 * given twice the first line wins. All in one transaction, so any error anywhere means nothing is
 * written; one audit entry summarises a whole import (decision 201). Two ways in, one result:
 * - a zone that holds little yet (a new zone: the usual case for a large file) on PostgreSQL: the
 *   parsed records go straight into dns_records through one binary COPY while the parser reads on
 *   (decision 204); only lines that may repeat a key — of the file or of the zone — are staged;
 * - otherwise the parser streams the file into a temporary staging table (nothing of the file is
 *   held in memory) and the difference with the zone is computed and applied in SQL.
 * The preview (`dry_run`) answers the same counts and samples through the staging table.
 */
export async function importZone(
  deps: PlatformDeps,
  scope: Scope,
  zoneId: string,
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  options: { dry_run?: boolean } = {},
): Promise<ImportSummary> {
  requireAccount(scope)
  const summary: ImportSummary = { applied: false, counts: { added: 0, changed: 0, removed: 0, unchanged: 0 }, added: [], changed: [], removed: [], errors: [], warnings: [], notes: [] }
  const write = !options.dry_run
  // On PostgreSQL the import holds one connection: its transaction, and a COPY of the parsed
  // records on that same session while the parser reads on.
  const lease = await leaseConnection(deps.database)
  const db = lease?.db ?? deps.db
  const work = async (tx: Tx, audit: Audit | null) => {
    const zone = await getZone(tx, scope, zoneId, write)
    const z = zone.id
    await run(tx, `SET LOCAL work_mem = '256MB'`)
    // ON COMMIT DROP, and a rollback removes it too: nothing outlives this transaction.
    // `h` is md5(content), the last key of the unique index, computed once while staging (the
    // database does it while the parser reads on): the insert then sorts by stored columns only.
    await run(
      tx,
      `CREATE TEMP TABLE dns_import (line int NOT NULL, name text COLLATE "C" NOT NULL, type text COLLATE "C" NOT NULL, ttl int NOT NULL, content text COLLATE "C" NOT NULL, priority int,
         h text COLLATE "C" NOT NULL GENERATED ALWAYS AS (md5(content)) STORED) ON COMMIT DROP`,
    )
    const current =
      write && lease ? await run<CurrentRecord>(tx, `SELECT id, name, type, ttl, content, priority FROM dns_records WHERE zone_id = $1 AND type <> 'SOA' LIMIT ${DIRECT_MAX_CURRENT + 1}`, [z]) : []
    const direct = Boolean(lease) && write && current.length <= DIRECT_MAX_CURRENT
    const ids = recordIds(deps.now())
    const file = { apexNs: 0, soaSkipped: false }
    const batches = goodBatches(source, zone, summary, file)
    let copied = 0
    if (direct) copied = await copyIntoRecords(tx, lease!.client, zone, batches, current, ids, summary)
    else if (lease) await copyIntoStaging(lease.client, batches)
    else {
      // One batch is written while the parser reads the next: the database and the parser each get a core.
      let inFlight: Promise<void> = Promise.resolve()
      for await (const batch of batches) {
        await inFlight
        const writing = stageBatch(tx, batch)
        writing.catch(() => {}) // awaited on the next turn; this only keeps it from counting as unhandled meanwhile
        inFlight = writing
      }
      await inFlight
    }
    if (file.soaSkipped) summary.notes.push('The SOA record of the file is ignored: the portal manages the SOA and its serial.')
    if (summary.errors.length) {
      if (write) throw new ImportFailed(summary)
      return summary
    }
    if (file.apexNs === 0) {
      // The file has no apex NS: the zone keeps the ones it has.
      await run(tx, `INSERT INTO dns_import (line, name, type, ttl, content, priority) SELECT 0, name, type, ttl, content, priority FROM dns_records WHERE zone_id = $1 AND name = $2 AND type = 'NS'`, [z, zone.name])
      summary.notes.push('The file has no NS records at the apex: the current name servers stay.')
    }

    // The difference, computed where the data is, in one pass over the staged lines: the zone's
    // records as they were (usually the smaller side) are joined to them by RRset. A key is
    // (name, type, content); for a key given twice the first line wins. Having copied the file in,
    // the zone's records as they were are the ones read before the copy.
    const [was, wasParams] = direct ? [`e.zone_id = $1 AND e.id = ANY($2::uuid[])`, [z, current.map((r) => r.id)]] : [`e.zone_id = $1 AND e.type <> 'SOA'`, [z]]
    await run(
      tx,
      `CREATE TEMP TABLE dns_import_match ON COMMIT DROP AS
       SELECT e.id, (array_agg(i.ttl ORDER BY i.line) FILTER (WHERE i.content = e.content))[1] AS new_ttl
       FROM dns_records e JOIN dns_import i ON i.name = e.name AND i.type = e.type
       WHERE ${was} GROUP BY e.id`,
      wasParams,
    )
    type Row = RecordValue & { total: number }
    type ChangedRow = Row & { new_ttl: number }
    const before = `FROM dns_records e LEFT JOIN dns_import_match m ON m.id = e.id WHERE ${was}`
    const removed = await run<Row>(
      tx,
      `SELECT e.name, e.type, e.ttl, e.content, e.priority, count(*) OVER ()::int AS total ${before} AND m.new_ttl IS NULL
       ORDER BY e.name, e.type, e.content LIMIT ${SAMPLE}`,
      wasParams,
    )
    const changed = await run<ChangedRow>(
      tx,
      `SELECT e.name, e.type, e.ttl, e.content, e.priority, m.new_ttl, count(*) OVER ()::int AS total ${before} AND m.new_ttl <> e.ttl
       ORDER BY e.name, e.type, e.content LIMIT ${SAMPLE}`,
      wasParams,
    )
    const kept = await run<{ n: number }>(tx, `SELECT count(*)::int AS n FROM dns_records e WHERE ${was}`, wasParams)
    summary.removed = removed.map(recordValue)
    summary.counts.removed = removed[0]?.total ?? 0
    summary.changed = changed.map((r) => ({ before: recordValue(r), after: { ...recordValue(r), ttl: r.new_ttl } }))
    summary.counts.changed = changed[0]?.total ?? 0
    summary.counts.unchanged = kept[0]!.n - summary.counts.removed - summary.counts.changed
    const notInZone = `NOT EXISTS (SELECT 1 FROM dns_records e WHERE e.zone_id = $1 AND e.name = i.name AND e.type = i.type AND e.content = i.content)`
    if (!direct) {
      // A few more than the sample, for the repeats among them.
      const addedSample = await run<RecordValue & { line: number }>(tx, `SELECT i.line, i.name, i.type, i.ttl, i.content, i.priority FROM dns_import i WHERE ${notInZone} LIMIT ${SAMPLE + 50}`, [z])
      const sampleKeys = new Set<string>()
      summary.added = addedSample
        .sort((a, b) => a.line - b.line)
        .filter((r) => !sampleKeys.has(rrKey(r)) && Boolean(sampleKeys.add(rrKey(r))))
        .slice(0, SAMPLE)
        .map(recordValue)
    }

    if (!write || !audit) {
      const added = await run<{ n: number }>(tx, `SELECT count(*)::int AS n FROM (SELECT DISTINCT i.name, i.type, i.content FROM dns_import i WHERE ${notInZone}) s`, [z])
      summary.counts.added = added[0]!.n
      return summary
    }

    // RRsets that disappear entirely go to PowerDNS as deletes on the next publish.
    const gone = await run<{ k: string }>(
      tx,
      `SELECT DISTINCT e.name || E'\\t' || e.type AS k FROM dns_records e WHERE ${was}
       AND NOT EXISTS (SELECT 1 FROM dns_import_match m WHERE m.id = e.id)`,
      wasParams,
    )
    if (summary.counts.removed) {
      await run(tx, `DELETE FROM dns_records e WHERE ${was} AND NOT EXISTS (SELECT 1 FROM dns_import_match m WHERE m.id = e.id AND m.new_ttl IS NOT NULL)`, wasParams)
    }
    if (summary.counts.changed) {
      await run(tx, `UPDATE dns_records e SET ttl = m.new_ttl, updated_at = now() FROM dns_import_match m WHERE m.id = e.id AND m.new_ttl <> e.ttl`)
    }
    // One statement, in the order of the unique index, with time-ordered ids: every index grows
    // at its right edge instead of splitting pages all over (decision 201). Keys already in the
    // zone (the copied lines among them), and repeats in the file after their first line, are
    // left out by the query itself.
    summary.counts.added = copied + (await insertSorted(tx, zone, ids))
    summary.zone = await bumpZone(deps, tx, zone, gone.map((g) => g.k))
    await audit.record({
      area: 'dns',
      entityType: 'dns_zone',
      entityId: zone.id,
      action: 'import',
      after: {
        counts: summary.counts,
        // The stored diff summary: samples of each side; the counts say how much more there was.
        diff: { added: summary.added.slice(0, 50), changed: summary.changed.slice(0, 50), removed: summary.removed.slice(0, 50) },
        notes: summary.notes,
        // Lines whose TTL the import evened out to their RRset's (one TTL per RRset).
        ttl_adjusted: summary.warnings.filter((w) => w.code === 'rrset-ttl').length,
      },
    })
    await queuePublish(deps, tx, zone.id)
    summary.applied = true
    return summary
  }
  let failure: Error | undefined
  try {
    if (!write) return await db.transaction().execute((tx) => work(tx, null))
    const result = await change(db, scope, (tx, audit) => work(tx, audit))
    const written = result.counts.added + result.counts.removed + result.counts.changed
    // Without fresh statistics the planner still thinks the zone is small (and, say, sorts a
    // million rows per export page); autovacuum would get there, but only later.
    if (written > ANALYZE_AFTER) await sql`ANALYZE dns_records`.execute(db)
    return result
  } catch (error) {
    // The transaction is rolled back: nothing of the import was written.
    if (error instanceof ImportFailed) return error.summary
    failure = error as Error
    throw error
  } finally {
    // A connection that failed mid-COPY is not given back to the pool.
    lease?.release(failure)
  }
}

/**
 * The file's good records in batches, SOA aside (noted in `file`, with the apex NS count); after
 * the first error the rest is only checked, so that every error is reported, and nothing more is
 * given out.
 */
async function* goodBatches(
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  zone: DnsZone,
  summary: ImportSummary,
  file: { apexNs: number; soaSkipped: boolean },
): AsyncGenerator<ZoneRecordRow[]> {
  let batch: ZoneRecordRow[] = []
  for await (const events of parseZoneBatches(source, { zone: zone.name })) {
    for (const event of events) {
      if (event.kind === 'error') {
        if (summary.errors.length < MAX_ERRORS) summary.errors.push(event.error)
        batch = []
        continue
      }
      if (event.kind === 'warning') {
        if (summary.warnings.length < MAX_ERRORS) summary.warnings.push(event.warning)
        continue
      }
      const r = event.record
      if (r.type === 'SOA') {
        file.soaSkipped = true
        continue
      }
      if (r.type === 'NS' && r.name === zone.name) file.apexNs++
      if (summary.errors.length) continue
      batch.push(r)
      if (batch.length >= BATCH) {
        yield batch
        batch = []
      }
    }
  }
  if (batch.length && !summary.errors.length) yield batch
}

class ImportFailed extends Error {
  readonly summary: ImportSummary
  constructor(summary: ImportSummary) {
    super('import failed')
    this.summary = summary
  }
}

type ZoneRecordRow = { line: number; name: string; type: string; ttl: number; content: string; priority: number | null }

/** A record's value alone, as the import's summary shows it (a staged or read row has more). */
const recordValue = (r: Omit<RecordValue, 'type'> & { type: string }): RecordValue => ({ name: r.name, type: r.type as RecordType, ttl: r.ttl, content: r.content, priority: r.priority })

async function run<T = unknown>(tx: Tx | Kysely<DB>, text: string, params: unknown[] = []): Promise<T[]> {
  return (await tx.executeQuery(CompiledQuery.raw(text, params))).rows as T[]
}

/** An element of a PostgreSQL array literal: always quoted, with `\` and `"` escaped. */
const arrayText = (value: string) => (value.includes('"') || value.includes('\\') ? `"${value.replace(/["\\]/g, '\\$&')}"` : `"${value}"`)

/** A field of COPY's text format: backslash, tab, newline and carriage return escaped. */
const copyField = (value: string) => (/[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r')) : value)

/**
 * PostgreSQL: every batch into the staging table through ONE `COPY … FROM STDIN` on the import's
 * own connection, written while the parser reads on (backpressure from the socket paces the
 * parser). COPY costs the server a third less than INSERT … unnest of array literals, and the
 * statement is not waited on batch by batch.
 */
async function copyIntoStaging(client: pg.PoolClient, batches: AsyncIterable<ZoneRecordRow[]>): Promise<void> {
  async function* lines() {
    for await (const rows of batches) {
      let text = ''
      for (const r of rows) text += `${r.line}\t${copyField(r.name)}\t${r.type}\t${r.ttl}\t${copyField(r.content)}\t${r.priority === null ? '\\N' : r.priority}\n`
      yield text
    }
  }
  await pipeline(Readable.from(lines()), client.query(copyFrom('COPY dns_import (line, name, type, ttl, content, priority) FROM STDIN')))
}

/**
 * PGlite: many rows per statement through unnest into the unindexed, unlogged staging table. The six
 * arrays go as array literals built here in one pass: node-postgres's generic array encoder
 * cost ~0.7 s of the import's node CPU per million rows, this ~0.2 s (decision 203).
 */
async function stageBatch(tx: Tx, rows: ZoneRecordRow[]) {
  let lines = ''
  let names = ''
  let types = ''
  let ttls = ''
  let contents = ''
  let priorities = ''
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!
    const sep = i ? ',' : ''
    lines += sep + r.line
    names += sep + arrayText(r.name)
    types += sep + r.type
    ttls += sep + r.ttl
    contents += sep + arrayText(r.content)
    priorities += sep + (r.priority === null ? 'NULL' : r.priority)
  }
  await run(tx, `INSERT INTO dns_import (line, name, type, ttl, content, priority) SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::text[], $6::int[]) AS u(l, n, t, ttl, c, p)`, [
    `{${lines}}`,
    `{${names}}`,
    `{${types}}`,
    `{${ttls}}`,
    `{${contents}}`,
    `{${priorities}}`,
  ])
}

/**
 * Ids for the records an import writes: time-ordered (uuid version 7 layout: 48 bits of
 * milliseconds, version, 12 random bits, variant, 14 random bits) and then a 48-bit count, so
 * that the rows of one import follow each other in the primary key and its index grows at its
 * right edge. `next` is the count of the next id.
 */
type RecordIds = { prefix: string; bytes: Buffer; next: number }

function recordIds(now: Date): RecordIds {
  const ms = now.getTime().toString(16).padStart(12, '0')
  const random = randomBytes(3).toString('hex')
  const hex = `${ms}7${random.slice(0, 3)}${'89ab'[randomBytes(1)[0]! & 3]}${random.slice(3)}`
  return { prefix: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}`, bytes: Buffer.from(`${hex}000000000000`, 'hex'), next: 1 }
}

/**
 * The foreign key's check done once for a bulk write into the zone, instead of once per row
 * (decision 203): the zone row exists for its account and is locked `FOR UPDATE` by the import
 * from its first statement, so it stays so until commit. Where the role may set
 * `session_replication_role` and dns_records has no trigger of its own, the RI triggers are then
 * off for `write` (CHECK, NOT NULL and unique constraints are not triggers and still apply);
 * otherwise the per-row check runs — slower, same result.
 */
async function withZoneChecked<T>(tx: Tx, zone: DnsZone, write: () => Promise<T>): Promise<T> {
  const [check] = await run<{ zone_ok: boolean; skip_ri: boolean }>(
    tx,
    `SELECT EXISTS (SELECT 1 FROM dns_zones WHERE id = $1 AND account_id = $2) AS zone_ok,
            has_parameter_privilege('session_replication_role', 'SET')
            AND NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'dns_records'::regclass AND NOT tgisinternal) AS skip_ri`,
    [zone.id, zone.account_id],
  )
  if (!check?.zone_ok) throw notFound('Zone not found')
  if (check.skip_ri) await run(tx, `SET LOCAL session_replication_role = replica`)
  const result = await write()
  // Back to ordinary checks for everything after (the audit entry, the publish job, ...). An
  // error above aborts the transaction, and its rollback undoes the SET LOCAL as well.
  if (check.skip_ri) await run(tx, `SET LOCAL session_replication_role = origin`)
  return result
}

/** The staged lines whose key is not in the zone, first line of a key only, in index order. */
async function insertSorted(tx: Tx, zone: DnsZone, ids: RecordIds): Promise<number> {
  const result = await withZoneChecked(tx, zone, () =>
    tx.executeQuery(
      CompiledQuery.raw(
        `INSERT INTO dns_records (id, zone_id, account_id, name, type, ttl, content, priority)
         SELECT ($3 || '-' || lpad(to_hex($4::bigint + row_number() OVER (ORDER BY name, type, h) - 1), 12, '0'))::uuid, $1, $2, name, type, ttl, content, priority
         FROM (SELECT DISTINCT ON (name, type, h) name, type, h, ttl, content, priority FROM dns_import i
               WHERE NOT EXISTS (SELECT 1 FROM dns_records e WHERE e.zone_id = $1 AND e.name = i.name AND e.type = i.type AND e.content = i.content)
               ORDER BY name, type, h, line) s
         ORDER BY name, type, h`,
        [zone.id, zone.account_id, ids.prefix, ids.next],
      ),
    ),
  )
  const inserted = Number(result.numAffectedRows ?? 0)
  ids.next += inserted
  return inserted
}

/**
 * The direct way in (decision 204): every good record of the file whose key is new goes into
 * dns_records through ONE binary `COPY … FROM STDIN` on the import's own connection while the
 * parser reads on, with its id, zone and account. A line whose key may have been seen — a repeat
 * in the file, a record the zone has (`current`), or the rare hash collision of `KeySet` — is
 * staged instead, for the shared difference and `insertSorted` to settle. Answers how many were
 * copied; the first of them are the summary's sample of what is added.
 */
async function copyIntoRecords(
  tx: Tx,
  client: pg.PoolClient,
  zone: DnsZone,
  batches: AsyncIterable<ZoneRecordRow[]>,
  current: RecordValue[],
  ids: RecordIds,
  summary: ImportSummary,
): Promise<number> {
  const seen = new KeySet(1 << 16)
  for (const r of current) seen.add(rrKey(r))
  const held: ZoneRecordRow[] = []
  const zoneId = uuidBytes(zone.id)
  const accountId = uuidBytes(zone.account_id)
  const id = Buffer.from(ids.bytes)
  let copied = 0
  async function* chunks() {
    yield BinaryCopyWriter.header
    const out = new BinaryCopyWriter()
    for await (const rows of batches) {
      for (const r of rows) {
        if (!seen.add(rrKey(r))) {
          held.push(r)
          continue
        }
        id.writeUIntBE(ids.next + copied++, 10, 6)
        out.row(8)
        out.uuid(id)
        out.uuid(zoneId)
        out.uuid(accountId)
        out.text(r.name)
        out.text(r.type)
        out.int4(r.ttl)
        out.text(r.content)
        out.int4(r.priority)
        if (summary.added.length < SAMPLE) summary.added.push(recordValue(r))
      }
      yield out.take()
    }
    yield BinaryCopyWriter.trailer
  }
  await withZoneChecked(tx, zone, () =>
    pipeline(Readable.from(chunks()), client.query(copyFrom('COPY dns_records (id, zone_id, account_id, name, type, ttl, content, priority) FROM STDIN (FORMAT binary)'))),
  )
  ids.next += copied
  for (let i = 0; i < held.length; i += BATCH) await stageBatch(tx, held.slice(i, i + BATCH))
  return copied
}

/**
 * The zone as a BIND master file, streamed in chunks: SOA and apex NS first, then every other
 * record. PostgreSQL writes the lines itself (owner relative to the zone, TTL, class, type,
 * content — content is stored in presentation form) so a million records are never objects in
 * Node (decision 201):
 * - on PostgreSQL, one `COPY (SELECT line …) TO STDOUT` after the apex: one statement, one snapshot,
 *   streamed as PostgreSQL produces it; the records come in storage order (an import writes them in
 *   name order), which is what makes it > 1 M records/s — an ORDER BY costs a sort or an index walk;
 * - on the embedded PGlite (no COPY streaming), keyset pages of 50,000 lines as one string each,
 *   in name order, in one read-only REPEATABLE READ transaction.
 */
export async function* exportZone(database: Pick<Database, 'kind' | 'db' | 'pool'>, scope: Scope, zoneId: string): AsyncGenerator<string> {
  const zone = await getZone(database.db, scope, zoneId)
  yield `; zone ${zone.name}, serial ${zone.serial}, exported by Registrar Portal\n$ORIGIN ${zone.name}.\n`
  if (database.kind === 'postgres') yield* exportByCopy(database.pool as unknown as pg.Pool, zone)
  else yield* exportByPages(database.db, zone)
}

const exportLine = (zoneName: string) =>
  `CASE WHEN name = ${zoneName} THEN '@' ELSE left(name, length(name) - length(${zoneName}) - 1) END || E'\\t' || ttl || E'\\tIN\\t' || type || E'\\t' || content`
const APEX_ORDER = 'ORDER BY type DESC, content'

async function* exportByCopy(pool: pg.Pool, zone: DnsZone): AsyncGenerator<string> {
  const client = await pool.connect()
  let ok = false
  try {
    // COPY takes no parameters: the zone's id (a UUID) and name (checked lowercase DNS name) are
    // quoted by the driver. Lines hold no newline or control character (content is canonical
    // presentation text), so CSV with control characters as delimiter and quote writes each line
    // as it is — text format would escape its tabs and backslashes.
    const id = client.escapeLiteral(zone.id)
    const name = client.escapeLiteral(zone.name)
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
    const apex = await client.query<{ text: string | null }>(`SELECT string_agg(${exportLine(name)}, E'\\n' ${APEX_ORDER}) AS text FROM dns_records WHERE zone_id = ${id} AND name = ${name} AND type IN ('SOA', 'NS')`)
    if (apex.rows[0]?.text) yield `${apex.rows[0].text}\n`
    const stream = client.query(
      copyTo(`COPY (SELECT ${exportLine(name)} FROM dns_records WHERE zone_id = ${id} AND NOT (name = ${name} AND type IN ('SOA', 'NS'))) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`),
    )
    const decoder = new TextDecoder()
    for await (const chunk of stream as AsyncIterable<Buffer>) yield decoder.decode(chunk, { stream: true })
    const rest = decoder.decode()
    if (rest) yield rest
    await client.query('COMMIT')
    ok = true
  } finally {
    // A failure, or a consumer that stopped early with the COPY still in flight: the connection is
    // closed instead of returned (the server rolls its transaction back).
    client.release(ok ? undefined : true)
  }
}

async function* exportByPages(db: Kysely<DB>, zone: DnsZone): AsyncGenerator<string> {
  const line = exportLine('$2')
  yield* inSnapshot<string>(db, async (tx, emit) => {
    const [apex] = await run<{ text: string | null }>(tx, `SELECT string_agg(${line}, E'\\n' ${APEX_ORDER}) AS text FROM dns_records WHERE zone_id = $1 AND name = $2 AND type IN ('SOA', 'NS')`, [zone.id, zone.name])
    if (apex?.text) await emit(`${apex.text}\n`)
    let after: [string, string, string] = ['', '', '']
    for (;;) {
      const [page] = await run<{ text: string | null; last: [string, string, string] | null }>(
        tx,
        `WITH page AS (
           SELECT name, type, md5(content) AS h, ${line} AS line FROM dns_records
           WHERE zone_id = $1 AND (name, type, md5(content)) > ($3, $4, $5) AND NOT (name = $2 AND type IN ('SOA', 'NS'))
           ORDER BY name, type, md5(content) LIMIT ${EXPORT_PAGE})
         SELECT string_agg(line, E'\\n' ORDER BY name, type, h) AS text,
                (SELECT ARRAY[name, type, h] FROM page ORDER BY name DESC, type DESC, h DESC LIMIT 1) AS last
         FROM page`,
        [zone.id, zone.name, ...after],
      )
      if (!page?.text || !page.last) return
      await emit(`${page.text}\n`)
      after = page.last
    }
  })
}

const EXPORT_PAGE = 50_000

class ExportStopped extends Error {}

/**
 * Runs `produce` in a read-only REPEATABLE READ transaction and yields what it emits, one item
 * ahead: the next statement runs while the consumer writes the current chunk. When the consumer
 * stops early the transaction is rolled back and the connection returned.
 */
async function* inSnapshot<T>(db: Kysely<DB>, produce: (tx: Tx, emit: (item: T) => Promise<void>) => Promise<void>): AsyncGenerator<T> {
  const items: T[] = []
  let done = false
  let failure: { error: unknown } | null = null
  let stopped = false
  let wakeConsumer: (() => void) | null = null
  let wakeProducer: (() => void) | null = null
  const wake = (which: 'consumer' | 'producer') => {
    const fn = which === 'consumer' ? wakeConsumer : wakeProducer
    if (which === 'consumer') wakeConsumer = null
    else wakeProducer = null
    fn?.()
  }
  const emit = async (item: T) => {
    while (items.length >= 2 && !stopped) await new Promise<void>((resolve) => (wakeProducer = resolve))
    if (stopped) throw new ExportStopped()
    items.push(item)
    wake('consumer')
  }
  const producer = db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute((tx) => produce(tx, emit))
    .then(() => {
      done = true
      wake('consumer')
    })
    .catch((error: unknown) => {
      if (!(error instanceof ExportStopped)) failure = { error }
      done = true
      wake('consumer')
    })
  try {
    for (;;) {
      while (!items.length && !done) await new Promise<void>((resolve) => (wakeConsumer = resolve))
      if (failure) throw (failure as { error: unknown }).error
      if (!items.length) return
      const item = items.shift()!
      wake('producer')
      yield item
    }
  } finally {
    stopped = true
    wake('producer')
    await producer
  }
}

// --- DNSSEC ----------------------------------------------------------------------------------


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
 * Deletes a zone: its records, statistics and publish state go with it (the DNS log stays in the
 * audit trail), and a job removes it from PowerDNS. A zone with DNSSEC on (or on its way on or off)
 * is refused: the parent would keep a DS for keys that no longer exist and validating resolvers
 * would fail the domain — DNSSEC is turned off first, in its safe order.
 */
export async function deleteZone(deps: PlatformDeps, scope: Scope, zoneId: string): Promise<void> {
  await change(deps.db, scope, async (tx, audit) => {
    const zone = await getZone(tx, scope, zoneId, true)
    if (zone.dnssec_state !== 'unsigned') throw conflict(`DNSSEC is ${zone.dnssec_state}: turn it off before deleting the zone`)
    const [counted] = await run<{ n: number }>(tx, `SELECT count(*)::int AS n FROM dns_records WHERE zone_id = $1`, [zone.id])
    await tx.deleteFrom('dns_zones').where('id', '=', zone.id).execute()
    await audit.record({ area: 'dns', entityType: 'dns_zone', entityId: zone.id, action: 'delete', before: { name: zone.name, serial: zone.serial, records: counted?.n ?? 0, domain_id: zone.domain_id } })
    // Only where PowerDNS is configured: without it nothing was ever published.
    if (powerDnsSettings(deps)) await deps.jobs.send(DNS_JOBS.unpublish, { name: zone.name }, { runner: txRunner(tx), retryLimit: 10 })
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
