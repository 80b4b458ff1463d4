import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemScope } from '#server/platform/core/scope.ts'
import { createZone, importZone } from '#server/platform/dns/service.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// Decision 203: the import checks the zone reference once per statement instead of once per row.
// The foreign key stays declared and enforced for every other write; the import's rows can only
// carry the zone's own (id, account_id), from the zone row it holds locked.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let accountId: string

beforeAll(async () => {
  platform = await createTestPlatform()
  await platform.deps.jobs.start({ work: false })
  accountId = (await platform.db.insertInto('accounts').values({ name: 'Integrity' }).returning('id').executeTakeFirstOrThrow()).id
}, 60_000)
afterAll(() => platform?.close())

const file = (origin: string, hosts: number) => {
  const lines = [`$ORIGIN ${origin}.`, '$TTL 300', `@ NS ns1.${origin}.`]
  for (let i = 0; i < hosts; i++) lines.push(`h${i} A 10.0.${(i >> 8) & 255}.${i & 255}`, `h${i} TXT "n=${i}"`)
  return lines.join('\n')
}

describe('zone import and the zone reference', () => {
  it('writes every row with its zone and account, and the foreign key still holds for other writes', async () => {
    const scope = systemScope('test', accountId)
    const zone = await createZone(platform.deps, scope, { name: 'integrity.test' })
    const result = await importZone(platform.deps, scope, zone.id, [file('integrity.test', 500)])
    expect(result.applied).toBe(true)
    expect(result.counts.added).toBe(1001)
    const rows = await sql<{ zone_id: string; account_id: string; n: number }>`SELECT zone_id, account_id, count(*)::int AS n FROM dns_records WHERE zone_id = ${zone.id} GROUP BY 1, 2`.execute(platform.db)
    expect(rows.rows).toEqual([{ zone_id: zone.id, account_id: accountId, n: 1001 + 1 /* SOA */ }])
    // The constraint is declared and checked for any other insert.
    const constraint = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_constraint WHERE conname = 'dns_records_zone_account_fkey' AND contype = 'f'`.execute(platform.db)
    expect(constraint.rows[0]!.n).toBe(1)
    const other = (await platform.db.insertInto('accounts').values({ name: 'Other' }).returning('id').executeTakeFirstOrThrow()).id
    await expect(platform.db.insertInto('dns_records').values({ zone_id: zone.id, account_id: other, name: 'x.integrity.test', type: 'A', ttl: 60, content: '192.0.2.1' }).execute()).rejects.toThrow(/foreign key/)
    // After the import the session's checks are back: the setting was local to its transaction.
    expect((await sql<{ v: string }>`SELECT current_setting('session_replication_role') AS v`.execute(platform.db)).rows[0]!.v).toBe('origin')
  })

  it('stages any record text exactly: quotes, backslashes, braces, commas, spaces, a tab (kept as \\009), NULL-like words, \\N', async () => {
    const scope = systemScope('test', accountId)
    const zone = await createZone(platform.deps, scope, { name: 'text.test' })
    const lines = ['$ORIGIN text.test.', '$TTL 300', '@ NS ns1.text.test.', 'a TXT "say \\"hi\\", {x}, \\\\ back" "NULL"', 'b TXT NULL', 'c\\,d TXT "{}"', 'mx MX 10 mail', 't TXT "a\ttab" \\N "\\\\N"']
    const result = await importZone(platform.deps, scope, zone.id, [lines.join('\n')])
    expect(result.errors).toEqual([])
    const rows = await sql<{ name: string; content: string; priority: number | null }>`SELECT name, content, priority FROM dns_records WHERE zone_id = ${zone.id} AND type IN ('TXT', 'MX') ORDER BY name`.execute(platform.db)
    expect(rows.rows).toEqual([
      { name: 'a.text.test', content: '"say \\"hi\\", {x}, \\\\ back" "NULL"', priority: null },
      { name: 'b.text.test', content: '"NULL"', priority: null },
      { name: 'c\\,d.text.test', content: '"{}"', priority: null },
      { name: 'mx.text.test', content: '10 mail.text.test.', priority: 10 },
      { name: 't.text.test', content: '"a\\009tab" "N" "\\\\N"', priority: null },
    ])
  })

  it('keeps per-row checks when dns_records has a trigger of its own, which then fires for every row', async () => {
    const scope = systemScope('test', accountId)
    const zone = await createZone(platform.deps, scope, { name: 'trigger.test' })
    await sql`CREATE TABLE dns_trigger_seen (n int NOT NULL)`.execute(platform.db)
    await sql`CREATE FUNCTION dns_trigger_seen_fn() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO dns_trigger_seen VALUES (1); RETURN NEW; END $$`.execute(platform.db)
    await sql`CREATE TRIGGER dns_trigger_seen_trg AFTER INSERT ON dns_records FOR EACH ROW EXECUTE FUNCTION dns_trigger_seen_fn()`.execute(platform.db)
    try {
      const result = await importZone(platform.deps, scope, zone.id, [file('trigger.test', 20)])
      expect(result.counts.added).toBe(41)
      expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_trigger_seen`.execute(platform.db)).rows[0]!.n).toBe(41)
    } finally {
      await sql`DROP TRIGGER dns_trigger_seen_trg ON dns_records`.execute(platform.db)
      await sql`DROP FUNCTION dns_trigger_seen_fn()`.execute(platform.db)
      await sql`DROP TABLE dns_trigger_seen`.execute(platform.db)
    }
  })

  it('a source that fails half-way writes nothing, and the import\'s connection is not given back to the pool broken', async () => {
    const scope = systemScope('test', accountId)
    const zone = await createZone(platform.deps, scope, { name: 'broken-upload.test' })
    const before = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_records WHERE zone_id = ${zone.id}`.execute(platform.db)).rows[0]!.n
    // An upload that breaks off after enough lines for several batches to be on their way to the database.
    async function* brokenUpload() {
      yield `${file('broken-upload.test', 30_000)}\n`
      throw new Error('connection reset by the browser')
    }
    await expect(importZone(platform.deps, scope, zone.id, brokenUpload())).rejects.toThrow('connection reset by the browser')
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_records WHERE zone_id = ${zone.id}`.execute(platform.db)).rows[0]!.n).toBe(before)
    // Every connection of the pool still works, outside any transaction (ten at once: more than the pool holds).
    const states = await Promise.all(Array.from({ length: 10 }, () => sql<{ aborted: number }>`SELECT (SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction (aborted)')::int AS aborted`.execute(platform.db)))
    expect(states.map((r) => r.rows[0]!.aborted)).toEqual(Array(10).fill(0))
    // And the same zone imports afterwards.
    const again = await importZone(platform.deps, scope, zone.id, [file('broken-upload.test', 10)])
    expect(again.applied).toBe(true)
    expect(again.counts.added).toBe(21)
  })
})
