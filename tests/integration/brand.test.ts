import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemScope } from '#server/platform/core/scope.ts'
import { addManagedDomains } from '#server/platform/domains/service.ts'
import { createUser } from '#server/platform/users/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createOutbound } from '#server/platform/core/outbound.ts'
import { powerDnsInstalled } from '#server/integrations/powerdns/local-server.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'
import { liveZone } from '#tests/support/zones.ts'

// Brand protection (issue 30): the lookalike engine's contract, GET /v1/lookalikes, a list of the
// list engine over candidates made for the request; brand-viewer reads it, nobody else.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let pdns: PowerDnsServer | undefined
const tokens: Record<string, string> = {}
let acmeId: string
let globexId: string

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}
const get = (path: string, token?: string) => platform.call('GET', path, token ? { token } : {})
const q = (params: Record<string, string>) => new URLSearchParams(params).toString()

beforeAll(async () => {
  // Our PowerDNS is the resolver (when installed): a stranger's lookalike is a zone another account hosts.
  if (powerDnsInstalled()) pdns = await startPowerDns()
  platform = await createTestPlatform(pdns ? { powerdns: pdns.settings, outbound: createOutbound({ resolver: [`127.0.0.1:${pdns.dnsPort}`] }) } : {}, { seed: { domainsPerAccount: [1, 1] } })
  if (pdns) await platform.deps.jobs.start({ work: true })
  const acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  acmeId = acme
  globexId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  await createUser(platform.db, systemScope('test', acme), { account_id: acme, email: 'brand@acme.example', name: 'Bea Brand', password: DEMO_PASSWORD, roles: ['brand-viewer'] })
  await createUser(platform.db, systemScope('test', acme), {
    account_id: acme,
    email: 'brand-manager@acme.example',
    name: 'Bo Brand',
    password: DEMO_PASSWORD,
    roles: ['brand-manager', 'domain-viewer'],
  })
  await createUser(platform.db, systemScope('test', globexId), { account_id: globexId, email: 'brand@globex.example', name: 'Gia Brand', password: DEMO_PASSWORD, roles: ['brand-admin'] })
  tokens.brand = await login('brand@acme.example')
  tokens.manager = await login('brand-manager@acme.example')
  tokens.globex = await login('brand@globex.example')
  tokens.globexAdmin = await login('admin@globex.example')
  tokens.viewer = await login('viewer@acme.example')
  tokens.staff = await login('staff@example.com')
})
afterAll(async () => {
  await platform?.close()
  await pdns?.stop()
})

describe('GET /v1/lookalikes', () => {
  it('answers every candidate of a name as a list: highest score first, paged, each with its fuzzers, score and registrability', async () => {
    const first = await get(`/lookalikes?${q({ domain: 'acmebank.com', limit: '1000' })}`, tokens.brand)
    expect(first.status).toBe(200)
    const { data, meta } = first.json
    expect(meta.limit).toBe(1000)
    expect(meta.total).toBeGreaterThan(1000)
    expect(data).toHaveLength(1000)
    const scores = data.map((row: { score: number }) => row.score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    const row = data.find((r: { ascii: string }) => r.ascii === 'acmebnak.com')
    expect(row ?? (await get(`/lookalikes?${q({ domain: 'acmebank.com', pql: "ascii equals 'acmebnak.com'" })}`, tokens.brand)).json.data[0]).toMatchObject({
      domain: 'acmebnak.com',
      fuzzers: ['transposition'],
      registrable: true,
      tld: 'com',
    })
    const second = await get(`/lookalikes?${q({ domain: 'acmebank.com', limit: '1000', page: '2' })}`, tokens.brand)
    const seen = new Set(data.map((r: { ascii: string }) => r.ascii))
    expect(second.json.data.some((r: { ascii: string }) => seen.has(r.ascii))).toBe(false)
  })

  it('says an IDN in Unicode (domain) and in punycode (ascii), and filters by fuzzer, TLD, score and registrability', async () => {
    const cyrillic = await get(`/lookalikes?${q({ domain: 'acme.com', fuzzers: 'cyrillic' })}`, tokens.brand)
    expect(cyrillic.json.data).toEqual([{ domain: 'асме.com', ascii: 'xn--80akut.com', tld: 'com', fuzzers: ['cyrillic'], score: 100, registrable: false, registers: 'xn--80akut.com' }])
    const swapped = await get(`/lookalikes?${q({ domain: 'acme.com', fuzzers: 'tld-swap', pql: "tld equals 'de'" })}`, tokens.brand)
    expect(swapped.json.data.map((r: { domain: string }) => r.domain)).toEqual(['acme.de'])
    const filtered = await get(`/lookalikes?${q({ domain: 'acme.com', pql: "fuzzers equals 'omission' and score greater_than '60' and registrable equals 'true'", sort: 'domain' })}`, tokens.brand)
    expect(filtered.json.data.map((r: { domain: string }) => r.domain)).toEqual(['acm.com', 'ace.com', 'ame.com', 'cme.com'].sort())
    const whole = await get(`/lookalikes?${q({ domain: 'acme.com', fuzzers: 'tld-swap', tlds: 'all', limit: '1' })}`, tokens.brand)
    expect(whole.json.meta.total).toBeGreaterThan(1400)
  })

  it('refuses what is not a name, an unknown fuzzer and a page over 1,000, naming the parameter', async () => {
    const bad = await get(`/lookalikes?${q({ domain: '..' })}`, tokens.brand)
    expect(bad.status).toBe(400)
    expect(bad.json.errors[0].field).toBe('domain')
    const fuzzer = await get(`/lookalikes?${q({ domain: 'acme.com', fuzzers: 'addition,nonsense' })}`, tokens.brand)
    expect(fuzzer.status).toBe(400)
    expect(fuzzer.json.errors[0]).toMatchObject({ field: 'fuzzers', code: 'fuzzers.unknown' })
    const limit = await get(`/lookalikes?${q({ domain: 'acme.com', limit: '1001' })}`, tokens.brand)
    expect(limit.status).toBe(400)
    expect(limit.json.errors[0].field).toBe('limit')
  })

  it('is brand-viewer’s (and staff’s): a domain viewer is refused, and nobody signed out', async () => {
    expect((await get(`/lookalikes?${q({ domain: 'acme.com' })}`, tokens.viewer)).status).toBe(403)
    expect((await get(`/lookalikes?${q({ domain: 'acme.com' })}`)).status).toBe(401)
    expect((await get(`/lookalikes?${q({ domain: 'acme.com', limit: '1' })}`, tokens.staff)).status).toBe(200)
  })
})

describe('brands of an account', () => {
  const brands = () => `/groups/${acmeId}/brands`
  const candidates = (pql: string) => `/groups/${acmeId}/brand-candidates?${q({ pql, limit: '1000', sort: 'name' })}`
  const post = (path: string, token: string, body: unknown) => platform.call('POST', path, { token, body })
  let brandId: string

  it('adds a brand and lists the lookalikes the engine made of it, its own domains left out', async () => {
    const added = await post(brands(), tokens.manager!, { label: 'AcmeBank', domains: ['acmebank.com'], dictionary: ['login'], fuzzers: ['omission', 'transposition', 'tld-swap', 'dictionary'] })
    expect(added.status).toBe(201)
    expect(added.json).toMatchObject({ label: 'acmebank', domains: ['acmebank.com'], dictionary: ['login'], version: 1 })
    brandId = added.json.id
    const list = await get(candidates(`brand_id equals '${brandId}'`), tokens.brand)
    const names = list.json.data.map((c: { name: string }) => c.name)
    expect(names).toContain('acmebnak.com')
    expect(names).toContain('acmebank.net')
    expect(names).toContain('acmebank-login.com')
    expect(names).not.toContain('acmebank.com')
    expect(list.json.data.every((c: { status: string }) => c.status === 'unchecked')).toBe(true)
    const row = list.json.data.find((c: { name: string }) => c.name === 'acmebnak.com')
    expect(row).toMatchObject({ brand: { label: 'acmebank' }, fuzzers: ['transposition'], tld: 'com' })
    const listed = await get(`${brands()}?fields=label,candidates`, tokens.brand)
    expect(listed.json.data).toEqual([{ label: 'acmebank', candidates: list.json.meta.total }])
  })

  it('refuses a second brand of one label, a domain that is not one and an unknown fuzzer, naming the field', async () => {
    const twice = await post(brands(), tokens.manager!, { label: 'acmebank' })
    expect(twice.status).toBe(409)
    expect(twice.json.errors[0]).toMatchObject({ field: 'label', code: 'brand.exists' })
    const bad = await post(brands(), tokens.manager!, { label: 'other', domains: ['ok.com', 'not a name'], fuzzers: ['omission', 'teleport'] })
    expect(bad.status).toBe(400)
    expect(bad.json.errors.map((e: { field: string }) => e.field)).toEqual(['domains.1', 'fuzzers'])
  })

  it('imports brands from a list, one a line, skipping a label it has and naming a line that is no brand', async () => {
    const wrong = await post(`${brands()}/import`, tokens.manager!, { text: 'acmepay\nbad label!\n' })
    expect(wrong.status).toBe(400)
    expect(wrong.json.errors[0].field).toMatch(/^lines\.2\./)
    const imported = await post(`${brands()}/import`, tokens.manager!, { text: '# our brands\nacmebank\nacmepay.com\nacmecard: acmecard.com acmecard.de\n' })
    expect(imported.status).toBe(200)
    expect(imported.json.skipped).toEqual(['acmebank'])
    expect(imported.json.created.map((b: { label: string; domains: string[] }) => [b.label, b.domains])).toEqual([
      ['acmepay', ['acmepay.com']],
      ['acmecard', ['acmecard.com', 'acmecard.de']],
    ])
  })

  it('checks candidates: ours from the portfolio, blocked by a block in force, available with the account’s price', async () => {
    await addManagedDomains(platform.db, systemScope('test', acmeId), [{ name: 'acmebnak.com', expires_at: new Date(Date.now() + 86_400_000 * 200) }])
    await platform.db
      .insertInto('blocks')
      .values({
        account_id: acmeId,
        label: 'acmebank',
        label_unicode: 'acmebank',
        product_code: 'block:dpml:order',
        provider_product: 'dpml',
        period_years: 1,
        trademark_ref: 'TM-1',
        status: 'active',
        covered_tlds: ['net'],
        expires_at: new Date(Date.now() + 86_400_000 * 300),
        created_by: 'test',
      })
      .execute()
    // A stranger (Globex) hosts acmebank.org with mail: registered, its MX the evidence.
    if (pdns) {
      const zone = await liveZone(platform.call, globexId, tokens.globexAdmin!, tokens.staff!, 'acmebank.org')
      const records = [
        { action: 'add', name: '@', type: 'A', content: '192.0.2.80' },
        { action: 'add', name: '@', type: 'MX', content: '10 mail.acmebank.org.' },
      ]
      expect((await platform.call('POST', `/groups/${globexId}/zones/${zone.json.id}/changes`, { token: tokens.globexAdmin, body: { changes: records } })).status).toBe(200)
      // Published by a job: wait until PowerDNS answers the MX.
      const resolver = platform.deps.outbound!
      for (let i = 0; i < 200 && (await resolver.resolveRecords('acmebank.org', 'MX').catch(() => [])).length === 0; i++) await new Promise((r) => setTimeout(r, 100))
    }
    const list = (await get(candidates(`brand_id equals '${brandId}' and name equals 'acmebnak.com,acmebank.net,acmebank-login.com,acmebank.org'`), tokens.brand)).json.data
    const ids = Object.fromEntries(list.map((c: { name: string; id: string }) => [c.name, c.id]))
    const viewer = await post(`/groups/${acmeId}/brand-candidates/check`, tokens.brand!, { ids: Object.values(ids) })
    expect(viewer.status).toBe(403)
    const checked = await post(`/groups/${acmeId}/brand-candidates/check`, tokens.manager!, { ids: Object.values(ids) })
    expect(checked.status).toBe(200)
    const by = Object.fromEntries(checked.json.data.map((c: { name: string }) => [c.name, c]))
    expect(by['acmebnak.com']).toMatchObject({ status: 'ours' })
    expect(by['acmebank.net']).toMatchObject({ status: 'blocked', evidence: { block: expect.any(String) } })
    expect(by['acmebank-login.com']).toMatchObject({ status: 'available', price_minor: expect.any(Number), currency: 'USD' })
    if (pdns) expect(by['acmebank.org']).toMatchObject({ status: 'registered', evidence: { a: ['192.0.2.80'], mx: ['mail.acmebank.org'], ns: expect.arrayContaining([expect.any(String)]) } })
    const withMail = await get(candidates("mx equals 'true'"), tokens.brand)
    expect(withMail.json.data.map((c: { name: string }) => c.name)).toEqual(pdns ? ['acmebank.org'] : [])
    // A person finds a stranger's name harmless: marked safe, a later check leaves it so; unmarked, it is checked again.
    const safeIds = [ids['acmebank-login.com']]
    expect((await post(`/groups/${acmeId}/brand-candidates/safe`, tokens.brand!, { ids: safeIds, safe: true })).status).toBe(403)
    const marked = await post(`/groups/${acmeId}/brand-candidates/safe`, tokens.manager!, { ids: safeIds, safe: true })
    expect(marked.json.data[0]).toMatchObject({ name: 'acmebank-login.com', status: 'safe' })
    const again = await post(`/groups/${acmeId}/brand-candidates/check`, tokens.manager!, { ids: safeIds })
    expect(again.json.data).toEqual([])
    expect((await get(candidates("status equals 'safe'"), tokens.brand)).json.data.map((c: { name: string }) => c.name)).toEqual(['acmebank-login.com'])
    const unmarked = await post(`/groups/${acmeId}/brand-candidates/safe`, tokens.manager!, { ids: safeIds, safe: false })
    expect(unmarked.json.data[0]).toMatchObject({ status: 'unchecked', price_minor: null })
    await post(`/groups/${acmeId}/brand-candidates/check`, tokens.manager!, { ids: safeIds })
    const available = await get(candidates("status equals 'available'"), tokens.brand)
    expect(available.json.data.map((c: { name: string }) => c.name)).toEqual(['acmebank-login.com'])
  })

  it('keeps each account to its own: another account’s brand is 404 and its candidates never listed; a viewer changes nothing', async () => {
    expect((await get(`${brands()}/${brandId}`, tokens.globex)).status).toBe(404)
    expect((await get(`/groups/${globexId}/brands/${brandId}`, tokens.globex)).status).toBe(404)
    expect((await get(`/groups/${globexId}/brand-candidates?limit=1`, tokens.globex)).json.meta.total).toBe(0)
    expect((await platform.call('PATCH', `/groups/${globexId}/brands/${brandId}`, { token: tokens.globex, body: { version: 1, label: 'x' } })).status).toBe(404)
    expect((await post(brands(), tokens.brand!, { label: 'nope' })).status).toBe(403)
    expect((await platform.call('DELETE', `${brands()}/${brandId}`, { token: tokens.brand })).status).toBe(403)
  })

  it('changes a brand at its version, keeping what was known of the candidates still made, and removes it', async () => {
    const stale = await platform.call('PATCH', `${brands()}/${brandId}`, { token: tokens.manager, body: { version: 9, fuzzers: ['transposition'] } })
    expect(stale.status).toBe(409)
    const changed = await platform.call('PATCH', `${brands()}/${brandId}`, { token: tokens.manager, body: { version: 1, fuzzers: ['transposition'] } })
    expect(changed.status).toBe(200)
    const left = (await get(candidates(`brand_id equals '${brandId}'`), tokens.brand)).json.data
    expect(left.every((c: { fuzzers: string[] }) => c.fuzzers.includes('transposition'))).toBe(true)
    expect(left.find((c: { name: string }) => c.name === 'acmebnak.com')).toMatchObject({ status: 'ours' })
    expect((await platform.call('DELETE', `${brands()}/${brandId}`, { token: tokens.manager })).status).toBe(204)
    expect((await get(candidates(`brand_id equals '${brandId}'`), tokens.brand)).json.meta.total).toBe(0)
  })
})
