import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPowerDnsClient } from '#server/integrations/powerdns/client.ts'
import { startPebble, type LocalPebble } from '#server/integrations/acme/local-pebble.ts'
import { createOutbound, type Outbound } from '#server/platform/core/outbound.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { findZoneOverlaps, reportZoneOverlaps } from '#server/platform/dns/service.ts'
import { addManagedDomains } from '#server/platform/domains/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { until } from '#tests/support/spawned-server.ts'

// Issue 26: whose a zone's name is. A real PowerDNS serves the zones and answers the proofs of
// control (as the DNS of a name hosted elsewhere would), and a real Pebble checks DNS-01 against it.
let pdns: PowerDnsServer
let pebble: LocalPebble
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acmeAdmin: string
let globexAdmin: string
let staff: string
let acme: string
let globex: string

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

const createZone = (account: string, token: string, body: Record<string, unknown>) => platform.call('POST', `/groups/${account}/zones`, { token, body })

beforeAll(async () => {
  pdns = await startPowerDns()
  pebble = await startPebble({ dnsServer: `127.0.0.1:${pdns.dnsPort}` })
  const overrides: Partial<PlatformDeps> & { outbound: Outbound } = {
    powerdns: pdns.settings,
    // Proofs of control are looked up through the configured resolver: here the PowerDNS that plays the names' DNS hosts.
    outbound: createOutbound({ resolver: [`127.0.0.1:${pdns.dnsPort}`] }),
    ssl: { keySecret: 'test-ssl-key-secret-0123456789abcdef', acme: { directoryUrl: pebble.directoryUrl, caName: 'Pebble', tlsCaPem: pebble.tlsCaPem, dvOnly: true, caaIdentities: ['pebble.test'] } },
  }
  platform = await createTestPlatform(overrides, { seed: { domainsPerAccount: [1, 1] } })
  await platform.deps.jobs.start({ work: true })
  acmeAdmin = await login('admin@acme.example')
  globexAdmin = await login('admin@globex.example')
  staff = await login('staff@example.com')
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  // Globex's portfolio: globex-academy.com hosted here with its own www, globex-academy.de without a zone yet.
  const expires_at = new Date(Date.now() + 300 * 86_400_000)
  const [com] = await addManagedDomains(platform.db, systemScope('test', globex), [
    { name: 'globex-academy.com', expires_at },
    { name: 'globex-academy.de', expires_at },
  ])
  const zone = await createZone(globex, globexAdmin, { domain_id: com!.id })
  expect(zone.status, JSON.stringify(zone.json)).toBe(201)
  const www = await platform.call('POST', `/groups/${globex}/zones/${zone.json.id}/changes`, {
    token: globexAdmin,
    body: { changes: [{ action: 'add', name: 'www', type: 'CNAME', content: 'globex-academy.com.' }] },
  })
  expect(www.status).toBe(200)
  await until(
    () => pdns.dig('www.globex-academy.com', 'CNAME'),
    (a) => a.length === 1,
    "Globex's www published",
    30_000,
  )
}, 240_000)

afterAll(async () => {
  await platform?.close()
  await pebble?.stop()
  await pdns?.stop()
})

describe("a zone is never made for another account's name", () => {
  it("refuses Acme a zone at or inside Globex's domains, for staff acting in Acme too; PowerDNS keeps answering Globex's www", async () => {
    for (const name of ['www.globex-academy.com', 'globex-academy.de', 'globex-academy.com', 'deep.www.globex-academy.com']) {
      const refused = await createZone(acme, acmeAdmin, { name })
      expect(refused.status, name).toBe(409)
      expect(refused.json).toMatchObject({ code: 'dns.zone-name-held', errors: [expect.objectContaining({ field: 'name', code: 'dns.zone-name-held' })] })
    }
    expect((await createZone(acme, staff, { name: 'www.globex-academy.com' })).json.code).toBe('dns.zone-name-held')
    expect(await platform.db.selectFrom('dns_zones').select('id').where('account_id', '=', acme).where('name', 'like', '%globex-academy%').execute()).toEqual([])
    expect(await pdns.dig('www.globex-academy.com', 'CNAME')).toEqual(['globex-academy.com.'])
    // Globex's own zone for its .de is made (staff acting in Globex may too).
    const de = await createZone(globex, globexAdmin, { name: 'globex-academy.de' })
    expect(de.status, JSON.stringify(de.json)).toBe(201)
    expect(de.json).toMatchObject({ control: 'portfolio', verified: true, proof: null })
    const sub = await createZone(globex, staff, { name: 'shop.globex-academy.de' })
    expect(sub.json).toMatchObject({ control: 'portfolio', verified: true })
  })

  it('keeps a name nobody here holds waiting for its proof: not published, holding the name for nobody', async () => {
    const made = await createZone(acme, acmeAdmin, { name: 'academy.com' })
    expect(made.status).toBe(201)
    expect(made.json).toMatchObject({
      control: 'proof',
      verified: false,
      verified_at: null,
      proof: { name: '_registrar-portal-challenge.academy.com', type: 'TXT', value: expect.stringMatching(/^registrar-portal-verification=[\w-]{24}$/) },
    })
    // Records may be prepared; nothing goes to PowerDNS, and no publish is queued.
    const add = await platform.call('POST', `/groups/${acme}/zones/${made.json.id}/changes`, {
      token: acmeAdmin,
      body: { changes: [{ action: 'add', name: 'www', type: 'A', content: '192.0.2.66' }] },
    })
    expect(add.status).toBe(200)
    const queued = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'dns.publish' AND data->>'zoneId' = ${made.json.id}`.execute(platform.db)
    expect(queued.rows[0]!.n).toBe(0)
    expect(await createPowerDnsClient(pdns.settings).getZone('academy.com')).toBeNull()
    expect(await pdns.dig('www.academy.com', 'A')).toEqual([])
    // Another account may take the same pending name, and the one whose proof comes first holds it.
    const theirs = await createZone(globex, globexAdmin, { name: 'academy.com' })
    expect(theirs.status).toBe(201)
    expect((await platform.call('POST', `/groups/${globex}/zones/${theirs.json.id}/verify`, { token: staff, body: { staff_confirmed: true } })).json.verified).toBe(true)
    await until(
      () => pdns.dig('academy.com', 'SOA'),
      (a) => a.length === 1,
      "Globex's academy.com published",
      30_000,
    )
    expect((await platform.call('POST', `/groups/${acme}/zones/${made.json.id}/verify`, { token: staff, body: { staff_confirmed: true } })).json.code).toBe('dns.zone-name-held')
    // Acme's zone of the same name shows nothing of what PowerDNS serves under it (Globex's).
    const drift = await platform.call('GET', `/groups/${acme}/zones/${made.json.id}/drift`, { token: acmeAdmin })
    expect(drift.json).toMatchObject({ verified: false, drift: null, drift_checked_at: null })
    // Signing a zone that is not served is refused.
    expect((await platform.call('POST', `/groups/${acme}/zones/${made.json.id}/dnssec/sign`, { token: acmeAdmin })).json.code).toBe('dns.zone-unverified')
    // Only staff may confirm a proof made another way.
    expect((await platform.call('POST', `/groups/${acme}/zones/${made.json.id}/verify`, { token: acmeAdmin, body: { staff_confirmed: true } })).status).toBe(403)
  })

  it('makes a zone for a name hosted elsewhere live once its TXT proof is in its DNS; a certificate for it is issued through it', async () => {
    const name = 'shop.elsewhere-example.org'
    const made = await createZone(acme, acmeAdmin, { name })
    expect(made.json).toMatchObject({ control: 'proof', verified: false })
    const missing = await platform.call('POST', `/groups/${acme}/zones/${made.json.id}/verify`, { token: acmeAdmin })
    expect(missing.status).toBe(409)
    expect(missing.json).toMatchObject({ code: 'dns.zone-proof-missing', record: { name: `_registrar-portal-challenge.${name}`, type: 'TXT', value: made.json.proof.value } })
    // The name's DNS host (a zone of PowerDNS none of our accounts has) gets the record.
    const host = createPowerDnsClient(pdns.settings)
    await host.createZone('elsewhere-example.org', [
      { name: 'elsewhere-example.org.', type: 'SOA', ttl: 3600, records: [{ content: 'ns1.elsewhere-example.org. hostmaster.elsewhere-example.org. 1 10800 3600 604800 3600', disabled: false }] },
      { name: 'elsewhere-example.org.', type: 'NS', ttl: 3600, records: [{ content: 'ns1.elsewhere-example.org.', disabled: false }] },
      { name: `_registrar-portal-challenge.${name}.`, type: 'TXT', ttl: 60, records: [{ content: JSON.stringify(made.json.proof.value), disabled: false }] },
    ])
    const verified = await platform.call('POST', `/groups/${acme}/zones/${made.json.id}/verify`, { token: acmeAdmin })
    expect(verified.status, JSON.stringify(verified.json)).toBe(200)
    expect(verified.json).toMatchObject({ control: 'proof', verified: true, proof: null, verified_at: expect.any(String) })
    await until(
      () => pdns.dig(name, 'SOA'),
      (a) => a.length === 1,
      'the verified zone published',
      30_000,
    )
    // The one waiting elsewhere for the same name in Globex can no longer be verified: the name is Acme's now.
    const other = await createZone(globex, globexAdmin, { name })
    expect(other.status).toBe(409)
    // A name under the verified zone needs no proof of its own.
    expect((await createZone(acme, acmeAdmin, { name: `api.${name}` })).json).toMatchObject({ control: 'portfolio', verified: true })
    const ordered = await platform.call('POST', `/groups/${acme}/ssls`, { token: acmeAdmin, body: { product: 'dv-single', period_months: 12, names: [`www.${name}`] } })
    expect(ordered.status, JSON.stringify(ordered.json)).toBe(201)
    const cert = await until(
      () => platform.call('GET', `/groups/${acme}/ssls/${ordered.json.id}`, { token: acmeAdmin }).then((r) => r.json),
      (c) => !['pending_validation', 'issuing'].includes(c.status),
      'the certificate settled',
      90_000,
    )
    expect(cert.status, cert.failure_reason ?? '').toBe('issued')
    expect(cert.validations).toEqual([expect.objectContaining({ method: 'dns-01', hosted: true, state: 'valid' })])
  }, 180_000)

  it("refuses a zone above another account's zone, and a certificate for another account's name", async () => {
    // Globex hosts a name elsewhere (a proof confirmed by staff); Acme may not take the name above it.
    const below = await createZone(globex, globexAdmin, { name: 'shop.outside-example.net' })
    expect(below.json.verified).toBe(false)
    expect((await platform.call('POST', `/groups/${globex}/zones/${below.json.id}/verify`, { token: staff, body: { staff_confirmed: true } })).json.verified).toBe(true)
    expect((await createZone(acme, acmeAdmin, { name: 'outside-example.net' })).json.code).toBe('dns.zone-name-held')

    for (const names of [['www.globex-academy.com'], ['globex-academy.de'], ['*.outside-example.net'], ['ok.example-acme-free.com', 'shop.globex-academy.de']]) {
      const refused = await platform.call('POST', `/groups/${acme}/ssls`, { token: acmeAdmin, body: { product: 'dv-wildcard', period_months: 12, names } })
      expect(refused.status, names.join()).toBe(400)
      expect(refused.json.errors).toEqual([expect.objectContaining({ field: `names.${names.length - 1}`, code: 'ssl.name-not-yours' })])
    }
    expect(
      await platform.db
        .selectFrom('ssl_certificates')
        .select('id')
        .where('account_id', '=', acme)
        .where(sql<boolean>`array_to_string(names, ' ') LIKE '%globex%'`)
        .execute(),
    ).toEqual([])
  })
})

describe('overlaps made before issue 26', () => {
  it('are found at start and listed to staff only', async () => {
    // A zone stored before the rule (as the migration keeps them: live), inside Globex's domain.
    const legacy = await platform.db
      .insertInto('dns_zones')
      .values({
        account_id: acme,
        domain_id: null,
        name: 'legacy.globex-academy.com',
        serial: 1,
        published_serial: null,
        published_at: null,
        last_error: null,
        drift: null,
        drift_checked_at: null,
        control: 'proof',
        verified_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const overlaps = await findZoneOverlaps(platform.db)
    expect(overlaps).toEqual([
      {
        inner: { kind: 'zone', id: legacy.id, account_id: acme, name: 'legacy.globex-academy.com' },
        outer: { kind: 'domain', id: expect.any(String), account_id: globex, name: 'globex-academy.com' },
      },
      expect.objectContaining({
        inner: expect.objectContaining({ kind: 'zone', name: 'legacy.globex-academy.com' }),
        outer: expect.objectContaining({ kind: 'zone', account_id: globex, name: 'globex-academy.com' }),
      }),
    ])
    const warned: unknown[] = []
    const logger = { ...platform.deps.logger, warn: (...args: unknown[]) => void warned.push(args) }
    expect(await reportZoneOverlaps({ db: platform.db, logger })).toHaveLength(2)
    expect(warned).toHaveLength(2)
    const listed = await platform.call('GET', '/dns/zone-overlaps', { token: staff })
    expect(listed.status).toBe(200)
    expect(listed.json.data).toHaveLength(2)
    expect((await platform.call('GET', '/dns/zone-overlaps', { token: acmeAdmin })).status).toBe(403)
    await platform.db.deleteFrom('dns_zones').where('id', '=', legacy.id).execute()
    expect(await findZoneOverlaps(platform.db)).toEqual([])
  })
})
