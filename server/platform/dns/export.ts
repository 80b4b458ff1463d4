import type pg from 'pg'
import { to as copyTo } from 'pg-copy-streams'
import { type Kysely } from 'kysely'
import { type Database } from '#server/db/database.ts'
import type { DB } from '#server/db/schema.ts'
import type { DnsZone } from '#server/db/schema-dns.ts'
import { type Tx } from '#server/platform/core/change.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import { getZone, run } from './zones.ts'

/** BIND zone-file export, streamed (decision 201). */

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
    const apex = await client.query<{ text: string | null }>(
      `SELECT string_agg(${exportLine(name)}, E'\\n' ${APEX_ORDER}) AS text FROM dns_records WHERE zone_id = ${id} AND name = ${name} AND type IN ('SOA', 'NS')`,
    )
    if (apex.rows[0]?.text) yield `${apex.rows[0].text}\n`
    const stream = client.query(
      copyTo(
        `COPY (SELECT ${exportLine(name)} FROM dns_records WHERE zone_id = ${id} AND NOT (name = ${name} AND type IN ('SOA', 'NS'))) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`,
      ),
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
    const [apex] = await run<{ text: string | null }>(tx, `SELECT string_agg(${line}, E'\\n' ${APEX_ORDER}) AS text FROM dns_records WHERE zone_id = $1 AND name = $2 AND type IN ('SOA', 'NS')`, [
      zone.id,
      zone.name,
    ])
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
