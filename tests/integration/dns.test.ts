import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ZONE_FILE_MAX_BYTES } from '#common/zone-file.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { exportZone, importZone } from '#server/platform/dns/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform, TEST_CONFIG } from '#tests/support/platform.ts'

// No PowerDNS here: the portal still manages every record and shows the zone as not published.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let admin: string
let viewer: string
let otherAdmin: string
let acme: string
let zoneId: string

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [2, 1] } })
  // Jobs are queued (publish) but nobody works them here, as with WORKER=0.
  await platform.deps.jobs.start({ work: false })
  admin = await login('admin@acme.example')
  viewer = await login('viewer@acme.example')
  otherAdmin = await login('admin@globex.example')
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  const created = await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'Standalone.Test.' } })
  expect(created.status).toBe(201)
  zoneId = created.json.id
})
afterAll(() => platform?.close())

const records = async (query = '') => (await platform.call('GET', `/groups/${acme}/zones/${zoneId}/records${query}`, { token: admin })).json

describe('zones without PowerDNS', () => {
  it('creates a zone with a managed SOA and NS, shown as not published', async () => {
    const zone = (await platform.call('GET', `/groups/${acme}/zones/${zoneId}`, { token: viewer })).json
    expect(zone).toMatchObject({ name: 'standalone.test', publish_state: 'pending', published: false, powerdns_configured: false })
    const list = await records('?sort=type')
    expect(list.data.map((r: { type: string }) => r.type)).toEqual(['NS', 'NS', 'SOA'])
    expect(list.data.find((r: { type: string }) => r.type === 'SOA').content).toContain(` ${zone.serial} `)
  })

  it('previews a change set without writing, then applies it in one change with a new serial', async () => {
    const before = (await platform.call('GET', `/groups/${acme}/zones/${zoneId}`, { token: admin })).json
    const changes = [
      { action: 'add', name: 'www', type: 'A', ttl: 300, content: '192.0.2.1' },
      { action: 'add', name: 'bücher', type: 'AAAA', content: '2001:DB8:0::1' },
      { action: 'add', name: '@', type: 'CAA', content: '0 issue "letsencrypt.org"' },
    ]
    const preview = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, { token: admin, body: { dry_run: true, changes } })
    expect(preview.status).toBe(200)
    expect(preview.json.applied).toBe(false)
    expect(preview.json.diff.added.map((r: { name: string; content: string }) => `${r.name} ${r.content}`)).toEqual([
      'www.standalone.test 192.0.2.1',
      'xn--bcher-kva.standalone.test 2001:db8::1',
      'standalone.test 0 issue "letsencrypt.org"',
    ])
    expect((await records()).meta.total).toBe(3)

    const applied = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, { token: admin, body: { changes } })
    expect(applied.json.applied).toBe(true)
    expect(applied.json.zone.serial).toBeGreaterThan(before.serial)
    expect((await records()).meta.total).toBe(6)
    const log = await platform.call('GET', `/groups/${acme}/audit-entries?filter[area]=dns&filter[entity_type]=dns_record`, { token: admin })
    expect(log.json.data.length).toBe(3)
  })

  it('refuses an invalid change set as a whole, naming each field', async () => {
    const www = (await records('?filter[name]=www.standalone.test')).data[0]
    const res = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, {
      token: admin,
      body: {
        changes: [
          { action: 'add', name: 'ok', type: 'A', content: '192.0.2.9' },
          { action: 'add', name: 'www', type: 'CNAME', content: 'elsewhere.example.' },
          { action: 'add', name: '@', type: 'CNAME', content: 'x.example.' },
          { action: 'add', name: 'mx', type: 'MX', content: '10 bad_host' },
          { action: 'add', name: 'ttl', type: 'A', ttl: 5, content: '192.0.2.9' },
          { action: 'update', id: www.id, content: '300.1.1.1' },
        ],
      },
    })
    expect(res.status).toBe(400)
    const fields = res.json.errors.map((e: { field: string }) => e.field)
    expect(fields).toEqual(expect.arrayContaining(['changes.1', 'changes.2', 'changes.3.content', 'changes.4.ttl', 'changes.5.content']))
    expect((await records('?filter[name]=ok.standalone.test')).data).toEqual([])
  })

  it('refuses an IP address where a name-valued type needs a host name, each with a code and its figures, never a column (issue 28)', async () => {
    const res = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, {
      token: admin,
      body: {
        dry_run: true,
        changes: [
          { action: 'add', name: 'alias', type: 'CNAME', content: '192.0.2.159' },
          { action: 'add', name: 'alias2', type: 'CNAME', content: '192.0.2.159.' },
          { action: 'add', name: 'sub', type: 'NS', content: '2001:db8::53' },
          { action: 'add', name: '@', type: 'MX', content: '10 192.0.2.25' },
          { action: 'add', name: '_sip._tcp', type: 'SRV', content: '10 5 5060 198.51.100.7' },
          { action: 'add', name: 'rev', type: 'PTR', content: '203.0.113.1' },
          { action: 'add', name: 'bad', type: 'A', content: 'not-an-address' },
          { action: 'add', name: 'mx2', type: 'MX', content: 'ten mail' },
          { action: 'add', name: 'mx3', type: 'MX', content: '10 bad_host' },
        ],
      },
    })
    expect(res.status).toBe(400)
    type Coded = { field: string; code: string; message: string; value?: string; record_type?: string; example?: string }
    const errors = res.json.errors as Coded[]
    const byField = new Map(errors.map((e) => [e.field, e]))
    for (const [i, type] of ['CNAME', 'CNAME', 'NS', 'MX', 'SRV', 'PTR'].entries()) {
      expect(byField.get(`changes.${i}.content`)).toMatchObject({ code: 'dns.record.target-address', record_type: type })
    }
    expect(byField.get('changes.0.content')).toMatchObject({ value: '192.0.2.159', example: 'www.example.com.' })
    expect(byField.get('changes.6.content')).toMatchObject({ code: 'dns.record.ipv4', value: 'not-an-address', example: '192.0.2.10' })
    expect(byField.get('changes.7.content')).toMatchObject({ code: 'dns.record.content-invalid', record_type: 'MX', example: '10 mail.example.com.' })
    expect(byField.get('changes.8.content')).toMatchObject({ code: 'dns.record.target-name', record_type: 'MX', value: 'bad_host' })
    for (const e of errors) expect(e.message).not.toMatch(/column/i)
    // A name with digits is still a name, and a reverse zone's relative target is its own name.
    const names = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, {
      token: admin,
      body: { dry_run: true, changes: [{ action: 'add', name: 'alias', type: 'CNAME', content: '192-0-2-159.example.net.' }] },
    })
    expect(names.status).toBe(200)
  })

  it("lists a zone's records apex first, then by name in byte order, then by type (issue 28)", async () => {
    const zone = (await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'order.test' } })).json
    const added = await platform.call('POST', `/groups/${acme}/zones/${zone.id}/changes`, {
      token: admin,
      body: {
        changes: [
          { action: 'add', name: 'www', type: 'A', content: '192.0.2.1' },
          { action: 'add', name: '_dmarc', type: 'TXT', content: '"v=DMARC1; p=none"' },
          { action: 'add', name: '@', type: 'MX', content: '20 backup.order.test.' },
          { action: 'add', name: '@', type: 'MX', content: '10 mail.order.test.' },
          { action: 'add', name: 'mail', type: 'A', content: '192.0.2.2' },
          { action: 'add', name: '@', type: 'A', content: '192.0.2.3' },
          { action: 'add', name: 'a.www', type: 'A', content: '192.0.2.4' },
          { action: 'add', name: 'www', type: 'AAAA', content: '2001:db8::1' },
        ],
      },
    })
    expect(added.status).toBe(200)
    // The list's default order: name (apex first), type, then priority and content within a type.
    const list = await platform.call('GET', `/groups/${acme}/dns-records?filter[zone_id]=${zone.id}`, { token: viewer })
    expect(list.json.data.map((r: { name: string; type: string; priority: number | null }) => `${r.name} ${r.type}${r.priority === null ? '' : ` ${r.priority}`}`)).toEqual([
      'order.test A',
      'order.test MX 10',
      'order.test MX 20',
      'order.test NS',
      'order.test NS',
      'order.test SOA',
      '_dmarc.order.test TXT',
      'a.www.order.test A',
      'mail.order.test A',
      'www.order.test A',
      'www.order.test AAAA',
    ])
    expect((await platform.call('DELETE', `/groups/${acme}/zones/${zone.id}`, { token: admin })).status).toBeLessThan(300)
  })

  it('previews a BIND import (added, changed, removed), refuses a bad file atomically, and applies a good one', async () => {
    const file = ['$ORIGIN standalone.test.', '$TTL 3600', '@ SOA ns1 hostmaster ( 1 7200 3600 604800 300 )', 'www 600 A 192.0.2.1 ; TTL changed', 'mail A 192.0.2.25', '  MX 10 mail'].join('\n')
    const preview = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/bind-import`, { token: admin, body: { text: file, dry_run: true } })
    expect(preview.status).toBe(200)
    expect(preview.json.counts).toEqual({ added: 2, changed: 1, removed: 2, unchanged: 2 })
    expect(preview.json.notes.join(' ')).toMatch(/SOA/)

    const bad = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/bind-import`, { token: admin, body: { text: `${file}\nbroken A 1.2.3\n$INCLUDE x` } })
    expect(bad.status).toBe(400)
    expect(bad.headers.get('content-type')).toBe('application/problem+json')
    expect(bad.json).toMatchObject({ status: 400, code: 'zone-file-invalid', detail: 'The file has 2 errors; nothing was written', applied: false })
    expect(bad.json.errors).toEqual([
      { field: 'text', line: 7, column: 10, message: "'1.2.3' is not an IPv4 address" },
      { field: 'text', line: 8, column: 1, message: expect.stringMatching(/\$INCLUDE is not supported/) },
    ])
    expect((await records()).meta.total).toBe(6)

    const applied = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/bind-import`, { token: admin, body: { text: file } })
    expect(applied.status).toBe(200)
    expect(applied.json.applied).toBe(true)
    const now = await records('?sort=name,type')
    expect(now.data.map((r: { name: string; type: string; ttl: number }) => `${r.name} ${r.type} ${r.ttl}`)).toEqual([
      'standalone.test NS 3600',
      'standalone.test NS 3600',
      'standalone.test SOA 3600',
      'mail.standalone.test A 3600',
      'mail.standalone.test MX 3600',
      'www.standalone.test A 600',
    ])
  })

  it('exports the zone as a BIND file that imports back unchanged', async () => {
    const res = await platform.call('GET', `/groups/${acme}/zones/${zoneId}/export`, { token: viewer })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/dns')
    expect(res.text).toMatch(/^; zone standalone.test/)
    expect(res.text).toContain('$ORIGIN standalone.test.\n@\t3600\tIN\tSOA\t')
    const again = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/bind-import`, { token: admin, body: { text: res.text, dry_run: true } })
    expect(again.json.counts).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 5 })
  })

  it('searches records across the zones of the account through the list engine', async () => {
    await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'second.test' } })
    const second = (await platform.call('GET', `/groups/${acme}/zones?filter[name]=second.test`, { token: admin })).json.data[0]
    await platform.call('POST', `/groups/${acme}/zones/${second.id}/changes`, { token: admin, body: { changes: [{ action: 'add', name: 'app', type: 'A', content: '192.0.2.25' }] } })
    const found = await platform.call('GET', `/groups/${acme}/dns-records?pql=${encodeURIComponent("content contains '192.0.2.25'")}&sort=name`, { token: viewer })
    expect(found.status).toBe(200)
    expect(found.json.data.map((r: { name: string; zone: { name: string } }) => `${r.zone.name}:${r.name}`)).toEqual(['second.test:app.second.test', 'standalone.test:mail.standalone.test'])
  })

  it('needs dns-admin to change and hides other accounts with 404', async () => {
    const denied = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, { token: viewer, body: { changes: [{ action: 'add', name: 'x', type: 'A', content: '192.0.2.1' }] } })
    expect(denied.status).toBe(403)
    expect((await platform.call('GET', `/groups/${acme}/zones/${zoneId}/records`, { token: otherAdmin })).status).toBe(404)
    const globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex Inc').executeTakeFirst())?.id
    if (globex) expect((await platform.call('GET', `/groups/${globex}/zones/${zoneId}`, { token: otherAdmin })).status).toBe(404)
    expect((await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'standalone.test' } })).status).toBe(409)
    const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_zones`.execute(platform.db)
    expect(count.rows[0]!.n).toBe(2)
  })
})

describe('zone files above the API’s general body limit', () => {
  const streamed = (zone: string, body: BodyInit, query = '') =>
    platform.api.fetch(
      new Request(`http://platform.test/v1/groups/${acme}/zones/${zone}/bind-import${query}`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/dns' }, body }),
    )

  it('takes a 50,000-record file streamed as text/dns, previewed then applied, up to ZONE_FILE_MAX_BYTES', async () => {
    const zone = (await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'fifty-thousand.test' } })).json.id
    const lines = Array.from({ length: 50_000 }, (_, i) => `host-${i} 300 IN A 192.0.2.${i % 250}`)
    const file = `$ORIGIN fifty-thousand.test.\n${lines.join('\n')}\n`
    expect(file.length).toBeGreaterThan(1_048_576) // more than the API's general limit
    const preview = await streamed(zone, file, '?dry_run=true')
    expect(preview.status, await preview.clone().text()).toBe(200)
    expect((await preview.json()).counts.added).toBe(50_000)
    expect((await platform.call('GET', `/groups/${acme}/zones/${zone}/records?filter[type]=A&limit=1`, { token: admin })).json.meta.total).toBe(0)
    const applied = await streamed(zone, new Blob([file]))
    expect(applied.status).toBe(200)
    expect((await applied.json()).applied).toBe(true)
    const stored = await platform.db
      .selectFrom('dns_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('zone_id', '=', zone)
      .where('type', '=', 'A')
      .executeTakeFirstOrThrow()
    expect(Number(stored.n)).toBe(50_000)
  }, 60_000)

  it('refuses a zone file past ZONE_FILE_MAX_BYTES, and any other body past BODY_LIMIT_BYTES, with 413', async () => {
    const tooBig = await streamed(zoneId, new Blob([new Uint8Array(ZONE_FILE_MAX_BYTES + 1).fill(0x20)]))
    expect(tooBig.status).toBe(413)
    expect(tooBig.headers.get('content-type')).toBe('application/problem+json')
    const json = await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'x'.repeat(TEST_CONFIG.BODY_LIMIT_BYTES) } })
    expect(json.status).toBe(413)
  })
})

describe('bulk import and export', () => {
  let bulk: string
  const scope = () => systemScope('test', acme)
  const HOSTS = 6000

  it('imports a large file as one change with one audit entry (counts and a diff summary), first line winning for repeated keys', async () => {
    bulk = (await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'bulk.test' } })).json.id
    const lines = ['$ORIGIN bulk.test.', '$TTL 300', '@ NS ns1.bulk.test.', 'www 600 A 192.0.2.1', 'www 900 A 192.0.2.1 ; the same key again: the first TTL stays']
    for (let i = 0; i < HOSTS; i++) lines.push(`h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `h${i} TXT "n=${i}"`)
    // Through the service: a file this size is an upload, above the JSON body limit of the API.
    const res = { json: await importZone(platform.deps, scope(), bulk, [lines.join('\n')]) }
    expect(res.json.applied).toBe(true)
    expect(res.json.counts).toEqual({ added: 2 + 2 * HOSTS, changed: 0, removed: 2, unchanged: 0 })
    // A sample of the first 200 new records; the repeated www line shows once.
    expect(res.json.added.length).toBe(200)
    expect(new Set(res.json.added.map((r) => `${r.name} ${r.type} ${r.content}`)).size).toBe(200)
    expect(res.json.added.filter((r) => r.name === 'www.bulk.test')).toEqual([expect.objectContaining({ ttl: 600 })])
    expect(res.json.added[0]).toEqual({ name: 'bulk.test', type: 'NS', ttl: 300, content: 'ns1.bulk.test.', priority: null })
    const www = (await platform.call('GET', `/groups/${acme}/zones/${bulk}/records?filter[name]=www.bulk.test`, { token: admin })).json.data
    expect(www.map((r: { ttl: number }) => r.ttl)).toEqual([600])

    const audits = await platform.db
      .selectFrom('audit_entries')
      .select(['entity_type', 'action', 'changes'])
      .where('created_at', '>=', sql<Date>`now() - interval '1 hour'`)
      .where('entity_id', '=', bulk)
      .where('action', '=', 'import')
      .execute()
    expect(audits).toHaveLength(1)
    const changes = (typeof audits[0]!.changes === 'string' ? JSON.parse(audits[0]!.changes) : audits[0]!.changes) as { after: { counts: object; diff: { added: unknown[]; removed: unknown[] } } }
    expect(changes.after.counts).toEqual(res.json.counts)
    expect(changes.after.diff.added).toHaveLength(50)
    expect(changes.after.diff.removed).toHaveLength(2)
    const perRecord = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_entries WHERE entity_type = 'dns_record' AND changes::text LIKE ${`%${bulk}%`}`.execute(platform.db)
    expect(perRecord.rows[0]!.n).toBe(0)

    // Ids are time-ordered in index order (UUIDv7 shape), so the primary key is appended to.
    const ids = await sql<{ id: string }>`SELECT id FROM dns_records WHERE zone_id = ${bulk} AND type <> 'SOA' AND type <> 'NS' ORDER BY name, type, md5(content) LIMIT 3`.execute(platform.db)
    const sorted = ids.rows.map((r) => r.id)
    expect(sorted).toEqual([...sorted].sort())
    expect(sorted[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('re-imports with changes: TTL changes, removals and additions counted in SQL, same ids kept for unchanged records', async () => {
    const before = await sql<{ id: string }>`SELECT id FROM dns_records WHERE zone_id = ${bulk} AND name = 'h1.bulk.test' AND type = 'A'`.execute(platform.db)
    const lines = ['$ORIGIN bulk.test.', '$TTL 300', '@ NS ns1.bulk.test.', 'www 1200 A 192.0.2.1', 'new A 192.0.2.99']
    for (let i = 0; i < HOSTS - 1; i++) lines.push(`h${i} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `h${i} TXT "n=${i}"`)
    const preview = { json: await importZone(platform.deps, scope(), bulk, [lines.join('\n')], { dry_run: true }) }
    const expected = { added: 1, changed: 1, removed: 2, unchanged: 1 + 2 * (HOSTS - 1) }
    expect(preview.json.counts).toEqual(expected)
    expect(preview.json.changed).toEqual([{ before: expect.objectContaining({ name: 'www.bulk.test', ttl: 600 }), after: expect.objectContaining({ name: 'www.bulk.test', ttl: 1200 }) }])
    const applied = { json: await importZone(platform.deps, scope(), bulk, [lines.join('\n')]) }
    expect(applied.json.counts).toEqual(expected)
    const after = await sql<{ id: string }>`SELECT id FROM dns_records WHERE zone_id = ${bulk} AND name = 'h1.bulk.test' AND type = 'A'`.execute(platform.db)
    expect(after.rows).toEqual(before.rows)
    expect(applied.json.zone!.serial).toBeGreaterThan(0)
  })

  it('exports content with quotes, backslashes and escapes exactly as stored', async () => {
    const res = await platform.call('POST', `/groups/${acme}/zones/${bulk}/changes`, {
      token: admin,
      body: { changes: [{ action: 'add', name: 'esc', type: 'TXT', content: '"say \\"hi\\" \\\\ back\\009tab; x" "two"' }] },
    })
    expect(res.status, res.text).toBe(200)
    const stored = await sql<{ content: string }>`SELECT content FROM dns_records WHERE zone_id = ${bulk} AND name = 'esc.bulk.test'`.execute(platform.db)
    expect(stored.rows[0]!.content).toContain('\\')
    let text = ''
    for await (const chunk of exportZone(platform.deps.database, scope(), bulk)) text += chunk
    expect(text.split('\n')).toContain(`esc\t3600\tIN\tTXT\t${stored.rows[0]!.content}`)
  })

  it('streams the export through a cursor, and a client that stops early frees the connection', async () => {
    let text = ''
    for await (const chunk of exportZone(platform.deps.database, scope(), bulk)) text += chunk
    expect(text.split('\n').filter((l) => /\tIN\t/.test(l))).toHaveLength(1 + 1 + 1 + 1 + 2 * (HOSTS - 1) + 1)
    for await (const chunk of exportZone(platform.deps.database, scope(), bulk)) {
      expect(chunk).toMatch(/^; zone bulk.test/)
      break
    }
    // Stopped in the middle of the records (on PostgreSQL, with the COPY in flight).
    let seen = 0
    for await (const chunk of exportZone(platform.deps.database, scope(), bulk)) {
      if (++seen === 3) break
      expect(chunk.length).toBeGreaterThan(0)
    }
    expect(seen).toBe(3)
    // With a leaked transaction this would wait for ever on the single PGlite connection.
    expect((await records()).meta.total).toBeGreaterThan(0)
  })

  it('answers 404 for an unknown zone on the platform path groups/{id}/zones/{id}/records (§8)', async () => {
    for (const zone of ['00000000-0000-4000-8000-000000000000', 'not-a-zone']) {
      const res = await platform.call('GET', `/groups/${acme}/zones/${zone}/records`, { token: admin })
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toContain('application/problem+json')
      expect(res.json.title ?? res.json.detail).toBeTruthy()
    }
  })
})

describe('zones for domains', () => {
  it('ensureZoneForDomain creates the zone of a domain once, in the caller transaction, and keeps it on repeat', async () => {
    const { ensureZoneForDomain } = await import('#server/platform/dns/service.ts')
    const { change } = await import('#server/platform/core/change.ts')
    const domain = await platform.db.selectFrom('domains').select(['id', 'name']).where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()
    const scope = systemScope('test', acme)
    const first = await change(platform.db, scope, (tx) => ensureZoneForDomain(tx, scope, domain.id, platform.deps))
    expect(first).toMatchObject({ name: domain.name, domain_id: domain.id })
    const again = await change(platform.db, scope, (tx) => ensureZoneForDomain(tx, scope, domain.id, platform.deps))
    expect(again.id).toBe(first.id)
    const types = await platform.db.selectFrom('dns_records').select('type').where('zone_id', '=', first.id).orderBy('type').execute()
    expect(types.map((t) => t.type)).toEqual(['NS', 'NS', 'SOA'])
    // Rolled back with the caller: nothing stays.
    const other = await platform.db.selectFrom('domains').select('id').where('account_id', '=', acme).where('id', '!=', domain.id).executeTakeFirstOrThrow()
    await expect(
      change(platform.db, scope, async (tx) => {
        await ensureZoneForDomain(tx, scope, other.id, platform.deps)
        throw new Error('the domain change failed')
      }),
    ).rejects.toThrow('the domain change failed')
    expect(await platform.db.selectFrom('dns_zones').select('id').where('domain_id', '=', other.id).executeTakeFirst()).toBeUndefined()
    // Another account's domain is a 404.
    const globexDomain = await platform.db.selectFrom('domains').select('id').where('account_id', '!=', acme).executeTakeFirstOrThrow()
    await expect(change(platform.db, scope, (tx) => ensureZoneForDomain(tx, scope, globexDomain.id, platform.deps))).rejects.toMatchObject({ status: 404 })
  })
})
