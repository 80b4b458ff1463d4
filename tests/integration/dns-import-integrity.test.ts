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
})
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
    const rows = await sql<{ zone_id: string; account_id: string; n: number }>`SELECT zone_id, account_id, count(*)::int AS n FROM dns_records WHERE zone_id = ${zone.id} GROUP BY 1, 2`.execute(
      platform.db,
    )
    expect(rows.rows).toEqual([{ zone_id: zone.id, account_id: accountId, n: 1001 + 1 /* SOA */ }])
    // The constraint is declared and checked for any other insert.
    const constraint = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_constraint WHERE conname = 'dns_records_zone_account_fkey' AND contype = 'f'`.execute(platform.db)
    expect(constraint.rows[0]!.n).toBe(1)
    const other = (await platform.db.insertInto('accounts').values({ name: 'Other' }).returning('id').executeTakeFirstOrThrow()).id
    await expect(platform.db.insertInto('dns_records').values({ zone_id: zone.id, account_id: other, name: 'x.integrity.test', type: 'A', ttl: 60, content: '192.0.2.1' }).execute()).rejects.toThrow(
      /foreign key/,
    )
    // After the import the session's checks are back: the setting was local to its transaction.
    expect((await sql<{ v: string }>`SELECT current_setting('session_replication_role') AS v`.execute(platform.db)).rows[0]!.v).toBe('origin')
  })

  it('stages any record text exactly: quotes, backslashes, braces, commas, spaces, a tab (kept as \\009), NULL-like words, \\N', async () => {
    const scope = systemScope('test', accountId)
    const zone = await createZone(platform.deps, scope, { name: 'text.test' })
    const lines = ['$ORIGIN text.test.', '$TTL 300', '@ NS ns1.text.test.', 'a TXT "say \\"hi\\", {x}, \\\\ back" "NULL"', 'b TXT NULL', 'c TXT "{,}"', 'mx MX 10 mail', 't TXT "a\ttab" \\N "\\\\N"']
    const result = await importZone(platform.deps, scope, zone.id, [lines.join('\n')])
    expect(result.errors).toEqual([])
    const rows = await sql<{
      name: string
      content: string
      priority: number | null
    }>`SELECT name, content, priority FROM dns_records WHERE zone_id = ${zone.id} AND type IN ('TXT', 'MX') ORDER BY name`.execute(platform.db)
    expect(rows.rows).toEqual([
      { name: 'a.text.test', content: '"say \\"hi\\", {x}, \\\\ back" "NULL"', priority: null },
      { name: 'b.text.test', content: '"NULL"', priority: null },
      { name: 'c.text.test', content: '"{,}"', priority: null },
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

  it("a source that fails half-way writes nothing, and the import's connection is not given back to the pool broken", async () => {
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
    const states = await Promise.all(
      Array.from({ length: 10 }, () => sql<{ aborted: number }>`SELECT (SELECT count(*) FROM pg_stat_activity WHERE state = 'idle in transaction (aborted)')::int AS aborted`.execute(platform.db)),
    )
    expect(states.map((r) => r.rows[0]!.aborted)).toEqual(Array(10).fill(0))
    // And the same zone imports afterwards.
    const again = await importZone(platform.deps, scope, zone.id, [file('broken-upload.test', 10)])
    expect(again.applied).toBe(true)
    expect(again.counts.added).toBe(21)
  })

  it('a zone that holds little yet (copied in) and a full zone (staged) end with the same records and counts', async () => {
    // Decision 204: a new zone takes the file straight into dns_records on PostgreSQL; a zone with
    // more than 1,000 records goes through the staging table. Same file, same result.
    const scope = systemScope('test', accountId)
    const tricky = (origin: string) =>
      [
        `$ORIGIN ${origin}.`,
        '$TTL 300',
        '@ 600 NS ns1.registrar.example. ; the zone has it with 3600: changed',
        '@ NS ns3.example.net. ; new; ns2.registrar.example is not in the file: removed',
        'www 600 A 192.0.2.1',
        'www 900 A 192.0.2.1 ; the same key again: the first line wins',
        'mail MX 10 mx.example.net.',
        'mail 100 MX 10 mx.example.net.',
        'mail 100 MX 20 mx2.example.net.',
        ...Array.from({ length: 50 }, (_, i) => `h${i} A 10.9.0.${i}`),
        'h0 A 10.9.0.0',
      ].join('\n')
    // Names relative to the zone (`www.@`), so that two zones compare.
    const records = async (zone: { id: string; name: string }) =>
      (
        await sql<{
          r: string
        }>`SELECT replace(name, ${zone.name}, '@') || ' ' || type || ' ' || ttl || ' ' || content AS r FROM dns_records WHERE zone_id = ${zone.id} AND type <> 'SOA' ORDER BY 1`.execute(platform.db)
      ).rows.map((row) => row.r)

    const copied = await createZone(platform.deps, scope, { name: 'copied.test' })
    const fresh = await importZone(platform.deps, scope, copied.id, [tricky('copied.test')])
    expect(fresh.counts).toEqual({ added: 1 + 1 + 2 + 50, changed: 1, removed: 1, unchanged: 0 })
    expect(fresh.changed).toEqual([
      { before: expect.objectContaining({ content: 'ns1.registrar.example.', ttl: 3600 }), after: expect.objectContaining({ content: 'ns1.registrar.example.', ttl: 600 }) },
    ])
    expect(fresh.removed).toEqual([expect.objectContaining({ content: 'ns2.registrar.example.' })])

    const staged = await createZone(platform.deps, scope, { name: 'staged.test' })
    expect((await importZone(platform.deps, scope, staged.id, [file('staged.test', 600)])).counts.added).toBe(1201)
    const full = await importZone(platform.deps, scope, staged.id, [
      tricky('staged.test').replace('@ 600 NS ns1.registrar.example.', '@ 600 NS ns1.registrar.example.\n@ 3600 NS ns2.registrar.example.\n@ NS ns1.staged.test.'),
    ])
    expect(full.applied).toBe(true)

    const mine = await records(copied)
    expect(mine).toContain('www.@ A 600 192.0.2.1')
    expect(mine).toContain('mail.@ MX 300 10 mx.example.net.')
    expect(mine).toHaveLength(2 + 1 + 2 + 50)
    // The staged zone had ns2 and its own ns1 in the file as well; apart from those, the same records.
    expect((await records(staged)).filter((r) => !r.includes('ns2.registrar') && !r.includes('ns1.staged'))).toEqual(mine)

    // A file without apex NS into a new zone: its name servers stay, unchanged.
    const keeps = await createZone(platform.deps, scope, { name: 'keeps.test' })
    const kept = await importZone(platform.deps, scope, keeps.id, ['$ORIGIN keeps.test.\n$TTL 300\nwww A 192.0.2.7\nwww A 192.0.2.7'])
    expect(kept.counts).toEqual({ added: 1, changed: 0, removed: 0, unchanged: 2 })
    expect(kept.notes).toContain('The file has no NS records at the apex: the current name servers stay.')
  })
})
