import { createHash } from 'node:crypto'
import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import type { Kysely } from 'kysely'
import { getDomain, getPublicSuffix } from 'tldts'
import { FUZZERS } from '#common/brand.ts'
import { toUnicodeName } from '#common/domain-name.ts'
import type { DB } from '#server/db/schema.ts'
import type { CandidateEvidence, CtSighting, FeedSource } from '#server/db/schema-brand.ts'
import type { CtEntry, CtLogSource } from '#server/integrations/ct/index.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { liveDomainsNamed } from '#server/platform/domains/reads.ts'
import { recordEvent } from '#server/platform/webhooks/outbox.ts'
import { LookalikeIndex, type Match } from './match.ts'
import { diffZoneNames, namesOfZoneFile } from './zone-file.ts'

/**
 * Brand protection's feeds (issue 30), run as jobs (jobs.ts): the Certificate Transparency monitor
 * reads each configured log from where it left off, the zone feed compares each TLD's newest zone
 * file with the one read before; the names of new certificates and new delegations are matched
 * against every account's brands through one `LookalikeIndex`, and each match becomes (or updates)
 * a candidate of that brand, registered, with the certificate or the zone file as evidence and
 * stamped new by the feed (`changed_at`, `changed_by`) — "new since the last run" on the screen —
 * with a `brand.detection` webhook event.
 */

/** Where the feeds read (server/config.ts: CT_LOG_URLS, ZONE_FEED_DIR; the demo's local CT log). */
export type BrandFeeds = NonNullable<PlatformDeps['brandFeeds']>

type FeedDeps = Pick<PlatformDeps, 'db' | 'now' | 'logger'> & { brandFeeds?: BrandFeeds | undefined }

/** A log first read starts this many entries before its end (a real log holds billions); the local log is read whole. */
export const CT_BACKFILL = 1000
/** Entries read per log per run, at most (the next run goes on from there). */
export const CT_MAX_PER_RUN = 50_000
const CT_BATCH = 256
const CT_KEPT = 10

/** Every brand of every account in one index, with the account each belongs to. */
export async function brandIndex(db: Pick<Kysely<DB>, 'selectFrom'>): Promise<{ index: LookalikeIndex; accountOf: Map<string, string> }> {
  const brands = await db.selectFrom('brands').select(['id', 'account_id', 'label', 'domains', 'dictionary']).execute()
  const accountOf = new Map<string, string>()
  const index = new LookalikeIndex(
    brands.map((b) => {
      accountOf.set(b.id, b.account_id)
      const suffixes = b.domains.map((d) => getPublicSuffix(d) ?? '').filter(Boolean)
      return { id: b.id, name: b.domains[0] ?? `${b.label}.com`, suffixes: suffixes.length ? suffixes : ['com'], ...(b.dictionary.length ? { dictionary: b.dictionary } : {}) }
    }),
  )
  return { index, accountOf }
}

/** A name seen by a feed and what matched it. */
export type FeedMatch = { name: string; matches: Match[]; evidence: Pick<CandidateEvidence, 'ct' | 'zone'> }

/**
 * Matches a feed's names (a certificate's, a zone's new delegations) against the index: each name
 * as written (a wildcard's `*.` dropped), stored under the registrable name behind it.
 */
export function matchNames(index: LookalikeIndex, names: Iterable<string>): { name: string; registers: string; matches: Match[] }[] {
  const found: { name: string; registers: string; matches: Match[] }[] = []
  for (const raw of names) {
    const name = raw.toLowerCase().replace(/^\*\./, '').replace(/\.$/, '')
    const matches = index.match(name)
    const registers = getDomain(name, { allowPrivateDomains: false })
    if (matches.length && registers) found.push({ name, registers, matches })
  }
  return found
}

/**
 * Records what a feed found: each (brand, registrable name) a candidate, made when new (registered;
 * ours when the account holds it), its evidence merged and stamped new by the feed unless it is the
 * account's own or a person marked it safe. Answers how many candidates were stamped.
 */
export async function recordFeedMatches(db: Kysely<DB>, source: FeedSource, found: FeedMatch[], accountOf: ReadonlyMap<string, string>, now: Date): Promise<number> {
  if (!found.length) return 0
  // One row per (brand, registrable name): several names of one certificate (www., a wildcard) are one candidate.
  const byKey = new Map<string, { brandId: string; accountId: string; name: string; fuzzers: Set<string>; score: number; evidence: FeedMatch['evidence'] }>()
  for (const f of found)
    for (const m of f.matches) {
      const accountId = accountOf.get(m.brand)
      if (!accountId) continue
      const key = `${m.brand} ${f.name}`
      const known = byKey.get(key)
      if (known) {
        for (const x of m.fuzzers) known.fuzzers.add(x)
        known.score = Math.max(known.score, m.score)
        for (const sighting of f.evidence.ct ?? []) if (!known.evidence.ct?.some((s) => s.log === sighting.log && s.index === sighting.index)) (known.evidence.ct ??= []).push(sighting)
      } else byKey.set(key, { brandId: m.brand, accountId, name: f.name, fuzzers: new Set(m.fuzzers), score: m.score, evidence: { ...f.evidence } })
    }
  let stamped = 0
  await db.transaction().execute(async (tx) => {
    for (const [accountId, rows] of Map.groupBy(byKey.values(), (r) => r.accountId)) {
      const names = [...new Set(rows.map((r) => r.name))]
      const ours = new Set((await liveDomainsNamed(tx, accountId, names).select('domains.name').execute()).map((d) => d.name))
      const existing = await tx
        .selectFrom('brand_candidates')
        .select(['id', 'brand_id', 'name', 'status', 'evidence', 'fuzzers', 'score'])
        .where('account_id', '=', accountId)
        .where('name', 'in', names)
        .forUpdate()
        .execute()
      const current = new Map(existing.map((c) => [`${c.brand_id} ${c.name}`, c]))
      for (const row of rows) {
        const before = current.get(`${row.brandId} ${row.name}`)
        const evidence: CandidateEvidence = { ...(before?.evidence ?? {}) }
        if (row.evidence.ct) {
          const seen = new Set(row.evidence.ct.map((s) => `${s.log} ${s.index}`))
          evidence.ct = [...row.evidence.ct, ...(evidence.ct ?? []).filter((s) => !seen.has(`${s.log} ${s.index}`))].slice(0, CT_KEPT)
        }
        if (row.evidence.zone && !evidence.zone) evidence.zone = row.evidence.zone
        const own = ours.has(row.name) || before?.status === 'ours'
        const quiet = own || before?.status === 'safe'
        const stamp = quiet ? {} : { changed_at: now, changed_by: source }
        if (!quiet) stamped++
        let id = before?.id
        if (before) {
          await tx
            .updateTable('brand_candidates')
            .set({
              evidence: JSON.stringify(evidence),
              ...(before.status === 'unchecked' || before.status === 'available' ? { status: own ? 'ours' : 'registered', price_minor: null, currency: null } : {}),
              ...stamp,
            })
            .where('id', '=', before.id)
            .execute()
        } else {
          const made = await tx
            .insertInto('brand_candidates')
            .values({
              brand_id: row.brandId,
              account_id: accountId,
              name: row.name,
              unicode_name: toUnicodeName(row.name),
              tld: getPublicSuffix(row.name) ?? row.name.slice(row.name.lastIndexOf('.') + 1),
              fuzzers: FUZZERS.filter((x) => row.fuzzers.has(x)),
              score: row.score,
              status: own ? 'ours' : 'registered',
              evidence: JSON.stringify(evidence),
              first_seen_at: now,
              ...stamp,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
          id = made.id
        }
        // `brand.detection` (webhooks): what a person would want to hear of at once, with the feed's evidence.
        if (!quiet && id) {
          const certificate = row.evidence.ct?.[0]
          await recordEvent(tx, {
            accountId,
            type: 'brand.detection',
            data: {
              candidate_id: id,
              brand_id: row.brandId,
              name: row.name,
              unicode_name: toUnicodeName(row.name),
              source,
              fuzzers: FUZZERS.filter((x) => row.fuzzers.has(x)),
              score: row.score,
              status: before && before.status !== 'unchecked' && before.status !== 'available' ? before.status : 'registered',
              ...(certificate
                ? {
                    certificate: {
                      log: certificate.log,
                      index: certificate.index,
                      names: certificate.names,
                      issuer: certificate.issuer,
                      not_before: certificate.not_before,
                      not_after: certificate.not_after,
                      serial: certificate.serial,
                    },
                  }
                : {}),
              ...(row.evidence.zone ? { zone: { tld: row.evidence.zone.tld, file: row.evidence.zone.file } } : {}),
            },
          })
        }
      }
    }
  })
  return stamped
}

async function startRun(db: Kysely<DB>, source: FeedSource, now: Date) {
  return (await db.insertInto('brand_feed_runs').values({ source, started_at: now }).returning('id').executeTakeFirstOrThrow()).id
}

async function endRun(db: Kysely<DB>, id: string, now: Date, figures: { read: number; matched: number; error?: string }) {
  await db
    .updateTable('brand_feed_runs')
    .set({ finished_at: now, read: figures.read, matched: figures.matched, error: figures.error ?? null })
    .where('id', '=', id)
    .execute()
}

const ctSighting = (log: string, entry: CtEntry, seen: Date): CtSighting => ({
  log,
  index: entry.index,
  names: entry.names.slice(0, 20),
  issuer: entry.issuer,
  not_before: entry.notBefore,
  not_after: entry.notAfter,
  serial: entry.serial,
  seen: seen.toISOString(),
})

/** Where a log's position is kept: its id when its key is known (the same log at another address is the same log), else its URL. */
export const ctLogKey = (log: CtLogSource) => (log.key ? createHash('sha256').update(Buffer.from(log.key, 'base64')).digest('base64') : log.url)

export type CtRunResult = { logs: { url: string; from: number; to: number; error?: string }[]; read: number; matched: number }

/**
 * One run of the CT monitor: for each configured log, its signed tree head, then its entries from
 * the position kept for it (a log first read: `CT_BACKFILL` before its end) up to the head, at
 * most `CT_MAX_PER_RUN`; each batch's matches recorded with the position it reached, so a run cut
 * short goes on from there. A log that fails is recorded and the others are read.
 */
export async function runCtMonitor(deps: FeedDeps): Promise<CtRunResult> {
  const ct = deps.brandFeeds?.ct
  const result: CtRunResult = { logs: [], read: 0, matched: 0 }
  if (!ct?.logs.length) return result
  const started = deps.now()
  const { index, accountOf } = await brandIndex(deps.db)
  const errors: string[] = []
  for (const log of ct.logs) {
    const key = ctLogKey(log)
    const position = await deps.db.selectFrom('ct_log_positions').select('tree_size').where('log', '=', key).executeTakeFirst()
    let next = 0
    try {
      const sth = await ct.client.getSth(log)
      next = position ? Number(position.tree_size) : Math.max(0, sth.treeSize - CT_BACKFILL)
      const from = next
      const end = Math.min(sth.treeSize, next + CT_MAX_PER_RUN)
      while (next < end) {
        const { entries, read } = await ct.client.getEntries(log, next, Math.min(end, next + CT_BATCH) - 1)
        if (!read) break
        const found: FeedMatch[] = []
        const now = deps.now()
        for (const entry of entries)
          for (const m of matchNames(index, entry.names)) found.push({ name: m.registers, matches: m.matches, evidence: { ct: [ctSighting(log.description ?? log.url, entry, now)] } })
        result.matched += await recordFeedMatches(deps.db, 'ct', found, accountOf, now)
        next += read
        result.read += read
        await deps.db
          .insertInto('ct_log_positions')
          .values({ log: key, tree_size: next, updated_at: now })
          .onConflict((oc) => oc.column('log').doUpdateSet({ tree_size: next, updated_at: now }))
          .execute()
      }
      result.logs.push({ url: log.url, from, to: next })
    } catch (error) {
      const message = (error as Error).message
      deps.logger.warn('ct monitor: a log could not be read', { log: log.url, error: message })
      errors.push(`${log.url}: ${message}`)
      result.logs.push({ url: log.url, from: next, to: next, error: message })
    }
  }
  // A run that read nothing is not a run: the candidates the last one found stay new.
  if (result.read || errors.length)
    await endRun(deps.db, await startRun(deps.db, 'ct', started), deps.now(), { read: result.read, matched: result.matched, ...(errors.length ? { error: errors.join('; ').slice(0, 2000) } : {}) })
  return result
}

/** A zone file's TLD from its name as CZDS and operators keep them: `com.zone`, `com.txt.gz`, `com-20261128.zone`, `xn--p1ai_2026-11-28.txt`. */
export function zoneFileTld(file: string): string | null {
  const m = /^([a-z0-9-]+?)(?:[._-]\d{4}-?\d{2}-?\d{2})?\.(?:zone|txt)(?:\.gz)?$/i.exec(file)
  return m ? m[1]!.toLowerCase() : null
}

export type ZoneRunResult = { zones: { tld: string; file: string; names: number; added: number; dropped: number; matched: number; base: string | null }[]; read: number; matched: number }

/**
 * One run of the zone feed: for each TLD in the folder, its newest file (by the date in its name,
 * else its modification time) against the one read last time (while it is still in the folder): the
 * names delegated since matched against every brand. A TLD's first file is the base: nothing in it
 * is new. A file already read is not read again.
 */
export async function runZoneFeeds(deps: FeedDeps): Promise<ZoneRunResult> {
  const dir = deps.brandFeeds?.zoneDir
  const result: ZoneRunResult = { zones: [], read: 0, matched: 0 }
  if (!dir) return result
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((f) => f.isFile() && zoneFileTld(f.name))
    .map((f) => ({ name: f.name, tld: zoneFileTld(f.name)!, mtime: statSync(path.join(dir, f.name)).mtimeMs, dated: /\d{4}-?\d{2}-?\d{2}/.exec(f.name)?.[0]?.replace(/-/g, '') ?? '' }))
  const newest = new Map<string, (typeof files)[number]>()
  for (const f of files) {
    const known = newest.get(f.tld)
    if (!known || (f.dated || '') > (known.dated || '') || (f.dated === known.dated && f.mtime > known.mtime)) newest.set(f.tld, f)
  }
  const positions = new Map((await deps.db.selectFrom('zone_feed_positions').select(['tld', 'file']).execute()).map((p) => [p.tld, p.file]))
  const pending = [...newest].filter(([tld, file]) => positions.get(tld) !== file.name)
  // Nothing new in the folder is no run: the candidates the last run found stay new.
  if (!pending.length) return result
  const runId = await startRun(deps.db, 'zone', deps.now())
  const { index, accountOf } = await brandIndex(deps.db)
  const errors: string[] = []
  for (const [tld, file] of pending) {
    const position = positions.has(tld) ? { file: positions.get(tld)! } : undefined
    try {
      const after = await namesOfZoneFile(path.join(dir, file.name), tld)
      const base = position && files.some((f) => f.name === position.file) ? position.file : null
      const before = base ? await namesOfZoneFile(path.join(dir, base), tld) : after
      const { added, dropped } = diffZoneNames(before, after)
      const now = deps.now()
      const found: FeedMatch[] = []
      for (const m of matchNames(index, added)) found.push({ name: m.registers, matches: m.matches, evidence: { zone: { tld, file: file.name, seen: now.toISOString() } } })
      const matched = await recordFeedMatches(deps.db, 'zone', found, accountOf, now)
      await deps.db
        .insertInto('zone_feed_positions')
        .values({ tld, file: file.name, names: after.size, updated_at: now })
        .onConflict((oc) => oc.column('tld').doUpdateSet({ file: file.name, names: after.size, updated_at: now }))
        .execute()
      result.zones.push({ tld, file: file.name, names: after.size, added: added.length, dropped: dropped.length, matched, base })
      result.read += after.size
      result.matched += matched
    } catch (error) {
      const message = (error as Error).message
      deps.logger.warn('zone feed: a zone file could not be read', { tld, file: file.name, error: message })
      errors.push(`${file.name}: ${message}`)
    }
  }
  await endRun(deps.db, runId, deps.now(), { read: result.read, matched: result.matched, ...(errors.length ? { error: errors.join('; ').slice(0, 2000) } : {}) })
  return result
}
