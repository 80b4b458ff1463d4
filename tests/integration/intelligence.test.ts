import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { systemScope } from '#server/platform/core/scope.ts'
import { executeRun } from '#server/platform/intelligence/gap.ts'
import { createUser } from '#server/platform/users/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { liveZone } from '#tests/support/zones.ts'
import { portalAs } from '#tests/support/portal.ts'
import { loader as homeLoader } from '#app/routes/home.tsx'
import { loader as resultsLoader } from '#app/routes/intelligence/results.tsx'

// Intelligence (issue 32): items, runs as jobs, the gap matrix against the local registry's answers,
// the security score and its fixes, tenancy and roles, spec §2's prospect redirect and the 404 of
// a gap analysis not made yet.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
let acme: string
let globex: string
let registrar: string
let acmeDomain: string

const call = (method: string, path: string, token: string, body?: unknown) => platform.call(method, path, { token, ...(body !== undefined ? { body } : {}) })
async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [2, 1] }, registry: { tlds: ['com', 'net', 'org', 'io', 'de', 'shop'].map((name) => ({ name, periods: [1, 2] })) } })
  const account = (name: string) => platform.db.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow()
  acme = (await account('Acme Corp')).id
  globex = (await account('Globex')).id
  registrar = (await account('Registrar Operations')).id
  acmeDomain = (await platform.db.selectFrom('domains').select('name').where('account_id', '=', acme).where('tld', '=', 'com').orderBy('name').executeTakeFirstOrThrow()).name
  await createUser(platform.db, systemScope('test', registrar), { account_id: registrar, email: 'seller@registrar.example', name: 'Sal Seller', password: DEMO_PASSWORD, roles: ['prospect-manager'] })
  await createUser(platform.db, systemScope('test', acme), {
    account_id: acme,
    email: 'intel@acme.example',
    name: 'Ian Intel',
    password: DEMO_PASSWORD,
    roles: ['prospect-manager', 'dns-manager', 'domain-manager'],
  })
  await createUser(platform.db, systemScope('test', acme), { account_id: acme, email: 'reader@acme.example', name: 'Rae Reader', password: DEMO_PASSWORD, roles: ['prospect-viewer'] })
  await createUser(platform.db, systemScope('test', globex), { account_id: globex, email: 'intel@globex.example', name: 'Gil Intel', password: DEMO_PASSWORD, roles: ['prospect-admin'] })
  for (const [key, email] of Object.entries({
    staff: 'staff@example.com',
    seller: 'seller@registrar.example',
    intel: 'intel@acme.example',
    reader: 'reader@acme.example',
    globex: 'intel@globex.example',
    viewer: 'viewer@acme.example',
  }))
    tokens[key] = await login(email)
  tokens.admin = await login('admin@acme.example')
  // Runs are queued as jobs (sent, not worked here: each test runs the handler itself).
  await platform.deps.jobs.start({ work: false })
  // Someone else holds acme.net at the registry: a third party's cell.
  await platform.registries!.forTld('net')!.createDomain({ name: 'acme.net', years: 1, authInfo: 'secret-A1x' })
  // acme.org is held at the registry too, and the item says it is the brand's own (at another registrar).
  await platform.registries!.forTld('org')!.createDomain({ name: 'acme.org', years: 1, authInfo: 'secret-A1x' })
}, 120_000)
afterAll(async () => platform?.close())

describe('intelligence items and the gap matrix', () => {
  let item: string
  it('makes a client’s item in the client’s account, refuses a prospect there, and answers no analysis yet (404 gap_analysis.none)', async () => {
    const refused = await call('POST', `/groups/${acme}/intelligence/items`, tokens.intel!, { kind: 'prospect', name: 'Nope', brand: 'nope' })
    expect(refused.status).toBe(409)
    const created = await call('POST', `/groups/${acme}/intelligence/items`, tokens.intel!, {
      kind: 'client',
      name: 'Acme brand',
      brand: 'acme',
      strings: [acmeDomain.slice(0, -'.com'.length)],
      keywords: ['pay'],
      priority_cctlds: ['io', 'de', 'uk'],
      known_domains: ['acme.org'],
    })
    expect(created.status, created.text).toBe(201)
    item = created.json.id
    const none = await call('GET', `/groups/${acme}/intelligence/items/${item}/gap_analysis`, tokens.intel!)
    expect(none.status).toBe(404)
    expect(none.json.code).toBe('gap_analysis.none')
  })

  it('runs as a job and keeps the run: every cell one state against the registry’s answers, prices in the account’s currency', async () => {
    const queued = await call('POST', `/groups/${acme}/intelligence/items/${item}/runs`, tokens.intel!)
    expect(queued.status).toBe(202)
    expect(queued.json.status).toBe('queued')
    // The job's handler, run here (the worker would run the same): no resolver, so a third party has no DNS evidence.
    await executeRun(platform.deps, queued.json.id, null)
    const gap = await call('GET', `/groups/${acme}/intelligence/items/${item}/gap_analysis`, tokens.reader!)
    expect(gap.status, gap.text).toBe(200)
    const cell = (name: string) => gap.json.cells.find((c: { name: string }) => c.name === name)
    expect(gap.json.run.status).toBe('done')
    expect(gap.json.run.total).toBeGreaterThan(1)
    expect(gap.json.run.done).toBe(gap.json.run.total)
    expect(gap.json.columns.map((c: { group: string }) => c.group)).toEqual(expect.arrayContaining(['legacy', 'cctld', 'new-gtld']))
    expect(cell(acmeDomain)).toMatchObject({ state: 'ours', evidence: { source: 'portfolio' } })
    expect(cell('acme.net')).toMatchObject({ state: 'third-party', evidence: { registry: { available: false } } })
    expect(cell('acme.org')).toMatchObject({ state: 'ours-elsewhere' })
    expect(cell('acme.info')).toMatchObject({ state: 'not-offered' })
    expect(cell('acme.uk')).toMatchObject({ state: 'not-offered' })
    expect(cell('acmepay.io')).toMatchObject({ state: 'available', currency: 'USD', evidence: { registry: { available: true } } })
    expect(cell('acmepay.io').price_minor).toBeGreaterThan(0)
    // A pattern of the lookalike engine is a row.
    expect(gap.json.run.patterns.some((p: { kind: string }) => p.kind === 'lookalike')).toBe(true)
    const closable = gap.json.cells.filter((c: { state: string }) => c.state === 'available')
    expect(gap.json.run.summary.closable).toBe(closable.length)
    expect(gap.json.run.summary.cost).toEqual([{ currency: 'USD', minor: closable.reduce((s: number, c: { price_minor: number }) => s + c.price_minor, 0) }])
  })

  it('keeps items to their account: another account’s item is 404, a role below manager cannot run, a user without a prospect role is 403', async () => {
    expect((await call('GET', `/groups/${globex}/intelligence/items/${item}`, tokens.globex!)).status).toBe(404)
    expect((await call('GET', `/groups/${globex}/intelligence/items/${item}/gap_analysis`, tokens.globex!)).status).toBe(404)
    expect((await call('GET', `/groups/${acme}/intelligence/items`, tokens.globex!)).status).toBe(404)
    const globexList = await call('GET', `/groups/${globex}/intelligence/items`, tokens.globex!)
    expect(globexList.json.data).toEqual([])
    expect((await call('POST', `/groups/${acme}/intelligence/items/${item}/runs`, tokens.reader!)).status).toBe(403)
    expect((await call('GET', `/groups/${acme}/intelligence/items`, tokens.viewer!)).status).toBe(403)
    // Staff in their own group reach every account's items.
    const all = await call('GET', `/groups/${registrar}/intelligence/items`, tokens.staff!)
    expect(all.json.data.map((r: { id: string }) => r.id)).toContain(item)
  })

  it('keeps a prospect’s item in the registrar’s account, worked by its sales people', async () => {
    const created = await call('POST', `/groups/${registrar}/intelligence/items`, tokens.seller!, { kind: 'prospect', name: 'Initech', brand: 'initech', known_domains: ['initech.com'] })
    expect(created.status, created.text).toBe(201)
    const list = await call('GET', `/groups/${registrar}/intelligence/items`, tokens.seller!)
    expect(list.json.data.map((r: { name: string }) => r.name)).toEqual(['Initech'])
    expect((await call('GET', `/groups/${acme}/intelligence/items/${created.json.id}`, tokens.intel!)).status).toBe(404)
  })

  it('scores the brand’s domains with the published weights and applies a fix in the zone we host', async () => {
    const zone = await liveZone((m, p, o) => platform.call(m, p, o ?? {}), acme, tokens.admin!, tokens.staff!, acmeDomain)
    const before = await call('GET', `/groups/${acme}/intelligence/items/${item}/security`, tokens.reader!)
    expect(before.status, before.text).toBe(200)
    expect(Object.values(before.json.weights).reduce((a: number, b) => a + Number(b), 0)).toBe(100)
    const domain = before.json.domains.find((d: { name: string }) => d.name === acmeDomain)
    expect(domain.zone_id).toBe(zone.json.id)
    expect(domain.measures.spf).toBe('fail')
    expect((await call('POST', `/groups/${acme}/intelligence/items/${item}/fixes`, tokens.reader!, { domain_id: domain.id, measure: 'spf' })).status).toBe(403)
    const fixed = await call('POST', `/groups/${acme}/intelligence/items/${item}/fixes`, tokens.intel!, { domain_id: domain.id, measure: 'spf' })
    expect(fixed.status, fixed.text).toBe(200)
    expect(fixed.json.added).toBe('@ TXT "v=spf1 -all"')
    const records = await call('GET', `/groups/${acme}/zones/${zone.json.id}/records?pql=${encodeURIComponent("type equals 'TXT'")}`, tokens.intel!)
    expect(records.json.data.map((r: { content: string }) => r.content)).toContain('"v=spf1 -all"')
    const after = await call('GET', `/groups/${acme}/intelligence/items/${item}/security`, tokens.reader!)
    const again = after.json.domains.find((d: { name: string }) => d.name === acmeDomain)
    expect(again.measures.spf).toBe('pass')
    expect(again.score).toBeGreaterThan(domain.score)
  })

  it('sends a prospect-only user from / to /intelligence (spec §2), and shows an item without a finished run as no analysis yet', async () => {
    const seller = await portalAs(platform, 'seller@registrar.example')
    const thrown = await seller(homeLoader as never, '/').catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).status).toBe(302)
    expect((thrown as Response).headers.get('location')).toBe('/intelligence')
    // staff (prospect roles and more) keep their home.
    const staff = await portalAs(platform, 'staff@example.com')
    expect(
      await staff(homeLoader as never, '/').then(
        () => 'home',
        (e: unknown) => (e instanceof Response ? e.headers.get('location') : e),
      ),
    ).toBe('home')
    const fresh = await call('POST', `/groups/${acme}/intelligence/items`, tokens.intel!, { kind: 'client', name: 'Not run', brand: 'acmelabs' })
    const intel = await portalAs(platform, 'intel@acme.example')
    const screen = (await intel(resultsLoader as never, `/intelligence/${fresh.json.id}/results`, { id: fresh.json.id }, '/intelligence/:id/results')) as { gap: unknown }
    expect(screen.gap).toBeNull()
  })
})
