import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

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
  platform = await createTestPlatform()
  await seedDemo(platform.db, createLogger('silent'), { domainsPerAccount: [2, 1] })
  // Jobs are queued (publish) but nobody works them here, as with WORKER=0.
  await platform.deps.jobs.start({ work: false })
  admin = await login('admin@acme.example')
  viewer = await login('viewer@acme.example')
  otherAdmin = await login('admin@globex.example')
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  const created = await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'Standalone.Test.' } })
  expect(created.status).toBe(201)
  zoneId = created.json.id
}, 60_000)
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

  it('previews a BIND import (added, changed, removed), refuses a bad file atomically, and applies a good one', async () => {
    const file = [
      '$ORIGIN standalone.test.',
      '$TTL 3600',
      '@ SOA ns1 hostmaster ( 1 7200 3600 604800 300 )',
      'www 600 A 192.0.2.1 ; TTL changed',
      'mail A 192.0.2.25',
      '  MX 10 mail',
    ].join('\n')
    const preview = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/bind-import`, { token: admin, body: { text: file, dry_run: true } })
    expect(preview.status).toBe(200)
    expect(preview.json.counts).toEqual({ added: 2, changed: 1, removed: 2, unchanged: 2 })
    expect(preview.json.notes.join(' ')).toMatch(/SOA/)

    const bad = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/bind-import`, { token: admin, body: { text: `${file}\nbroken A 1.2.3\n$INCLUDE x` } })
    expect(bad.status).toBe(400)
    expect(bad.json.errors).toEqual([
      { line: 7, column: 10, message: "'1.2.3' is not an IPv4 address" },
      { line: 8, column: 1, message: expect.stringMatching(/\$INCLUDE is not supported/) },
    ])
    expect((await records()).meta.total).toBe(6)

    const applied = await platform.call('POST', `/groups/${acme}/zones/${zoneId}/bind-import`, { token: admin, body: { text: file } })
    expect(applied.status).toBe(200)
    expect(applied.json.applied).toBe(true)
    const now = await records('?sort=name,type')
    expect(now.data.map((r: { name: string; type: string; ttl: number }) => `${r.name} ${r.type} ${r.ttl}`)).toEqual([
      'mail.standalone.test A 3600',
      'mail.standalone.test MX 3600',
      'standalone.test NS 3600',
      'standalone.test NS 3600',
      'standalone.test SOA 3600',
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
