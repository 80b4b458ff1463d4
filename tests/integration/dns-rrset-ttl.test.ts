import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemScope } from '#server/platform/core/scope.ts'
import { createZone, exportZone, importZone } from '#server/platform/dns/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// Issue 16 §13 (one TTL per RRset, RFC 2181 §5.2) and §14 (HTTPS and SVCB, RFC 9460; other types
// refused by line and type), on the import's two ways in and in the record editor's API.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let admin: string
let acme: string

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [1, 1] } })
  await platform.deps.jobs.start({ work: false })
  const login = await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })
  admin = login.json.access_token
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
})
afterAll(() => platform?.close())

const scope = () => systemScope('test', acme)

/** The zone's records other than the SOA, owner relative (`host.@`), so two zones compare. */
async function recordsOf(zone: { id: string; name: string }) {
  const rows = await sql<{
    r: string
  }>`SELECT replace(name, ${zone.name}, '@') || ' ' || ttl || ' ' || type || ' ' || content AS r FROM dns_records WHERE zone_id = ${zone.id} AND type <> 'SOA' ORDER BY 1`.execute(platform.db)
  return rows.rows.map((row) => row.r)
}

async function exported(zoneId: string) {
  let text = ''
  for await (const chunk of exportZone(platform.deps.database, scope(), zoneId)) text += chunk
  return text
}

const mixedTtls = (origin: string) =>
  [
    `$ORIGIN ${origin}.`,
    '$TTL 300',
    '@ NS ns1.registrar.example.',
    'host 60 A 192.0.2.1',
    'host A 192.0.2.2 ; takes $TTL 300: the RRset keeps 60',
    'other 120 TXT "between"',
    'host 900 A 192.0.2.3 ; the same RRset further down: 60 as well',
    'mail 600 MX 10 mx1.example.net.',
    'mail MX 20 mx2.example.net. ; 300 from $TTL: 600',
  ].join('\n')

describe('one TTL per RRset on import (RFC 2181 §5.2)', () => {
  it('keeps the first TTL of each RRset, the same way into a new zone (copied) and a full zone (staged), and warns per adjusted line', async () => {
    const copied = await createZone(platform.deps, scope(), { name: 'ttl-copied.test' })
    const preview = await importZone(platform.deps, scope(), copied.id, [mixedTtls('ttl-copied.test')], { dry_run: true })
    const warnings = preview.warnings.map((w) => ({ line: w.line, code: w.code, params: w.params }))
    expect(warnings).toEqual([
      { line: 5, code: 'rrset-ttl', params: { name: 'host.ttl-copied.test', type: 'A', given: 300, ttl: 60, first: 4 } },
      { line: 7, code: 'rrset-ttl', params: { name: 'host.ttl-copied.test', type: 'A', given: 900, ttl: 60, first: 4 } },
      { line: 9, code: 'rrset-ttl', params: { name: 'mail.ttl-copied.test', type: 'MX', given: 300, ttl: 600, first: 8 } },
    ])
    expect(preview.errors).toEqual([])
    expect(preview.added.filter((r) => r.name === 'host.ttl-copied.test').map((r) => r.ttl)).toEqual([60, 60, 60])

    const fresh = await importZone(platform.deps, scope(), copied.id, [mixedTtls('ttl-copied.test')])
    expect(fresh.applied).toBe(true)
    expect(fresh.warnings.map((w) => w.line)).toEqual([5, 7, 9])
    const mine = await recordsOf(copied)
    expect(mine).toEqual([
      '@ 300 NS ns1.registrar.example.',
      'host.@ 60 A 192.0.2.1',
      'host.@ 60 A 192.0.2.2',
      'host.@ 60 A 192.0.2.3',
      'mail.@ 600 MX 10 mx1.example.net.',
      'mail.@ 600 MX 20 mx2.example.net.',
      'other.@ 120 TXT "between"',
    ])

    // More than 1,000 records: the staging table's way (decision 204). Same file, same records.
    const staged = await createZone(platform.deps, scope(), { name: 'ttl-staged.test' })
    const filler = ['$ORIGIN ttl-staged.test.', '$TTL 300', '@ NS ns1.registrar.example.', ...Array.from({ length: 1100 }, (_, i) => `f${i} A 10.1.${i >> 8}.${i & 255}`)]
    expect((await importZone(platform.deps, scope(), staged.id, [filler.join('\n')])).counts.added).toBe(1100)
    const full = await importZone(platform.deps, scope(), staged.id, [mixedTtls('ttl-staged.test')])
    expect(full.applied).toBe(true)
    expect(full.warnings.map((w) => w.line)).toEqual([5, 7, 9])
    expect(full.counts.removed).toBe(1100)
    expect(await recordsOf(staged)).toEqual(mine)

    // The export has one TTL per RRset, as PowerDNS will serve it.
    const lines = (await exported(copied.id))
      .split('\n')
      .filter((l) => l.startsWith('host\t'))
      .sort()
    expect(lines).toEqual(['host\t60\tIN\tA\t192.0.2.1', 'host\t60\tIN\tA\t192.0.2.2', 'host\t60\tIN\tA\t192.0.2.3'])
  })

  it('a re-import that changes an RRset’s TTL changes every record of it', async () => {
    const zone = await createZone(platform.deps, scope(), { name: 'ttl-again.test' })
    await importZone(platform.deps, scope(), zone.id, ['$TTL 300\n@ NS ns1.registrar.example.\nwww A 192.0.2.1\nwww A 192.0.2.2'])
    const again = await importZone(platform.deps, scope(), zone.id, ['$TTL 300\n@ NS ns1.registrar.example.\nwww 600 A 192.0.2.2\nwww A 192.0.2.1'])
    expect(again.counts).toMatchObject({ changed: 2, added: 0, removed: 0 })
    expect(again.warnings.map((w) => w.line)).toEqual([4])
    expect((await recordsOf(zone)).filter((r) => r.startsWith('www'))).toEqual(['www.@ 600 A 192.0.2.1', 'www.@ 600 A 192.0.2.2'])
  })
})

describe('one TTL per RRset in the record editor', () => {
  let zoneId: string
  const post = (changes: unknown[], dryRun = false) => platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, { token: admin, body: { dry_run: dryRun, changes } })
  const www = async () =>
    (await platform.call('GET', `/groups/${acme}/zones/${zoneId}/records?filter[name]=www.editor-ttl.test&sort=content`, { token: admin })).json.data as { id: string; ttl: number; content: string }[]

  beforeAll(async () => {
    zoneId = (await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'editor-ttl.test' } })).json.id
    const res = await post([
      { action: 'add', name: 'www', type: 'A', ttl: 300, content: '192.0.2.1' },
      { action: 'add', name: 'www', type: 'A', content: '192.0.2.2' },
    ])
    expect(res.status, res.text).toBe(200)
  })

  it('a record added without a TTL takes its RRset’s', async () => {
    expect((await www()).map((r) => r.ttl)).toEqual([300, 300])
  })

  it('a TTL edited on one record becomes the RRset’s: the preview shows every record of the set changing, and applying stores it', async () => {
    const [first, second] = await www()
    const preview = await post([{ action: 'update', id: first!.id, ttl: 900 }], true)
    expect(preview.status, preview.text).toBe(200)
    expect(preview.json.diff.updated.map((u: { id: string; after: { ttl: number } }) => [u.id, u.after.ttl]).sort()).toEqual(
      [
        [first!.id, 900],
        [second!.id, 900],
      ].sort(),
    )
    expect((await www()).map((r) => r.ttl)).toEqual([300, 300])

    expect((await post([{ action: 'update', id: first!.id, ttl: 900 }])).status).toBe(200)
    expect((await www()).map((r) => r.ttl)).toEqual([900, 900])

    // A new record with its own TTL sets the RRset's TTL too.
    expect((await post([{ action: 'add', name: 'www', type: 'A', ttl: 120, content: '192.0.2.3' }])).status).toBe(200)
    expect((await www()).map((r) => r.ttl)).toEqual([120, 120, 120])
  })

  it('refuses two different TTLs for one RRset in one change set, naming the change', async () => {
    const [first, second] = await www()
    const res = await post([
      { action: 'update', id: first!.id, ttl: 600 },
      { action: 'update', id: second!.id, ttl: 700 },
    ])
    expect(res.status).toBe(400)
    expect(res.json.errors).toEqual([
      expect.objectContaining({ field: 'changes.1.ttl', code: 'dns.record.rrset-ttl', message: expect.stringMatching(/www\.editor-ttl\.test A is one record set with one TTL/) }),
    ])
    expect((await www()).map((r) => r.ttl)).toEqual([120, 120, 120])
  })
})

describe('HTTPS and SVCB (RFC 9460), and types the portal does not manage', () => {
  it('imports, stores and exports HTTPS and SVCB in the presentation format PowerDNS uses', async () => {
    const zone = await createZone(platform.deps, scope(), { name: 'svcb.test' })
    const file = [
      '$ORIGIN svcb.test.',
      '$TTL 300',
      '@ NS ns1.registrar.example.',
      '@ HTTPS 1 . alpn=h3,h2 port=8443 ipv4hint=192.0.2.1,192.0.2.2 ipv6hint=2001:DB8:0::1 ech="AEP+DQA/" mandatory=port,alpn',
      'www HTTPS 0 cdn.example.net.',
      '_dns SVCB 1 dns key7="/dns-query{?dns}" alpn=h2 no-default-alpn key65000="x y"',
    ].join('\n')
    const result = await importZone(platform.deps, scope(), zone.id, [file])
    expect(result.errors).toEqual([])
    expect(result.applied).toBe(true)
    expect(await recordsOf(zone)).toEqual([
      '@ 300 HTTPS 1 . mandatory=alpn,port alpn=h3,h2 port=8443 ipv4hint=192.0.2.1,192.0.2.2 ech="AEP+DQA/" ipv6hint=2001:db8::1',
      '@ 300 NS ns1.registrar.example.',
      '_dns.@ 300 SVCB 1 dns.svcb.test. alpn=h2 no-default-alpn key7="/dns-query{?dns}" key65000="x y"',
      'www.@ 300 HTTPS 0 cdn.example.net.',
    ])
    const text = await exported(zone.id)
    expect(text).toContain('www\t300\tIN\tHTTPS\t0 cdn.example.net.')
    // The export imports back unchanged.
    const again = await importZone(platform.deps, scope(), zone.id, [text])
    expect(again.counts).toMatchObject({ added: 0, changed: 0, removed: 0, unchanged: 4 })
  })

  it('refuses bad parameters and other types by line, with a code a screen can translate, and writes nothing', async () => {
    const zone = await createZone(platform.deps, scope(), { name: 'svcb-bad.test' })
    const file = [
      '$TTL 300',
      'a HTTPS 0 cdn.example.net. alpn=h2',
      'b HTTPS 1 . alpn=h2 alpn=h3',
      'c HTTPS 1 . mandatory=port',
      'd HTTPS 1 . port=99999',
      'e HTTPS 1 . colour=blue',
      'f LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m',
      'g SPF "v=spf1 -all"',
      'h DNAME example.net.',
      'i 60 A 192.0.2.1',
    ].join('\n')
    const res = await platform.call('POST', `/groups/${acme}/zones/${zone.id}/bind-import`, { token: admin, body: { text: file } })
    expect(res.status).toBe(400)
    const errors = res.json.errors as { line: number; message: string; code?: string; params?: Record<string, string> }[]
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9])
    expect(errors[0]!.message).toMatch(/priority 0 \(AliasMode\) takes no parameters/)
    expect(errors[1]!.message).toMatch(/alpn is given twice/)
    expect(errors[2]!.message).toMatch(/mandatory lists port, but the record has no port/)
    expect(errors.slice(5).map((e) => [e.code, e.params?.type])).toEqual([
      ['type-unsupported', 'LOC'],
      ['type-unsupported', 'SPF'],
      ['type-unsupported', 'DNAME'],
    ])
    expect(await recordsOf(zone)).toEqual(['@ 3600 NS ns1.registrar.example.', '@ 3600 NS ns2.registrar.example.'])
  })

  it('the record editor adds and validates HTTPS records', async () => {
    const zoneId = (await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'svcb-editor.test' } })).json.id
    const good = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, {
      token: admin,
      body: { changes: [{ action: 'add', name: '@', type: 'HTTPS', content: '1 . alpn=h2 port=443' }] },
    })
    expect(good.status, good.text).toBe(200)
    expect(good.json.diff.added[0]).toMatchObject({ type: 'HTTPS', content: '1 . alpn=h2 port=443', priority: 1 })
    const bad = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, { token: admin, body: { changes: [{ action: 'add', name: 'x', type: 'SVCB', content: '0 . port=443' }] } })
    expect(bad.status).toBe(400)
    expect(bad.json.errors).toEqual([expect.objectContaining({ field: 'changes.0.content', code: 'dns.record.content-invalid', record_type: 'SVCB', message: expect.stringMatching(/AliasMode/) })])
  })
})
