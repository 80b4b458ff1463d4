import { sql } from 'kysely'
import type { DnsZone, DriftReport } from '#server/db/schema-dns.ts'
import { createPowerDnsClient, dotted, PowerDnsError, type PdnsRrset, type PowerDnsClient } from '#server/integrations/powerdns/client.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { isRecordType, parseRdata } from './rdata.ts'
import { setDelegationSigner } from '#server/platform/domains/lifecycle.ts'
import { setDomainDnssec } from '#server/platform/domains/writes.ts'
import { DNS_JOBS, powerDnsSettings } from './zones.ts'
import { tokenizeRdata } from './zone-parser.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'

type RrsetValue = { ttl: number; contents: string[] }

/** Our records grouped into RRsets; an RRset's TTL is the lowest of its records. */
async function ourRrsets(deps: PlatformDeps, zoneId: string): Promise<Map<string, RrsetValue>> {
  const rows = await deps.db.selectFrom('dns_records').select(['name', 'type', 'ttl', 'content']).where('zone_id', '=', zoneId).execute()
  const sets = new Map<string, RrsetValue>()
  for (const r of rows) {
    const key = `${r.name}\t${r.type}`
    const set = sets.get(key)
    if (set) {
      set.ttl = Math.min(set.ttl, r.ttl)
      set.contents.push(r.content)
    } else sets.set(key, { ttl: r.ttl, contents: [r.content] })
  }
  for (const set of sets.values()) set.contents.sort()
  return sets
}

/** PowerDNS's content in our canonical text, so that equal data compares equal. */
function canonical(type: string, content: string): string {
  if (!isRecordType(type)) return content
  const { tokens, error } = tokenizeRdata(content)
  if (error) return content
  try {
    return parseRdata(type, tokens, '').content
  } catch {
    return content
  }
}

const MANAGED_ELSEWHERE = new Set(['DNSKEY', 'RRSIG', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'CDS', 'CDNSKEY'])

function theirRrsets(rrsets: PdnsRrset[]): Map<string, RrsetValue> {
  const sets = new Map<string, RrsetValue>()
  for (const r of rrsets) {
    if (MANAGED_ELSEWHERE.has(r.type)) continue
    const contents = r.records
      .filter((x) => !x.disabled)
      .map((x) => canonical(r.type, x.content))
      .sort()
    if (contents.length) sets.set(`${r.name.replace(/\.$/, '')}\t${r.type}`, { ttl: r.ttl, contents })
  }
  return sets
}

const same = (a: RrsetValue, b: RrsetValue) => a.ttl === b.ttl && a.contents.length === b.contents.length && a.contents.every((c, i) => c === b.contents[i])

/** Compares PowerDNS's RRsets with ours (DNSSEC records PowerDNS makes itself are left out). */
export function compareRrsets(ours: Map<string, RrsetValue>, theirs: Map<string, RrsetValue>): DriftReport {
  const report: DriftReport = { missing: [], unexpected: [], different: [] }
  const split = (key: string) => {
    const [name, type] = key.split('\t') as [string, string]
    return { name, type }
  }
  for (const [key, mine] of ours) {
    const other = theirs.get(key)
    if (!other) report.missing.push({ ...split(key), ...mine })
    else if (!same(mine, other)) report.different.push({ ...split(key), ours: mine, powerdns: other })
  }
  for (const [key, other] of theirs) if (!ours.has(key)) report.unexpected.push({ ...split(key), ...other })
  return report
}

const toPdns = (key: string, set: RrsetValue, changetype?: 'REPLACE'): PdnsRrset => {
  const [name, type] = key.split('\t') as [string, string]
  return { name: dotted(name), type, ttl: set.ttl, ...(changetype ? { changetype } : {}), records: set.contents.map((content) => ({ content, disabled: false })) }
}

/**
 * RRsets sent in one PATCH. PowerDNS applies a PATCH in one transaction: all of it or none, so a
 * publication up to this size is atomic as it is. A larger one (a whole big zone replaced) goes in
 * PATCHes of this size — PowerDNS's webserver refuses bodies above `webserver-max-bodysize`, 2 MB
 * by default, about 16,000 RRsets — and a refused PATCH puts back what the ones before it changed,
 * so a refusal never leaves a zone half published. Mutable for the tests.
 */
export const PATCH_RRSETS = { value: 10_000 }

/**
 * Sends the patch so that PowerDNS serves either all of it or, when it refuses any part, the zone
 * as it served it before (`before`: the RRsets read just ahead of the patch). A refusal after a
 * first PATCH went through is undone with the RRsets as they were, then thrown on.
 */
async function patchAtomically(client: PowerDnsClient, zone: string, patch: PdnsRrset[], before: PdnsRrset[]) {
  if (patch.length <= PATCH_RRSETS.value) return client.patchRrsets(zone, patch)
  const applied: PdnsRrset[] = []
  for (let i = 0; i < patch.length; i += PATCH_RRSETS.value) {
    const part = patch.slice(i, i + PATCH_RRSETS.value)
    try {
      await client.patchRrsets(zone, part)
    } catch (error) {
      const served = new Map(before.map((r) => [`${r.name}\t${r.type}`, r]))
      const undo = applied.map((r): PdnsRrset => {
        const was = served.get(`${r.name}\t${r.type}`)
        return was ? { name: was.name, type: was.type, ttl: was.ttl, changetype: 'REPLACE', records: was.records } : { name: r.name, type: r.type, ttl: r.ttl, changetype: 'DELETE', records: [] }
      })
      try {
        for (let j = 0; j < undo.length; j += PATCH_RRSETS.value) await client.patchRrsets(zone, undo.slice(j, j + PATCH_RRSETS.value))
      } catch {
        // PowerDNS unreachable in the middle: the refusal below is what the zone shows, and the next publication sets it right.
      }
      throw error
    }
    applied.push(...part)
  }
}

export function powerDnsClient(deps: PlatformDeps): PowerDnsClient | null {
  const settings = powerDnsSettings(deps)
  return settings ? createPowerDnsClient(settings) : null
}

/**
 * Makes PowerDNS serve the zone as we have it: creates it when absent, replaces each RRset that
 * differs and deletes the RRsets removed since the last publish. RRsets someone added in
 * PowerDNS directly are left alone and reported as drift. A refusal by PowerDNS (4xx) marks
 * the zone failed with its reason and is not retried; anything else is retried with backoff.
 * Either way PowerDNS goes on serving the last good zone (`patchAtomically`).
 */
export async function publishZone(deps: PlatformDeps, zoneId: string): Promise<void> {
  const client = powerDnsClient(deps)
  if (!client) return // Not configured: the zone stays "pending", i.e. not published.
  const zone = await deps.db.selectFrom('dns_zones').selectAll().where('id', '=', zoneId).executeTakeFirst()
  // A zone waiting for its proof of control is never served (issue 26).
  if (!zone || !zone.verified_at) return
  const serial = zone.serial
  const deletes = zone.pending_deletes
  try {
    const ours = await ourRrsets(deps, zone.id)
    const remote = await client.getZone(zone.name)
    let drift: DriftReport
    if (!remote) {
      await client.createZone(
        zone.name,
        [...ours].map(([key, set]) => toPdns(key, set)),
      )
      drift = { missing: [], unexpected: [], different: [] }
    } else {
      const theirs = theirRrsets(remote.rrsets)
      const before = compareRrsets(ours, theirs)
      const patch: PdnsRrset[] = []
      for (const d of [...before.missing, ...before.different]) patch.push(toPdns(`${d.name}\t${d.type}`, ours.get(`${d.name}\t${d.type}`)!, 'REPLACE'))
      const pending = new Set(deletes)
      for (const u of before.unexpected) {
        if (pending.has(`${u.name}\t${u.type}`)) patch.push({ name: dotted(u.name), type: u.type, ttl: u.ttl, changetype: 'DELETE', records: [] })
      }
      await patchAtomically(client, zone.name, patch, remote.rrsets)
      drift = { missing: [], different: [], unexpected: before.unexpected.filter((u) => !pending.has(`${u.name}\t${u.type}`)) }
    }
    // Only a publish of the current serial makes the zone "published"; a newer change has its own job.
    // The webhook event is written with the state it announces (issue 20).
    await deps.db.transaction().execute(async (tx) => {
      const row = await tx
        .updateTable('dns_zones')
        .set({
          published_serial: serial,
          published_at: deps.now(),
          last_error: null,
          drift: JSON.stringify(drift),
          drift_checked_at: deps.now(),
          publish_state: sql<'pending' | 'published'>`CASE WHEN serial = ${serial} THEN 'published' ELSE publish_state END`,
          pending_deletes: sql<string[]>`ARRAY(SELECT unnest(pending_deletes) EXCEPT SELECT unnest(${deletes}::text[]))`,
        })
        .where('id', '=', zone.id)
        .returning(['publish_state', 'account_id'])
        .executeTakeFirst()
      if (row?.publish_state === 'published') await recordEvent(tx, { accountId: row.account_id, type: 'dns.zone.published', data: { id: zone.id, name: zone.name, serial } })
    })
  } catch (error) {
    const refused = error instanceof PowerDnsError && error.permanent
    const reason = error instanceof PowerDnsError ? error.reason : (error as Error).message
    await deps.db.transaction().execute(async (tx) => {
      const row = await tx
        .updateTable('dns_zones')
        .set({ last_error: reason, ...(refused ? { publish_state: sql<'failed'>`CASE WHEN serial = ${serial} THEN 'failed' ELSE publish_state END` } : {}) })
        .where('id', '=', zone.id)
        .returning(['publish_state', 'account_id'])
        .executeTakeFirst()
      if (refused && row?.publish_state === 'failed') await recordEvent(tx, { accountId: row.account_id, type: 'dns.zone.failed', data: { id: zone.id, name: zone.name, serial, reason } })
    })
    deps.logger.warn('dns publish failed', { zone: zone.name, serial, refused, reason })
    if (!refused) throw error
  }
}

/** Compares PowerDNS with our records now and stores the report on the zone. */
export async function detectDrift(deps: PlatformDeps, zone: DnsZone): Promise<DriftReport | null> {
  const client = powerDnsClient(deps)
  if (!client) return null
  const remote = await client.getZone(zone.name)
  const ours = await ourRrsets(deps, zone.id)
  const report = remote
    ? compareRrsets(ours, theirRrsets(remote.rrsets))
    : { missing: [...ours].map(([k, v]) => ({ name: k.split('\t')[0]!, type: k.split('\t')[1]!, ...v })), unexpected: [], different: [] }
  const drifting = (r: DriftReport | null | undefined) => Boolean(r && (r.missing.length || r.unexpected.length || r.different.length))
  // A zone that starts to drift is a webhook event (issue 20), written with the report.
  await deps.db.transaction().execute(async (tx) => {
    await tx
      .updateTable('dns_zones')
      .set({ drift: JSON.stringify(report), drift_checked_at: deps.now() })
      .where('id', '=', zone.id)
      .execute()
    if (drifting(report) && !drifting(zone.drift)) {
      await recordEvent(tx, {
        accountId: zone.account_id,
        type: 'dns.zone.drifted',
        data: { id: zone.id, name: zone.name, missing: report.missing.length, unexpected: report.unexpected.length, different: report.different.length },
      })
    }
  })
  return report
}

export async function signZone(deps: PlatformDeps, zoneId: string) {
  const client = powerDnsClient(deps)
  const zone = await deps.db.selectFrom('dns_zones').selectAll().where('id', '=', zoneId).executeTakeFirst()
  if (!zone || zone.dnssec_state !== 'signing') return
  if (!client) throw new Error('PowerDNS is not configured: the zone cannot be signed')
  // The zone must exist in PowerDNS before it can hold keys.
  if (!(await client.getZone(zone.name))) await publishZone(deps, zone.id)
  let keys = await client.listCryptokeys(zone.name)
  if (!keys.some((k) => k.active)) {
    await client.createCryptokey(zone.name)
    keys = await client.listCryptokeys(zone.name)
  }
  await client.rectify(zone.name)
  const ds = keys.filter((k) => k.active).flatMap((k) => k.ds ?? [])
  // The parent first: a registry failure throws and the job retries with the zone still
  // 'signing' (the keys stay; nothing is made twice). Only then is the zone shown as signed.
  if (zone.domain_id) await setDelegationSigner(deps, zone.domain_id, ds)
  await deps.db.updateTable('dns_zones').set({ dnssec_state: 'signed', ds_records: ds, updated_at: deps.now() }).where('id', '=', zone.id).execute()
  await setDomainDnssec(deps.db, zone.domain_id, true)
}

/** Seconds to wait between removing the DS at the parent and unsigning: the DS TTL. */
export const DS_TTL_SECONDS = { value: 86_400 }

export async function removeDs(deps: PlatformDeps, zoneId: string) {
  const zone = await deps.db.selectFrom('dns_zones').selectAll().where('id', '=', zoneId).executeTakeFirst()
  if (!zone || zone.dnssec_state !== 'unsigning') return
  // The DS leaves the parent before anything else; a failure retries this step.
  if (zone.domain_id) await setDelegationSigner(deps, zone.domain_id, [])
  await deps.jobs.send(DNS_JOBS.unsign, { zoneId }, { startAfterSeconds: DS_TTL_SECONDS.value, retryLimit: 10 })
}

export async function unsignZone(deps: PlatformDeps, zoneId: string) {
  const client = powerDnsClient(deps)
  const zone = await deps.db.selectFrom('dns_zones').selectAll().where('id', '=', zoneId).executeTakeFirst()
  if (!zone || zone.dnssec_state !== 'unsigning') return
  if (client) {
    for (const key of await client.listCryptokeys(zone.name)) await client.deleteCryptokey(zone.name, key.id)
    await client.rectify(zone.name)
  }
  await deps.db.updateTable('dns_zones').set({ dnssec_state: 'unsigned', ds_records: [], updated_at: deps.now() }).where('id', '=', zone.id).execute()
  await setDomainDnssec(deps.db, zone.domain_id, false)
}

/** Removes a deleted zone from PowerDNS (already gone is done). */
export async function unpublishZone(deps: PlatformDeps, name: string) {
  const client = powerDnsClient(deps)
  if (!client) return
  // A zone of that name created again in the meantime is not ours to remove.
  if (await deps.db.selectFrom('dns_zones').select('id').where('name', '=', name).where('verified_at', 'is not', null).executeTakeFirst()) return
  try {
    await client.deleteZone(name)
  } catch (error) {
    if (!(error instanceof PowerDnsError && error.status === 404)) throw error
  }
}

/** Zones whose drift is checked per sweep: the longest unchecked first, a bounded load per run. */
export const DRIFT_SWEEP_ZONES = 200

/**
 * Compares PowerDNS with our records for the published zones checked longest ago (never checked
 * first), so drift made directly in PowerDNS shows on the zone within a few sweeps without reading
 * every zone every time. Zones with a change on its way are left to their publish job.
 */
export async function sweepDrift(deps: PlatformDeps, limit = DRIFT_SWEEP_ZONES): Promise<number> {
  if (!powerDnsClient(deps)) return 0
  const zones = await deps.db
    .selectFrom('dns_zones')
    .selectAll()
    .where('publish_state', '=', 'published')
    .orderBy(sql`drift_checked_at ASC NULLS FIRST`)
    .orderBy('id')
    .limit(limit)
    .execute()
  for (const zone of zones) {
    try {
      await detectDrift(deps, zone)
    } catch (error) {
      deps.logger.warn('drift check failed', { zone: zone.name, error: error instanceof Error ? error.message : String(error) })
    }
  }
  return zones.length
}
