import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
const pql = (text: string) => `pql=${encodeURIComponent(text)}`

beforeAll(async () => {
  platform = await createTestPlatform()
  await seedDemo(platform.db, createLogger('silent'), { domainsPerAccount: [1, 1] })
  for (const email of ['staff@example.com', 'admin@acme.example']) {
    tokens[email] = (await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })).json.access_token
  }
})
afterAll(() => platform?.close())

describe('TLD catalogue', () => {
  it('lists the bundled IANA list and filters by name in punycode or Unicode, kind and features', async () => {
    const token = tokens['admin@acme.example']!
    const all = await platform.call('GET', '/tlds?limit=1', { token })
    expect(all.status).toBe(200)
    expect(all.json.meta.total).toBeGreaterThan(1400)
    const unicode = await platform.call('GET', `/tlds?${pql("name equals 'рф'")}&fields=name,unicode_name,idn`, { token })
    expect(unicode.json.data).toEqual([{ name: 'xn--p1ai', unicode_name: 'рф', idn: true }])
    const ascii = await platform.call('GET', `/tlds?${pql("name equals '.xn--p1ai'")}&fields=name`, { token })
    expect(ascii.json.data).toEqual([{ name: 'xn--p1ai' }])
    const offered = await platform.call('GET', `/tlds?${pql("is_offered equals 'true' and kind equals 'country-code' and redemption_days less_than '35'")}&fields=name&sort=name`, { token })
    expect(offered.json.data.map((t: { name: string }) => t.name)).toEqual(['de', 'es', 'io', 'jp', 'xn--p1ai'])
  })

  it('shows one entry by id or name with its catalogue details', async () => {
    const token = tokens['admin@acme.example']!
    const byName = await platform.call('GET', '/tlds/de', { token })
    expect(byName.status).toBe(200)
    expect(byName.json).toMatchObject({
      name: 'de',
      kind: 'country-code',
      registry_operator: 'DENIC',
      periods: [1],
      add_grace_days: 0,
      redemption_days: 30,
      list_price_minor: 899,
      currency: 'EUR',
      required_contacts: ['registrant'],
    })
    const byId = await platform.call('GET', `/tlds/${byName.json.id}`, { token })
    expect(byId.json.name).toBe('de')
    expect((await platform.call('GET', '/tlds/рф', { token })).json.name).toBe('xn--p1ai')
    expect((await platform.call('GET', '/tlds/no-such-tld', { token })).status).toBe(404)
  })

  it('lets staff edit an entry with a version, refuses clients, bad periods and an offer without a price', async () => {
    const staff = tokens['staff@example.com']!
    const tld = (await platform.call('GET', '/tlds/dev', { token: staff })).json
    const client = await platform.call('PATCH', `/tlds/${tld.id}`, { token: tokens['admin@acme.example']!, body: { dnssec: false, version: tld.version } })
    expect(client.status).toBe(403)
    const noPrice = await platform.call('PATCH', `/tlds/${tld.id}`, { token: staff, body: { is_offered: true, version: tld.version } })
    expect(noPrice.status).toBe(400)
    expect(noPrice.json.errors[0]).toMatchObject({ field: 'list_price_minor', code: 'tld.price_required' })
    const edited = await platform.call('PATCH', `/tlds/${tld.id}`, {
      token: staff,
      body: {
        is_offered: true,
        list_price_minor: 1799,
        currency: 'USD',
        registry_operator: 'Charleston Road Registry',
        periods: [3, 1, 1, 2],
        registry_lock: true,
        required_contacts: ['registrant', 'tech'],
        auto_renew_grace_days: 40,
        version: tld.version,
      },
    })
    expect(edited.status).toBe(200)
    expect(edited.json).toMatchObject({ is_offered: true, periods: [1, 2, 3], auto_renew_grace_days: 40, version: tld.version + 1 })
    const stale = await platform.call('PATCH', `/tlds/${tld.id}`, { token: staff, body: { dnssec: false, version: tld.version } })
    expect(stale.status).toBe(409)
    const audit = await platform.db.selectFrom('audit_entries').selectAll().where('area', '=', 'tlds').where('entity_id', '=', tld.id).execute()
    expect(audit).toHaveLength(1)
    expect(audit[0]!.changes.after).toMatchObject({ list_price_minor: 1799, periods: [1, 2, 3] })
  })
})
