import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCtClient, makeCertificate, makeIssuer, startLocalCtLog, type LocalCtLog } from '#server/integrations/ct/index.ts'
import { runCtMonitor, runZoneFeeds, type BrandFeeds } from '#server/platform/brand/feeds.ts'
import { createOutbound } from '#server/platform/core/outbound.ts'
import { OTHER_LOCAL_REGISTRAR } from '#server/platform/registries/registries.ts'
import { DEMO_PASSWORD, DEMO_ROLES } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// Brand protection's sources (issue 30): the registry's RDAP for a third party's registration, the
// CT monitor over a local RFC 6962 log, and the zone feed over two days' CZDS files — each match a
// candidate of the brand it looks like, flagged new until its feed's next run; tenancy on the list.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let log: LocalCtLog
let zoneDir: string
const feeds: BrandFeeds = {}
let tokens: { acme: string; globex: string }
let acmeId: string
let globexId: string
const ca = makeIssuer('Feed Test CA')

type Row = { name: string; status: string; new: boolean; changed_by: string | null; certificates: number; registrar: string | null; fuzzers: string[] }
const post = (p: string, token: string, body: unknown) => platform.call('POST', p, { token, body })
const candidates = async (token: string, group: string, pql: string) => {
  const res = await platform.call('GET', `/groups/${group}/brand-candidates?${new URLSearchParams({ pql, limit: '1000', sort: 'name' })}`, { token })
  expect(res.status).toBe(200)
  return res.json.data as Row[]
}
const login = async (username: string) => (await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })).json.access_token as string

beforeAll(async () => {
  log = await startLocalCtLog()
  zoneDir = mkdtempSync(path.join(tmpdir(), 'zone-feed-'))
  feeds.ct = {
    client: createCtClient({ fetch: createOutbound({ resolver: null }).fetch, perSecond: 100, burst: 100 }),
    logs: [{ url: log.url, key: log.publicKeyDer.toString('base64'), description: 'Test log' }],
  }
  feeds.zoneDir = zoneDir
  platform = await createTestPlatform({ brandFeeds: feeds }, { seed: { domainsPerAccount: [1, 1] }, registry: { tlds: [{ name: 'com', periods: [1] }] } })
  acmeId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globexId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  // The demo's account admins, made brand admins (a user of its own would cost a password hash each).
  await platform.db
    .updateTable('users')
    .set({ roles: [...DEMO_ROLES.clientAdmin, 'brand-admin'] })
    .where('email', 'in', ['admin@acme.example', 'admin@globex.example'])
    .execute()
  const [acme, globex] = await Promise.all([login('admin@acme.example'), login('admin@globex.example')])
  tokens = { acme, globex }
  expect((await post(`/groups/${acmeId}/brands`, tokens.acme, { label: 'acme', domains: ['acme.com'] })).status).toBe(201)
})
afterAll(async () => {
  await platform?.close()
  await log?.close()
  if (zoneDir) rmSync(zoneDir, { recursive: true, force: true })
})

describe('RDAP evidence', () => {
  it('a check finds a lookalike the rival registrar holds, with its registrar, IANA id and abuse contact from the registry’s RDAP', async () => {
    platform.registries!.local!.registry.preload([
      {
        name: 'acmee.com',
        clientId: OTHER_LOCAL_REGISTRAR.id,
        createdAt: '2026-10-01T00:00:00Z',
        expiresAt: '2027-10-01T00:00:00Z',
        authInfo: 'Rival-Secret-1',
        statuses: ['clientTransferProhibited'],
      },
    ])
    const pick = (name: string) => platform.db.selectFrom('brand_candidates').select('id').where('account_id', '=', acmeId).where('name', '=', name).executeTakeFirstOrThrow()
    const checked = await post(`/groups/${acmeId}/brand-candidates/check`, tokens.acme, { ids: [(await pick('acmee.com')).id, (await pick('amce.com')).id] })
    expect(checked.status).toBe(200)
    const byName = Object.fromEntries((checked.json.data as { name: string; status: string; evidence: Record<string, unknown> }[]).map((c) => [c.name, c]))
    expect(byName['acmee.com']).toMatchObject({
      status: 'registered',
      evidence: {
        rdap: {
          registrar: 'Rival Registrar Ltd.',
          iana_id: '9999',
          abuse_email: 'abuse@rival-registrar.example',
          created: '2026-10-01T00:00:00.000Z',
          statuses: ['client transfer prohibited', 'inactive'],
        },
      },
    })
    expect(byName['amce.com']).toMatchObject({ status: 'available' })
    expect((await candidates(tokens.acme, acmeId, "name equals 'acmee.com'"))[0]).toMatchObject({ registrar: 'Rival Registrar Ltd.' })
  })
})

describe('the CT monitor', () => {
  it('reads the log from its start, makes each lookalike in a new certificate a candidate with the certificate, and goes on from where it left off', async () => {
    log.add([makeCertificate(ca, ['acme-login.com', 'www.acme-login.com']), ca.certificate])
    log.add([makeCertificate(ca, ['secure-acme.net'], { precertificate: true }), ca.certificate], { precertificate: true })
    log.add([makeCertificate(ca, ['unrelated-shop.net']), ca.certificate])
    const first = await runCtMonitor(platform.deps)
    expect(first).toMatchObject({ read: 3, logs: [{ url: log.url, from: 0, to: 3 }] })
    const found = await candidates(tokens.acme, acmeId, "certificates greater_than '0'")
    expect(found.map((r) => [r.name, r.status, r.new, r.changed_by, r.certificates])).toEqual([
      ['acme-login.com', 'registered', true, 'ct', 1],
      ['secure-acme.net', 'registered', true, 'ct', 1],
    ])
    expect(found[0]!.fuzzers).toContain('dictionary')
    const detail = await platform.db.selectFrom('brand_candidates').select('evidence').where('account_id', '=', acmeId).where('name', '=', 'secure-acme.net').executeTakeFirstOrThrow()
    expect(detail.evidence?.ct?.[0]).toMatchObject({ log: 'Test log', index: 1, names: ['secure-acme.net'], issuer: 'CN=Feed Test CA, O=Feed Test CA' })

    // Nothing new in the log: no run, the flags stay; a new certificate: only what it found is new.
    expect(await runCtMonitor(platform.deps)).toMatchObject({ read: 0 })
    expect((await candidates(tokens.acme, acmeId, "new equals 'true'")).map((r) => r.name)).toEqual(['acme-login.com', 'secure-acme.net'])
    log.add([makeCertificate(ca, ['acme-login.com']), ca.certificate])
    expect(await runCtMonitor(platform.deps)).toMatchObject({ read: 1, logs: [{ from: 3, to: 4 }] })
    expect((await candidates(tokens.acme, acmeId, "new equals 'true'")).map((r) => [r.name, r.certificates])).toEqual([['acme-login.com', 2]])
    // Each finding is a brand.detection event for the account's webhooks, with the certificate.
    const events = await platform.db.selectFrom('webhook_events').select(['account_id', 'data']).where('type', '=', 'brand.detection').execute()
    expect(events.map((e) => `${e.account_id} ${(e.data as { name: string }).name}`).sort()).toEqual([`${acmeId} acme-login.com`, `${acmeId} acme-login.com`, `${acmeId} secure-acme.net`])
    expect(events.find((e) => (e.data as { name: string }).name === 'secure-acme.net')!.data).toMatchObject({
      source: 'ct',
      status: 'registered',
      certificate: { index: 1, names: ['secure-acme.net'] },
    })
    // Another account sees none of it.
    expect(await candidates(tokens.globex, globexId, "certificates greater_than '0'")).toEqual([])
    expect((await platform.call('GET', `/groups/${acmeId}/brand-candidates`, { token: tokens.globex })).status).toBe(404)
  })
})

describe('the zone feed', () => {
  it('takes a TLD’s first file as the base, then flags the names delegated since that look like a brand', async () => {
    const zone = (names: string[]) => names.map((n) => `${n}.\t86400\tin\tns\tns1.host.example.\n`).join('')
    const base = ['acme-login.com', 'example-one.com', 'older.com']
    writeFileSync(path.join(zoneDir, 'com-20261127.zone'), `com.\t86400\tin\tsoa\ta.gtld. nstld. 1 2 3 4 5\n${zone(base)}`)
    expect(await runZoneFeeds(platform.deps)).toMatchObject({ zones: [{ tld: 'com', file: 'com-20261127.zone', added: 0, base: null }] })
    writeFileSync(path.join(zoneDir, 'com-20261128.txt.gz'), gzipSync(zone([...base.slice(0, 2), 'acmepay.com', 'acrne.com', 'new-unrelated.com'])))
    const second = await runZoneFeeds(platform.deps)
    expect(second).toMatchObject({ zones: [{ tld: 'com', file: 'com-20261128.txt.gz', names: 5, added: 3, dropped: 1, matched: 2, base: 'com-20261127.zone' }] })
    const fresh = await candidates(tokens.acme, acmeId, "new equals 'true' and changed_by equals 'zone'")
    expect(fresh.map((r) => [r.name, r.status])).toEqual([
      ['acmepay.com', 'registered'],
      ['acrne.com', 'registered'],
    ])
    // Read once: the same folder again is no run.
    expect(await runZoneFeeds(platform.deps)).toMatchObject({ zones: [] })
  })
})
