import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPowerDnsClient, type PdnsRrset } from '#server/integrations/powerdns/client.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { DS_TTL_SECONDS, sweepDrift } from '#server/platform/dns/publish.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { registerDomain } from '#server/platform/domains/lifecycle.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'
import { liveZone } from '#tests/support/zones.ts'

let pdns: PowerDnsServer
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let token: string
let staff: string
let account: string
const registry = () => platform.registries!.local!.registry

beforeAll(async () => {
  pdns = await startPowerDns()
  // A real local EPP registry too: the DS of a domain's signed zone goes to the parent over secDNS.
  platform = await createTestPlatform({ powerdns: pdns.settings }, { registry: { tlds: [{ name: 'com', periods: [1] }] }, seed: { domainsPerAccount: [2, 1] } })
  await platform.deps.jobs.start({ work: true })
  const login = await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })
  token = login.json.access_token
  staff = (await platform.call('POST', '/login', { body: { username: 'staff@example.com', password: DEMO_PASSWORD } })).json.access_token
  account = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
})
afterAll(async () => {
  await platform?.close()
  await pdns?.stop()
})

/** Polls until the condition holds (jobs run in the background); fails after 20 s. */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const zoneOf = async (id: string) => (await platform.call('GET', `/groups/${account}/zones/${id}`, { token })).json

describe('publishing to a real PowerDNS', () => {
  let zoneId: string

  it('publishes a new zone and each change set, and dig sees them with our serial', async () => {
    const created = await liveZone(platform.call, account, token, staff, 'published.test')
    expect(created.status).toBe(201)
    zoneId = created.json.id
    const published = await until(
      () => zoneOf(zoneId),
      (z) => z.published,
      'first publish',
    )
    expect((await pdns.dig('published.test', 'SOA'))[0]).toContain(` ${published.serial} `)

    const changes = await platform.call('POST', `/groups/${account}/zones/${zoneId}/changes`, {
      token,
      body: {
        changes: [
          { action: 'add', name: 'www', type: 'A', ttl: 300, content: '192.0.2.10' },
          { action: 'add', name: 'www', type: 'A', ttl: 300, content: '192.0.2.11' },
          { action: 'add', name: '@', type: 'MX', content: '10 mail' },
          { action: 'add', name: 'txt', type: 'TXT', content: `"${'x'.repeat(300)}"` },
        ],
      },
    })
    expect(changes.status).toBe(200)
    expect(changes.json.zone.publish_state).toBe('pending')
    const after = await until(
      () => zoneOf(zoneId),
      (z) => z.published && z.serial > published.serial,
      'second publish',
    )
    expect((await pdns.dig('www.published.test', 'A')).sort()).toEqual(['192.0.2.10', '192.0.2.11'])
    expect(await pdns.dig('published.test', 'MX')).toEqual(['10 mail.published.test.'])
    expect((await pdns.dig('txt.published.test', 'TXT'))[0]).toBe(`"${'x'.repeat(255)}" "${'x'.repeat(45)}"`)
    expect((await pdns.dig('published.test', 'SOA'))[0]).toContain(` ${after.serial} `)

    // Deleting a record set removes it from PowerDNS too.
    const list = await platform.call('GET', `/groups/${account}/zones/${zoneId}/records?filter[type]=MX`, { token })
    await platform.call('POST', `/groups/${account}/zones/${zoneId}/changes`, { token, body: { changes: [{ action: 'delete', id: list.json.data[0].id }] } })
    await until(
      () => zoneOf(zoneId),
      (z) => z.published && z.serial > after.serial,
      'third publish',
    )
    expect(await pdns.dig('published.test', 'MX')).toEqual([])
  })

  it('publishes HTTPS and SVCB records (RFC 9460) imported from a file: PowerDNS takes them, dig answers them, no drift', async () => {
    const created = await liveZone(platform.call, account, token, staff, 'svcb.test')
    const id = created.json.id
    await until(
      () => zoneOf(id),
      (z) => z.published,
      'first publish',
    )
    const file = [
      '$ORIGIN svcb.test.',
      '$TTL 300',
      '@ HTTPS 1 . alpn=h3,h2 port=8443 ipv4hint=192.0.2.1 ipv6hint=2001:db8::1 ech="AEP+DQA/" mandatory=alpn',
      'www HTTPS 0 cdn.example.net.',
      '_dns SVCB 1 dns key7="/dns-query{?dns}" alpn=h2 no-default-alpn',
      'host 60 A 192.0.2.7',
      'host A 192.0.2.8',
    ].join('\n')
    const imported = await platform.call('POST', `/groups/${account}/zones/${id}/bind-import`, { token, body: { text: file } })
    expect(imported.status, imported.text).toBe(200)
    expect(imported.json.warnings.map((w: { line: number }) => w.line)).toEqual([7])
    await until(
      () => zoneOf(id),
      (z) => (z.publish_state !== 'pending' && z.published_serial === z.serial) || z.publish_state === 'failed',
      'publish of the import',
    )
    expect((await zoneOf(id)).last_error).toBeNull()
    expect(await pdns.dig('svcb.test', 'HTTPS')).toEqual(['1 . mandatory=alpn alpn="h3,h2" port=8443 ipv4hint=192.0.2.1 ech=AEP+DQA/ ipv6hint=2001:db8::1'])
    expect(await pdns.dig('www.svcb.test', 'HTTPS')).toEqual(['0 cdn.example.net.'])
    expect(await pdns.dig('_dns.svcb.test', 'SVCB')).toEqual(['1 dns.svcb.test. alpn="h2" no-default-alpn key7="/dns-query{?dns}"'])
    // One TTL for the RRset, the first line's.
    expect(await pdns.dig('+noshort', '+noall', '+answer', 'host.svcb.test', 'A').then((lines) => lines.map((l) => l.split(/\s+/)[1]))).toEqual(['60', '60'])
    const drift = await platform.call('GET', `/groups/${account}/zones/${id}/drift`, { token })
    expect(drift.json.drift).toEqual({ missing: [], unexpected: [], different: [] })
  })

  it('marks the change failed with PowerDNS reason when PowerDNS refuses it, and keeps the edit', async () => {
    const created = await liveZone(platform.call, account, token, staff, 'refused.test')
    expect(created.status, created.text).toBe(201)
    const zoneId = created.json.id
    await until(
      () => zoneOf(zoneId),
      (z) => z.published,
      'publish',
    )
    // Someone put a CNAME at mail. straight into PowerDNS: drift the portal does not own.
    const client = createPowerDnsClient(pdns.settings)
    await client.patchRrsets('refused.test', [{ name: 'mail.refused.test.', type: 'CNAME', ttl: 300, changetype: 'REPLACE', records: [{ content: 'elsewhere.example.', disabled: false }] }])
    const drift = await platform.call('GET', `/groups/${account}/zones/${zoneId}/drift`, { token })
    expect(drift.json.drift.unexpected).toEqual([{ name: 'mail.refused.test', type: 'CNAME', ttl: 300, contents: ['elsewhere.example.'] }])

    const edit = await platform.call('POST', `/groups/${account}/zones/${zoneId}/changes`, { token, body: { changes: [{ action: 'add', name: 'mail', type: 'A', content: '192.0.2.25' }] } })
    expect(edit.status).toBe(200)
    const failed = await until(
      () => zoneOf(zoneId),
      (z) => z.publish_state === 'failed',
      'the refusal',
    )
    expect(failed.last_error).toMatch(/conflict/i)
    const kept = await platform.call('GET', `/groups/${account}/zones/${zoneId}/records?filter[name]=mail.refused.test`, { token })
    expect(kept.json.data.map((r: { content: string }) => r.content)).toEqual(['192.0.2.25'])
    expect(await pdns.dig('mail.refused.test', 'A')).toEqual(['elsewhere.example.'])
  })

  it('signs the zone: RRSIG served, DS from the DNSKEY, and unsigns in the safe order', async () => {
    const created = await liveZone(platform.call, account, token, staff, 'signed.test')
    const id = created.json.id
    await platform.call('POST', `/groups/${account}/zones/${id}/changes`, { token, body: { changes: [{ action: 'add', name: 'www', type: 'A', content: '192.0.2.80' }] } })
    await until(
      () => zoneOf(id),
      (z) => z.published && z.serial > created.json.serial,
      'publish',
    )
    expect((await platform.call('POST', `/groups/${account}/zones/${id}/dnssec/sign`, { token })).status).toBe(202)
    const signed = await until(
      () => zoneOf(id),
      (z) => z.dnssec_state === 'signed',
      'signing',
    )

    const answer = await pdns.dig('+dnssec', 'www.signed.test', 'A')
    expect(answer).toContain('192.0.2.80')
    expect(answer.some((l) => l.startsWith('A 13 3 '))).toBe(true)

    // DS = SHA-256 over owner name (wire) + DNSKEY rdata, computed from what dig serves.
    const [dnskey] = await pdns.dig('signed.test', 'DNSKEY')
    const [flags, protocol, algorithm, ...key] = dnskey!.split(' ')
    const rdata = Buffer.concat([Buffer.from([Number(flags) >> 8, Number(flags) & 255, Number(protocol), Number(algorithm)]), Buffer.from(key.join(''), 'base64')])
    const owner = Buffer.concat([...'signed.test'.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])), Buffer.from([0])])
    const digest = createHash('sha256')
      .update(Buffer.concat([owner, rdata]))
      .digest('hex')
    let tag = 0
    for (let i = 0; i < rdata.length; i++) tag += i & 1 ? rdata[i]! : rdata[i]! << 8
    tag = (tag + (tag >> 16)) & 0xffff
    expect(signed.ds_records).toContain(`${tag} 13 2 ${digest}`)

    DS_TTL_SECONDS.value = 0
    expect((await platform.call('POST', `/groups/${account}/zones/${id}/dnssec/unsign`, { token })).status).toBe(202)
    await until(
      () => zoneOf(id),
      (z) => z.dnssec_state === 'unsigned',
      'unsigning',
    )
    expect((await pdns.dig('+dnssec', 'www.signed.test', 'A')).some((l) => l.startsWith('A 13'))).toBe(false)
  })

  it('sends the DS of a domain’s signed zone to the registry (secDNS), and removes it there first when unsigning', async () => {
    const domain = await registerDomain(platform.deps, systemScope('test', account), { name: 'delegated.com', period: 1 })
    const created = await platform.call('POST', `/groups/${account}/zones`, { token, body: { name: 'delegated.com', domain_id: domain.id } })
    expect(created.status, created.text).toBe(201)
    const id = created.json.id
    await until(
      () => zoneOf(id),
      (z) => z.published,
      'publish',
    )
    expect(registry().state.domains['delegated.com']!.ds).toEqual([])

    expect((await platform.call('POST', `/groups/${account}/zones/${id}/dnssec/sign`, { token })).status).toBe(202)
    const signed = await until(
      () => zoneOf(id),
      (z) => z.dnssec_state === 'signed',
      'signing',
    )
    // The parent holds the SHA-256 DS of the key PowerDNS made (never the SHA-1 one).
    const sha256 = (signed.ds_records as string[]).filter((d) => d.split(' ')[2] === '2')
    expect(sha256).toHaveLength(1)
    const [keyTag, alg, , digest] = sha256[0]!.split(' ')
    expect(registry().state.domains['delegated.com']!.ds).toEqual([{ keyTag: Number(keyTag), alg: Number(alg), digestType: 2, digest: digest!.toUpperCase() }])
    const row = await platform.db.selectFrom('domains').select(['ds_data', 'dnssec']).where('id', '=', domain.id).executeTakeFirstOrThrow()
    expect(row).toEqual({ ds_data: [{ key_tag: Number(keyTag), alg: Number(alg), digest_type: 2, digest: digest!.toUpperCase() }], dnssec: true })
    const audit = await platform.db.selectFrom('audit_entries').select('action').where('entity_id', '=', domain.id).execute()
    expect(audit.map((a) => a.action)).toContain('ds-published')

    // Off in the safe order: the DS goes from the parent while the zone is still signed.
    DS_TTL_SECONDS.value = 3600
    expect((await platform.call('POST', `/groups/${account}/zones/${id}/dnssec/unsign`, { token })).status).toBe(202)
    await until(
      async () => registry().state.domains['delegated.com']!.ds,
      (ds) => ds.length === 0,
      'DS removal at the registry',
    )
    expect((await zoneOf(id)).dnssec_state).toBe('unsigning')
    expect((await pdns.dig('+dnssec', 'delegated.com', 'SOA')).some((l) => l.startsWith('SOA 13'))).toBe(true)

    // A zone with DNSSEC on (or on its way off) cannot be deleted: the parent still holds a DS.
    const refused = await platform.call('DELETE', `/groups/${account}/zones/${id}`, { token })
    expect(refused.status).toBe(409)
    expect(refused.json.detail).toMatch(/turn it off/)
  })

  it('finds drift by itself: the sweep compares the published zones checked longest ago', async () => {
    const created = await liveZone(platform.call, account, token, staff, 'swept.test')
    const id = created.json.id
    await until(
      () => zoneOf(id),
      (z) => z.published,
      'publish',
    )
    await createPowerDnsClient(pdns.settings).patchRrsets('swept.test', [
      { name: 'rogue.swept.test.', type: 'A', ttl: 60, changetype: 'REPLACE', records: [{ content: '198.51.100.7', disabled: false }] },
    ])
    expect((await zoneOf(id)).drift?.unexpected ?? []).toEqual([])
    expect(await sweepDrift(platform.deps, 1000)).toBeGreaterThan(0)
    expect((await zoneOf(id)).drift.unexpected).toEqual([{ name: 'rogue.swept.test', type: 'A', ttl: 60, contents: ['198.51.100.7'] }])
  })

  it('deletes a zone: records gone, an audit entry, and PowerDNS no longer serves it', async () => {
    const created = await liveZone(platform.call, account, token, staff, 'doomed.test')
    const id = created.json.id
    await platform.call('POST', `/groups/${account}/zones/${id}/changes`, { token, body: { changes: [{ action: 'add', name: 'www', type: 'A', content: '192.0.2.99' }] } })
    await until(
      () => zoneOf(id),
      (z) => z.published && z.serial > created.json.serial,
      'publish',
    )
    expect(await pdns.dig('www.doomed.test', 'A')).toEqual(['192.0.2.99'])

    const viewer = (await platform.call('POST', '/login', { body: { username: 'viewer@acme.example', password: DEMO_PASSWORD } })).json.access_token
    expect((await platform.call('DELETE', `/groups/${account}/zones/${id}`, { token: viewer })).status).toBe(403)
    const deleted = await platform.call('DELETE', `/groups/${account}/zones/${id}`, { token })
    expect(deleted.status, deleted.text).toBe(204)
    expect((await platform.call('GET', `/groups/${account}/zones/${id}`, { token })).status).toBe(404)
    expect(await platform.db.selectFrom('dns_records').select('id').where('zone_id', '=', id).execute()).toEqual([])
    const audit = await platform.db.selectFrom('audit_entries').select(['action', 'changes']).where('entity_id', '=', id).where('action', '=', 'delete').executeTakeFirstOrThrow()
    expect(audit.changes).toMatchObject({ before: { name: 'doomed.test', records: 4 } })
    await until(
      () => createPowerDnsClient(pdns.settings).getZone('doomed.test'),
      (z) => z === null,
      'removal from PowerDNS',
    )
    expect(await pdns.dig('www.doomed.test', 'A')).toEqual([])
    expect((await platform.call('DELETE', `/groups/${account}/zones/${id}`, { token })).status).toBe(404)
  })
})

describe('PowerDNS with zones changed at once', () => {
  // Two people (or two browser-test files) change zones at the same moment: PowerDNS's SQLite
  // backend in its default journal mode answered 500 "database is locked" to one of them.
  it('takes twelve zones created, changed, signed and read at the same time, refusing none', async () => {
    const client = createPowerDnsClient(pdns.settings)
    const names = Array.from({ length: 12 }, (_, i) => `concurrent-${i}.test`)
    const soa = (zone: string): PdnsRrset => ({ name: `${zone}.`, type: 'SOA', ttl: 3600, records: [{ content: `ns1.${zone}. hostmaster.${zone}. 1 10800 3600 604800 3600`, disabled: false }] })
    await Promise.all(names.map((zone) => client.createZone(zone, [soa(zone)], [`ns1.${zone}`])))
    const rounds = await Promise.allSettled(
      names.flatMap((zone, i) => [
        client.patchRrsets(zone, [{ name: `www.${zone}.`, type: 'A', ttl: 300, changetype: 'REPLACE', records: [{ content: `192.0.2.${i + 1}`, disabled: false }] }]),
        client.createCryptokey(zone),
        client.getZone(zone),
        client.exportZone(zone),
      ]),
    )
    expect(rounds.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([])
    for (const [i, zone] of names.entries()) expect(await pdns.dig(`www.${zone}`, 'A')).toEqual([`192.0.2.${i + 1}`])
    await Promise.all(names.map((zone) => client.deleteZone(zone)))
  })
})
