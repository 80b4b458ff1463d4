import { execFileSync } from 'node:child_process'
import { createPrivateKey, X509Certificate } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPebble, type LocalPebble } from '#server/integrations/acme/local-pebble.ts'
import { createLogger } from '#server/lib/logger.ts'
import { createServer } from 'node:http'
import { renewalWindow } from '#server/integrations/acme/ari.ts'
import { caaAllows, checkCaa } from '#server/platform/ssl/caa.ts'
import { runSslExpiryNotices, sweepRenewals } from '#server/platform/ssl/jobs.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// A real Pebble answering DNS-01 against a real PowerDNS, one of each for the file; the real job
// worker issues. Every certificate below is really issued and checked with node:crypto.
let pdns: PowerDnsServer
let pebble: LocalPebble
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let admin: string
let viewer: string
let otherAdmin: string
let acme: string
let globex: string
const ZONE = 'ssl-demo.test'

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

/** Waits until the certificate leaves the in-flight states (the job worker runs the issuance). */
async function settled(id: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await platform.call('GET', `/groups/${acme}/ssls/${id}`, { token: admin })
    if (!['pending_validation', 'issuing'].includes(res.json.status)) return res.json
    if (Date.now() > deadline) return res.json
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

beforeAll(async () => {
  pdns = await startPowerDns()
  pebble = await startPebble({ dnsServer: `127.0.0.1:${pdns.dnsPort}` })
  platform = await createTestPlatform({
    powerdns: pdns.settings,
    ssl: { keySecret: 'test-ssl-key-secret-0123456789abcdef', acme: { directoryUrl: pebble.directoryUrl, caName: 'Pebble', tlsCaPem: pebble.tlsCaPem, dvOnly: true, caaIdentities: ['pebble.test'] } },
  })
  await seedDemo(platform.db, createLogger('silent'), { domainsPerAccount: [1, 1] })
  await platform.deps.jobs.start({ work: true })
  admin = await login('admin@acme.example')
  viewer = await login('viewer@acme.example')
  otherAdmin = await login('admin@globex.example')
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  const zone = await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: ZONE } })
  expect(zone.status).toBe(201)
}, 90_000)

afterAll(async () => {
  await platform?.close()
  await pebble?.stop()
  await pdns?.stop()
})

let issuedId: string

describe('a DV certificate for a name whose zone we host', () => {
  it('is ordered, validated by DNS-01 through PowerDNS, issued, and its chain verifies against the CA root', async () => {
    const started = Date.now()
    const ordered = await platform.call('POST', `/groups/${acme}/ssls`, { token: admin, body: { product: 'dv-multi', period_months: 12, names: [`www.${ZONE}`, ZONE] } })
    expect(ordered.status).toBe(201)
    expect(ordered.json).toMatchObject({ status: 'pending_validation', common_name: `www.${ZONE}`, names: [`www.${ZONE}`, ZONE], key_type: 'ecdsa-p256', has_private_key: true, price: null })
    issuedId = ordered.json.id
    const cert = await settled(issuedId)
    const seconds = (Date.now() - started) / 1000
    expect(cert.status, cert.failure_reason ?? '').toBe('issued')
    expect(seconds).toBeLessThan(10)
    expect(cert.validations).toEqual([
      expect.objectContaining({ name: ZONE, method: 'dns-01', state: 'valid', record_name: `_acme-challenge.${ZONE}`, hosted: true, published: false }),
      expect.objectContaining({ name: `www.${ZONE}`, state: 'valid', record_name: `_acme-challenge.www.${ZONE}`, hosted: true, published: false }),
    ])
    // Nothing stale stays published: the TXT records are gone from PowerDNS.
    expect(await pdns.dig(`_acme-challenge.www.${ZONE}`, 'TXT')).toEqual([])

    const file = async (name: string, format = 'pem', token = admin) => platform.call('GET', `/groups/${acme}/ssls/${issuedId}/files/${name}?format=${format}`, { token })
    const leafPem = Buffer.from((await file('certificate')).json.content_base64, 'base64').toString()
    const chainPem = Buffer.from((await file('chain')).json.content_base64, 'base64').toString()
    const leaf = new X509Certificate(leafPem)
    const intermediate = new X509Certificate(chainPem)
    const root = new X509Certificate(await pebble.root())
    expect(leaf.subjectAltName).toBe(`DNS:www.${ZONE}, DNS:${ZONE}`)
    expect(leaf.verify(intermediate.publicKey)).toBe(true)
    expect(intermediate.verify(root.publicKey)).toBe(true)
    expect(leaf.checkIssued(intermediate)).toBe(true)
    expect(cert.serial).toBe(leaf.serialNumber)
    expect(new Date(cert.not_after).getTime()).toBe(new Date(leaf.validTo).getTime())
    // openssl agrees, against Pebble's root.
    const dir = mkdtempSync(path.join(tmpdir(), 'ssl-'))
    try {
      writeFileSync(path.join(dir, 'root.pem'), await pebble.root())
      writeFileSync(path.join(dir, 'chain.pem'), chainPem)
      writeFileSync(path.join(dir, 'leaf.pem'), leafPem)
      const verified = execFileSync('openssl', ['verify', '-CAfile', path.join(dir, 'root.pem'), '-untrusted', path.join(dir, 'chain.pem'), path.join(dir, 'leaf.pem')]).toString()
      expect(verified.trim()).toBe(`${path.join(dir, 'leaf.pem')}: OK`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }

    // The key matches the certificate; its download is in the trail; DER is the leaf's DER.
    const keyPem = Buffer.from((await file('private-key')).json.content_base64, 'base64').toString()
    expect(leaf.checkPrivateKey(createPrivateKey(keyPem))).toBe(true)
    expect(Buffer.from((await file('certificate', 'der')).json.content_base64, 'base64').equals(leaf.raw)).toBe(true)
    const fullchain = Buffer.from((await file('fullchain')).json.content_base64, 'base64').toString()
    expect(fullchain).toBe(`${leafPem.trimEnd()}\n${chainPem}`)
    const log = await platform.call('GET', `/groups/${acme}/audit-entries?filter[area]=ssl&filter[entity_id]=${issuedId}&sort=created_at`, { token: admin })
    expect(log.json.data.map((e: { action: string }) => e.action)).toEqual(['order', 'issue', 'download-key'])
    // PKCS#12 in both profiles opens with its password (and not without it), with the key and the chain.
    const p12dir = mkdtempSync(path.join(tmpdir(), 'p12-'))
    try {
      for (const profile of ['modern', 'legacy']) {
        const res = await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/pkcs12`, { token: admin, body: { password: 'open sesame', profile } })
        expect(res.status).toBe(200)
        const file = path.join(p12dir, res.json.filename)
        writeFileSync(file, Buffer.from(res.json.content_base64, 'base64'))
        const opened = execFileSync('openssl', ['pkcs12', '-in', file, '-passin', 'pass:open sesame', '-nodes'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()
        expect(opened.match(/BEGIN CERTIFICATE/g)).toHaveLength(2)
        expect(leaf.checkPrivateKey(createPrivateKey(opened.slice(opened.indexOf('-----BEGIN PRIVATE KEY'))))).toBe(true)
        expect(() => execFileSync('openssl', ['pkcs12', '-in', file, '-passin', 'pass:wrong', '-nodes'], { stdio: 'ignore' })).toThrow()
      }
    } finally {
      rmSync(p12dir, { recursive: true, force: true })
    }
    const encrypted = await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/pkcs12`, { token: admin, body: { password: 'open sesame', profile: 'pkcs8' } })
    const encryptedPem = Buffer.from(encrypted.json.content_base64, 'base64').toString()
    expect(encryptedPem).toContain('BEGIN ENCRYPTED PRIVATE KEY')
    expect(leaf.checkPrivateKey(createPrivateKey({ key: encryptedPem, passphrase: 'open sesame' }))).toBe(true)
    const short = await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/pkcs12`, { token: admin, body: { password: 'short', profile: 'modern' } })
    expect(short.json.errors).toEqual([expect.objectContaining({ field: 'password', code: 'ssl.pkcs12-password-short' })])
    expect((await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/pkcs12`, { token: viewer, body: { password: 'open sesame', profile: 'modern' } })).status).toBe(403)
    // The key is sealed at rest, never stored in the clear.
    const row = await platform.db.selectFrom('ssl_certificates').select('private_key_enc').where('id', '=', issuedId).executeTakeFirstOrThrow()
    expect(row.private_key_enc).toMatch(/^v1\./)
    expect(row.private_key_enc).not.toContain('PRIVATE KEY')
  }, 30_000)

  it('lists it with the list engine: status, names contains, CSV-ready rows', async () => {
    const list = await platform.call('GET', `/groups/${acme}/ssls?filter[status]=issued&pql=${encodeURIComponent("names contains 'www.ssl-demo'")}`, { token: viewer })
    expect(list.status).toBe(200)
    expect(list.json.data.map((r: { id: string }) => r.id)).toEqual([issuedId])
    expect((await platform.call('GET', `/groups/${globex}/ssls`, { token: otherAdmin })).json.data).toEqual([])
  })

  it('renews under the same coverage term when its renewal point has passed', async () => {
    await platform.db
      .updateTable('ssl_certificates')
      .set({ renew_after: new Date(Date.now() - 1000) })
      .where('id', '=', issuedId)
      .execute()
    // The scheduled sweep may run at the same moment: one successor either way, and none after it.
    await sweepRenewals(platform.deps)
    expect(await sweepRenewals(platform.deps)).toEqual({ renewed: 0 })
    const successors = await platform.db.selectFrom('ssl_certificates').selectAll().where('renewal_of', '=', issuedId).execute()
    expect(successors).toHaveLength(1)
    const successor = successors[0]!
    const renewed = await settled(successor.id)
    expect(renewed.status, renewed.failure_reason ?? '').toBe('issued')
    expect(renewed.term.certificates.map((c: { id: string }) => c.id)).toEqual([issuedId, successor.id])
    // A new key: renewals rotate it.
    const old = await platform.db.selectFrom('ssl_certificates').select('certificate_pem').where('id', '=', issuedId).executeTakeFirstOrThrow()
    const next = await platform.db.selectFrom('ssl_certificates').select('certificate_pem').where('id', '=', successor.id).executeTakeFirstOrThrow()
    const spki = (pem: string) => new X509Certificate(pem).publicKey.export({ format: 'der', type: 'spki' })
    expect(spki(next.certificate_pem!).equals(spki(old.certificate_pem!))).toBe(false)
    expect(renewed.serial).not.toBe(new X509Certificate(old.certificate_pem!).serialNumber)
  }, 30_000)

  it('mails expiry notices once per threshold and coverage term, only for a certificate nothing replaces', async () => {
    const [first, latest] = (await platform.call('GET', `/groups/${acme}/ssls/${issuedId}`, { token: admin })).json.term.certificates.map((c: { id: string }) => c.id)
    const soon = new Date(Date.now() + 20 * 86_400_000)
    await platform.db.updateTable('ssl_certificates').set({ not_after: soon }).where('id', 'in', [first, latest]).execute()
    const sent: { to: string; subject: string; text: string }[] = []
    const deps = { ...platform.deps, mailer: { send: async (m: { to: string; subject: string; text: string }) => void sent.push(m) } }
    expect(await runSslExpiryNotices(deps)).toEqual({ certificates: 1, mails: 1 })
    expect(sent).toEqual([expect.objectContaining({ to: 'admin@acme.example', subject: '1 SSL certificate expiring soon' })])
    expect(sent[0]!.text).toContain(`www.${ZONE}, ${ZONE}: expires ${soon.toISOString().slice(0, 10)} (in 20 days)`)
    // Once per threshold and term; the next threshold crossed is noticed again, the ones above it count as sent.
    expect(await runSslExpiryNotices(deps)).toEqual({ certificates: 0, mails: 0 })
    expect(await runSslExpiryNotices({ ...deps, now: () => new Date(Date.now() + 15 * 86_400_000) })).toEqual({ certificates: 1, mails: 1 })
    const page = await platform.call('GET', `/groups/${acme}/ssls/${latest}`, { token: viewer })
    expect(page.json.term.notices_sent).toEqual([30, 14, 7])
  })

  it('reissues under the same coverage term with a new key, and imports a certificate bought elsewhere', async () => {
    const before = (await platform.call('GET', `/groups/${acme}/ssls/${issuedId}`, { token: admin })).json.term
    const latest = before.certificates.at(-1).id
    const reissue = await platform.call('POST', `/groups/${acme}/ssls/${latest}/reissue`, { token: admin, body: { key_type: 'rsa-2048' } })
    expect(reissue.status, JSON.stringify(reissue.json)).toBe(201)
    expect(reissue.json).toMatchObject({ origin: 'reissue', renewal_of: latest, term_id: before.id, key_type: 'rsa-2048', names: [`www.${ZONE}`, ZONE] })
    const again = await platform.call('POST', `/groups/${acme}/ssls/${latest}/reissue`, { token: admin, body: {} })
    expect(again.status).toBe(409)
    expect(again.json.code).toBe('ssl.superseded')
    const reissued = await settled(reissue.json.id)
    expect(reissued.status, reissued.failure_reason ?? '').toBe('issued')
    expect(reissued.term.ends_at).toBe(before.ends_at)
    expect(reissued.term.certificates.map((c: { origin: string }) => c.origin)).toEqual(['order', 'renewal', 'reissue'])

    // Its files, imported into the other account as a certificate bought elsewhere.
    const file = async (name: string) => Buffer.from((await platform.call('GET', `/groups/${acme}/ssls/${reissued.id}/files/${name}`, { token: admin })).json.content_base64, 'base64').toString()
    const [certificate, chain, key] = [await file('certificate'), await file('chain'), await file('private-key')]
    const wrongKey = Buffer.from((await platform.call('GET', `/groups/${acme}/ssls/${latest}/files/private-key`, { token: admin })).json.content_base64, 'base64').toString()
    const refused = await platform.call('POST', `/groups/${globex}/ssl-imports`, { token: otherAdmin, body: { certificate, chain: certificate, private_key: wrongKey } })
    expect(refused.status).toBe(400)
    expect(refused.json.errors.map((e: { code: string }) => e.code)).toEqual(['ssl.import-chain-broken', 'ssl.import-key-mismatch'])
    const imported = await platform.call('POST', `/groups/${globex}/ssl-imports`, { token: otherAdmin, body: { certificate: `${certificate}${chain}`, private_key: key } })
    expect(imported.status, JSON.stringify(imported.json)).toBe(201)
    expect(imported.json).toMatchObject({
      origin: 'import',
      key_source: 'imported',
      status: 'issued',
      names: [`www.${ZONE}`, ZONE],
      key_type: 'rsa-2048',
      has_private_key: true,
      serial: reissued.serial,
      not_after: reissued.not_after,
      renew_after: null,
    })
    expect(imported.json.ca).toMatch(/Pebble/)
    const twice = await platform.call('POST', `/groups/${globex}/ssl-imports`, { token: otherAdmin, body: { certificate } })
    expect(twice.json.errors.map((e: { code: string }) => e.code)).toEqual(['ssl.import-duplicate'])
    expect((await platform.call('POST', `/groups/${globex}/ssls/${imported.json.id}/revoke`, { token: otherAdmin, body: { reason: 'superseded' } })).json.code).toBe('ssl.imported')
    expect((await platform.call('POST', `/groups/${globex}/ssls/${imported.json.id}/reissue`, { token: otherAdmin, body: {} })).json.code).toBe('ssl.imported')
    const back = Buffer.from((await platform.call('GET', `/groups/${globex}/ssls/${imported.json.id}/files/fullchain`, { token: otherAdmin })).json.content_base64, 'base64').toString()
    expect(back).toBe(`${certificate.trimEnd()}\n${chain}`)
  }, 30_000)

  it('revokes at the CA with an RFC 5280 reason', async () => {
    const res = await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/revoke`, { token: admin, body: { reason: 'superseded' } })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ status: 'revoked', revocation_reason: 'superseded' })
    const again = await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/revoke`, { token: admin, body: { reason: 'superseded' } })
    expect(again.status).toBe(409)
  })
})

describe('ACME Renewal Information (RFC 9773)', () => {
  it("asks the CA's renewalInfo for the certificate's window by its certID; none offered: null (two thirds of the lifetime)", async () => {
    const row = await platform.db.selectFrom('ssl_certificates').select('certificate_pem').where('id', '=', issuedId).executeTakeFirstOrThrow()
    const leaf = new X509Certificate(row.certificate_pem!)
    const aki = execFileSync('openssl', ['x509', '-noout', '-ext', 'authorityKeyIdentifier'], { input: row.certificate_pem! })
      .toString()
      .match(/([0-9A-F]{2}(:[0-9A-F]{2})+)/)![1]!
      .replace(/:/g, '')
    let serial = Buffer.from(leaf.serialNumber.padStart(leaf.serialNumber.length + (leaf.serialNumber.length % 2), '0'), 'hex')
    if (serial[0]! & 0x80) serial = Buffer.concat([Buffer.from([0]), serial])
    const certId = `${Buffer.from(aki, 'hex').toString('base64url')}.${serial.toString('base64url')}`
    const asked: string[] = []
    const server = createServer((req, res) => {
      asked.push(req.url!)
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(req.url === '/directory' ? { renewalInfo: `${base}/ari/` } : { suggestedWindow: { start: '2030-01-01T00:00:00Z', end: '2030-01-02T00:00:00Z' } }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const port = (server.address() as { port: number }).port
      expect(await renewalWindow({ directoryUrl: `http://127.0.0.1:${port}/directory` }, row.certificate_pem!)).toEqual({
        start: new Date('2030-01-01T00:00:00Z'),
        end: new Date('2030-01-02T00:00:00Z'),
      })
      expect(asked).toEqual(['/directory', `/ari/${certId}`])
    } finally {
      server.close()
    }
    // Pebble 2.4 offers no renewalInfo.
    expect(await renewalWindow({ directoryUrl: pebble.directoryUrl, tlsCaPem: pebble.tlsCaPem }, row.certificate_pem!)).toBeNull()
  })
})

describe('orders refused', () => {
  it('names the field: wildcard on a product without, too many names, a weak or mismatched CSR', async () => {
    const wildcard = await platform.call('POST', `/groups/${acme}/ssls`, { token: admin, body: { product: 'dv-single', period_months: 12, names: [`*.${ZONE}`] } })
    expect(wildcard.status).toBe(400)
    expect(wildcard.json.errors).toEqual([expect.objectContaining({ field: 'names.0', code: 'ssl.wildcard-not-allowed' })])
    const many = await platform.call('POST', `/groups/${acme}/ssls`, { token: admin, body: { product: 'dv-single', period_months: 12, names: [`a.${ZONE}`, `b.${ZONE}`] } })
    expect(many.json.errors).toEqual([expect.objectContaining({ field: 'names', code: 'ssl.too-many-names' })])
    const dir = mkdtempSync(path.join(tmpdir(), 'csr-'))
    try {
      const csr = (bits: number, cn: string) =>
        execFileSync('openssl', ['req', '-new', '-newkey', `rsa:${bits}`, '-nodes', '-keyout', path.join(dir, 'k.pem'), '-subj', `/CN=${cn}`], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()
      const weak = await platform.call('POST', `/groups/${acme}/ssls`, { token: admin, body: { product: 'dv-single', period_months: 12, names: [`www.${ZONE}`], csr: csr(1024, `www.${ZONE}`) } })
      expect(weak.status).toBe(400)
      expect(weak.json.errors).toEqual([expect.objectContaining({ field: 'csr', code: 'ssl.csr-weak-key' })])
      const other = await platform.call('POST', `/groups/${acme}/ssls`, { token: admin, body: { product: 'dv-single', period_months: 12, names: [`www.${ZONE}`], csr: csr(2048, `mail.${ZONE}`) } })
      expect(other.json.errors).toEqual([expect.objectContaining({ field: 'csr', code: 'ssl.csr-names-differ' })])
      const decoded = await platform.call('POST', `/groups/${acme}/ssl-csr`, { token: viewer, body: { csr: csr(2048, `www.${ZONE}`) } })
      expect(decoded.json).toEqual({ common_name: `www.${ZONE}`, names: [`www.${ZONE}`], key_type: 'rsa-2048', key_bits: 2048, weak: null })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    expect(await platform.db.selectFrom('ssl_certificates').select('id').where('status', '=', 'pending_validation').execute()).toEqual([])
  }, 30_000)
})

describe('CAA (RFC 8659, RFC 8657)', () => {
  it('refuses a name whose CAA forbids the CA, beside the name with the record to add; allows it once the record names the CA', async () => {
    const zoneId = (await platform.db.selectFrom('dns_zones').select('id').where('name', '=', ZONE).executeTakeFirstOrThrow()).id
    const add = (content: string) => platform.call('POST', `/groups/${acme}/zones/${zoneId}/changes`, { token: admin, body: { changes: [{ action: 'add', name: 'caa', type: 'CAA', content }] } })
    expect((await add('0 issue "other-ca.example"')).status).toBe(200)
    const refused = await platform.call('POST', `/groups/${acme}/ssls`, { token: admin, body: { product: 'dv-single', period_months: 12, names: [`www.caa.${ZONE}`] } })
    expect(refused.status).toBe(400)
    expect(refused.json.errors).toEqual([expect.objectContaining({ field: 'names.0', code: 'ssl.caa-forbids' })])
    expect(refused.json.errors[0].message).toContain(`caa.${ZONE}. CAA 0 issue "pebble.test"`)
    // One click: the record naming our CA is added where the deciding CAA records are.
    const fixed = await platform.call('POST', `/groups/${acme}/ssl-caa`, { token: admin, body: { name: `www.caa.${ZONE}` } })
    expect(fixed.json).toEqual({ name: `www.caa.${ZONE}`, domain: `caa.${ZONE}`, added: '0 issue "pebble.test"' })
    expect((await platform.call('POST', `/groups/${acme}/ssl-caa`, { token: admin, body: { name: `www.caa.${ZONE}` } })).json.added).toBeNull()
    expect((await platform.call('POST', `/groups/${acme}/ssl-caa`, { token: viewer, body: { name: `www.caa.${ZONE}` } })).status).toBe(403)
    expect((await add('0 issue "pebble.test; validationmethods=dns-01"')).status).toBe(200)
    expect(await checkCaa(platform.deps, acme, [`www.caa.${ZONE}`, `other.${ZONE}`], ['pebble.test'], null)).toEqual([
      expect.objectContaining({ name: `www.caa.${ZONE}`, domain: `caa.${ZONE}`, allowed: true }),
      expect.objectContaining({ name: `other.${ZONE}`, domain: null, allowed: true }),
    ])
    const records = [{ flags: 0, tag: 'issue', value: 'pebble.test; accounturi=https://ca/acct/1; validationmethods=http-01' }]
    expect(caaAllows(records, ['pebble.test'], { wildcard: false, accountUri: 'https://ca/acct/1' }).allowed).toBe(false)
    expect(caaAllows(records, ['pebble.test'], { wildcard: false, accountUri: 'https://ca/acct/1', method: 'http-01' }).allowed).toBe(true)
    expect(
      caaAllows(
        [
          { flags: 0, tag: 'issue', value: ';' },
          { flags: 0, tag: 'issuewild', value: 'pebble.test' },
        ],
        ['pebble.test'],
        { wildcard: true },
      ).allowed,
    ).toBe(true)
  })
})

describe('permissions and tenancy', () => {
  it('lets a viewer read but never order, revoke, cancel, check or take the key', async () => {
    expect((await platform.call('GET', `/groups/${acme}/ssls/${issuedId}`, { token: viewer })).status).toBe(200)
    expect((await platform.call('GET', `/groups/${acme}/ssls/${issuedId}/files/certificate`, { token: viewer })).status).toBe(200)
    const refused = [
      await platform.call('POST', `/groups/${acme}/ssls`, { token: viewer, body: { product: 'dv-single', period_months: 12, names: [`v.${ZONE}`] } }),
      await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/revoke`, { token: viewer, body: { reason: 'keyCompromise' } }),
      await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/cancel`, { token: viewer }),
      await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/check`, { token: viewer }),
      await platform.call('GET', `/groups/${acme}/ssls/${issuedId}/files/private-key`, { token: viewer }),
      await platform.call('POST', `/groups/${acme}/ssls/${issuedId}/reissue`, { token: viewer, body: {} }),
      await platform.call('POST', `/groups/${acme}/ssl-imports`, { token: viewer, body: { certificate: 'x' } }),
    ]
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403])
  })

  it("answers 404 for another account's certificate on every endpoint", async () => {
    const paths: [string, string, unknown?][] = [
      ['GET', `/groups/${globex}/ssls/${issuedId}`],
      ['GET', `/groups/${globex}/ssls/${issuedId}/files/certificate`],
      ['GET', `/groups/${globex}/ssls/${issuedId}/files/private-key`],
      ['POST', `/groups/${globex}/ssls/${issuedId}/revoke`, { reason: 'superseded' }],
      ['POST', `/groups/${globex}/ssls/${issuedId}/cancel`],
      ['POST', `/groups/${globex}/ssls/${issuedId}/check`],
      ['POST', `/groups/${globex}/ssls/${issuedId}/reissue`, {}],
      ['GET', `/groups/${acme}/ssls/${issuedId}`],
      ['GET', `/groups/${acme}/ssls`],
    ]
    for (const [method, p, body] of paths) {
      const res = await platform.call(method, p, { token: otherAdmin, ...(body ? { body } : {}) })
      expect(res.status, `${method} ${p}`).toBe(404)
    }
  })
})
