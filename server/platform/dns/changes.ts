import { randomUUID } from 'node:crypto'
import type { ChangeDiff, RecordValue as CommonRecordValue } from '#common/dns.ts'
import { sql } from 'kysely'
import type { DnsRecord, DnsZone } from '#server/db/schema-dns.ts'
import { change, type Tx } from '#server/platform/core/change.ts'
import { badRequest, type CodedFieldError, type FieldError } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { inZone, NameError, resolveName } from './names.ts'
import { isRecordType, parseRdata, RdataError, type RecordType } from './rdata.ts'
import { TTL_POLICY, ttlFloor, tokenizeRdata, ZoneChecker } from './zone-parser.ts'
import { getZone, nextSerial, soaContent, DEFAULT_TTL, queuePublish, requireAccount, nameserversOf } from './zones.ts'

/** Change sets: records added, changed and deleted in one go, each checked, with a dry run that shows the diff. */

export type RecordInput = { name: string; type: string; ttl?: number; content: string }
export type Change = ({ action: 'add' } & RecordInput) | ({ action: 'update'; id: string } & Partial<RecordInput>) | { action: 'delete'; id: string }

export type RecordValue = CommonRecordValue<RecordType>
export type RecordDiff = ChangeDiff<RecordType>

/**
 * What each type's content looks like, for a refusal that says how to write it: the examples are
 * the same in every language, so a screen puts them into its own words (dns `errors.record.*`).
 */
export const RECORD_EXAMPLES: Record<Exclude<RecordType, 'SOA'>, string> = {
  A: '192.0.2.10',
  AAAA: '2001:db8::10',
  CNAME: 'www.example.com.',
  MX: '10 mail.example.com.',
  TXT: '"v=spf1 -all"',
  SRV: '10 5 443 host.example.com.',
  CAA: '0 issue "letsencrypt.org"',
  NS: 'ns1.example.net.',
  PTR: 'host.example.com.',
  DS: '12345 13 2 <64 hex digits>',
  TLSA: '3 1 1 <64 hex digits>',
  SSHFP: '4 2 <64 hex digits>',
  NAPTR: '100 10 "S" "SIP+D2U" "" _sip._udp.example.com.',
  HTTPS: '1 . alpn=h2,h3',
  SVCB: '1 svc.example.com. port=8443',
}

/**
 * Validates one record as typed in a form; errors name the field under `prefix`. Each carries a
 * code (`dns.record.<rule>`) and the figures a screen needs to say it in the user's words beside
 * its field (`record_type`, `value`, `example`, …); the English message says the same for a script.
 */
export function validateRecord(zone: string, input: RecordInput, prefix: string, errors: FieldError[], ttlMin: number = TTL_POLICY.min): RecordValue | null {
  const before = errors.length
  let name = ''
  const nameText = input.name.trim() === '' ? '@' : input.name.trim()
  try {
    name = resolveName(nameText, zone, 'owner')
    if (!inZone(name, zone)) errors.push(coded(`${prefix}.name`, 'name-outside', `${name} is outside the zone ${zone}`, { value: nameText, zone }))
  } catch (error) {
    if (!(error instanceof NameError)) throw error
    errors.push(coded(`${prefix}.name`, 'name-invalid', error.message, { value: nameText }))
  }
  const type = input.type.toUpperCase()
  if (!isRecordType(type) || type === 'SOA') {
    errors.push(
      type === 'SOA'
        ? coded(`${prefix}.type`, 'soa-managed', 'the SOA record is managed by the portal')
        : coded(`${prefix}.type`, 'type-unsupported', `record type '${input.type}' is not supported`, { record_type: input.type }),
    )
    return null
  }
  const ttl = input.ttl ?? DEFAULT_TTL
  if (!Number.isInteger(ttl) || ttl < ttlMin || ttl > TTL_POLICY.max) {
    errors.push(coded(`${prefix}.ttl`, 'ttl-range', `TTL must be between ${ttlMin} and ${TTL_POLICY.max} seconds`, { min: String(ttlMin), max: String(TTL_POLICY.max) }))
  }
  const example = RECORD_EXAMPLES[type]
  // The content is one field: a refusal says what is wrong in it, never a column of it.
  const { tokens, error } = tokenizeRdata(input.content)
  if (error) {
    errors.push(coded(`${prefix}.content`, 'content-invalid', error.message, { record_type: type, example }))
    return null
  }
  try {
    const rdata = parseRdata(type, tokens, zone)
    if (errors.length > before) return null
    return { name, type, ttl, content: rdata.content, priority: rdata.priority }
  } catch (e) {
    if (!(e instanceof RdataError)) throw e
    errors.push(coded(`${prefix}.content`, e.code ?? 'content-invalid', e.message, { record_type: type, example, ...e.params }))
    return null
  }
}

/** A record's field error with its code (`dns.record.<rule>`) and the figures its words need. */
const coded = (field: string, rule: string, message: string, params: Record<string, string> = {}): CodedFieldError => ({ field, code: `dns.record.${rule}`, message, ...params }) as CodedFieldError

export const rrKey = (r: { name: string; type: string; content: string }) => `${r.name}\t${r.type}\t${r.content}`
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
        const value = validateRecord(zone.name, c, prefix, errors, ttlFloor(deps))
        if (value) {
          next.set(`new:${i}`, value)
          diff.added.push(value)
        }
        return
      }
      const existing = byId.get(c.id)
      if (!existing || !next.has(c.id)) {
        errors.push(existing ? coded(`${prefix}.id`, 'changed-twice', 'this record is changed twice in the change set') : coded(`${prefix}.id`, 'record-gone', 'no such record in this zone'))
        return
      }
      if (existing.type === 'SOA') {
        errors.push(coded(`${prefix}.id`, 'soa-managed', 'the SOA record is managed by the portal'))
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
      const value = validateRecord(zone.name, merged, prefix, errors, ttlFloor(deps))
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
      const field = key.startsWith('new:')
        ? `changes.${key.slice(4)}`
        : key.startsWith('upd:')
          ? `changes.${input.changes.findIndex((c) => c.action === 'update' && c.id === key.slice(4))}`
          : 'changes'
      if (problem) errors.push(coded(field, value.type === 'CNAME' && value.name === zone.name ? 'cname-apex' : value.type === 'DS' ? 'ds-apex' : 'cname-alone', problem, { value: value.name }))
      const k = rrKey(value)
      if (seen.has(k)) errors.push(coded(field, 'duplicate', `${value.name} ${value.type} ${value.content} is already in the zone`, { value: `${value.name} ${value.type} ${value.content}` }))
      seen.add(k)
      if (value.type === 'NS' && value.name === zone.name) apexNs++
    }
    if (apexNs === 0) errors.push(coded('changes', 'apex-ns', 'the zone needs at least one NS record at its apex'))
    if (errors.length) throw badRequest('The change set is not valid', errors)
    if (input.dry_run || !audit) return { zone, diff, applied: false }

    const now = deps.now()
    // Removes and adds each one statement, the audit one statement: a change set of many records
    // (a change set over thousands of zones, issue 33) is a few round trips per zone, not two per record.
    if (diff.removed.length)
      await tx
        .deleteFrom('dns_records')
        .where(
          'id',
          'in',
          diff.removed.map((r) => r.id),
        )
        .execute()
    for (const u of diff.updated) {
      await tx
        .updateTable('dns_records')
        .set({ ...u.after, updated_at: now })
        .where('id', '=', u.id)
        .execute()
    }
    // Ids made here, so that each audit entry names its record whatever order the rows come back in.
    const added = diff.added.map(() => ({ id: randomUUID() }))
    if (diff.added.length)
      await tx
        .insertInto('dns_records')
        .values(diff.added.map((a, i) => ({ id: added[i]!.id, zone_id: zone.id, account_id: accountId, ...a })))
        .execute()
    await audit.recordAll([
      ...diff.removed.map((r) => ({ area: 'dns', entityType: 'dns_record', entityId: r.id, action: 'delete', before: { zone_id: zone.id, ...r } })),
      ...diff.updated.map((u) => ({ area: 'dns', entityType: 'dns_record', entityId: u.id, action: 'update', before: { zone_id: zone.id, ...u.before }, after: { zone_id: zone.id, ...u.after } })),
      ...diff.added.map((a, i) => ({ area: 'dns', entityType: 'dns_record', entityId: added[i]!.id, action: 'create', after: { zone_id: zone.id, ...a } })),
    ])
    // RRsets that no longer exist go to PowerDNS as deletes on the next publish.
    const remaining = new Set([...next.values()].map(rrsetKey))
    const gone = [...diff.removed, ...diff.updated.map((u) => u.before)].map(rrsetKey).filter((k) => !remaining.has(k))
    const soa = current.find((r) => r.type === 'SOA')
    const updated = await bumpZone(deps, tx, zone, gone, soa ? { id: soa.id, content: soa.content } : undefined)
    await queuePublish(deps, tx, zone.id, zone)
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
      errors.push(
        coded(
          `changes.${second}.ttl`,
          'rrset-ttl',
          `${value.name} ${value.type} is one record set with one TTL, and this change set gives it ${[...given.keys()].join(' and ')}: give its records the same TTL`,
          { value: `${value.name} ${value.type}`, ttls: [...given.keys()].join(', ') },
        ),
      )
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
export async function bumpZone(deps: PlatformDeps, tx: Tx, zone: DnsZone, goneRrsets: string[], known?: { id: string; content: string }): Promise<DnsZone> {
  const serial = nextSerial(zone.serial, deps.now())
  // The SOA as the caller read it under the zone's lock, or read now.
  const soa = known ?? (await tx.selectFrom('dns_records').select(['id', 'content']).where('zone_id', '=', zone.id).where('type', '=', 'SOA').executeTakeFirst())
  const primary = soa ? soa.content.split(' ')[0]!.replace(/\.$/, '') : nameserversOf(deps)[0]!
  if (soa)
    await tx
      .updateTable('dns_records')
      .set({ content: soaContent(zone.name, serial, primary), updated_at: deps.now() })
      .where('id', '=', soa.id)
      .execute()
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
