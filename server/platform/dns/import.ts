import type { ZoneImportResult } from '#common/dns.ts'
import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { from as copyFrom } from 'pg-copy-streams'
import { CompiledQuery, sql } from 'kysely'
import { BinaryCopyWriter, uuidBytes } from '#server/db/copy-binary.ts'
import { leaseConnection } from '#server/db/database.ts'
import type { DnsZone } from '#server/db/schema-dns.ts'
import { change, type Audit, type Tx } from '#server/platform/core/change.ts'
import { notFound } from '#server/platform/core/errors.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { KeySet } from './key-set.ts'
import { type RecordType } from './rdata.ts'
import { parseZoneBatches, ttlFloor } from './zone-parser.ts'
import { getZone, queuePublish, requireAccount, run } from './zones.ts'
import { bumpZone, rrKey, type RecordValue } from './changes.ts'

/** BIND zone-file import: parsed as it streams, staged or copied straight in, settled by one difference (decisions 201, 204). */

export type ImportSummary = ZoneImportResult<RecordType> & { zone?: DnsZone }

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
    const batches = goodBatches(source, zone, summary, file, ttlFloor(deps))
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
      await run(
        tx,
        `INSERT INTO dns_import (line, name, type, ttl, content, priority) SELECT 0, name, type, ttl, content, priority FROM dns_records WHERE zone_id = $1 AND name = $2 AND type = 'NS'`,
        [z, zone.name],
      )
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
    summary.zone = await bumpZone(
      deps,
      tx,
      zone,
      gone.map((g) => g.k),
    )
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
  ttlMin: number,
): AsyncGenerator<ZoneRecordRow[]> {
  let batch: ZoneRecordRow[] = []
  for await (const events of parseZoneBatches(source, { zone: zone.name, ttlMin })) {
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
  await run(
    tx,
    `INSERT INTO dns_import (line, name, type, ttl, content, priority) SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::text[], $6::int[]) AS u(l, n, t, ttl, c, p)`,
    [`{${lines}}`, `{${names}}`, `{${types}}`, `{${ttls}}`, `{${contents}}`, `{${priorities}}`],
  )
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
async function copyIntoRecords(tx: Tx, client: pg.PoolClient, zone: DnsZone, batches: AsyncIterable<ZoneRecordRow[]>, current: RecordValue[], ids: RecordIds, summary: ImportSummary): Promise<number> {
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
