import { parseWithZod } from '@conform-to/zod/v4'
import type { TFunction } from 'i18next'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tldBody, tldSchema } from '#app/routes/tlds/forms.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
const pql = (text: string) => `pql=${encodeURIComponent(text)}`

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [1, 1] } })
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
  it("the portal's catalogue form refuses what the API refuses, beside the same field, and sends what it takes", async () => {
    // tldSchema (app/routes/tlds/forms.ts) with the words' keys for words, parsed from a post as the
    // action parses it; each bad input as typed, and the body the API would be sent without the form's check.
    const staff = tokens['staff@example.com']!
    const t = ((key: string) => key) as unknown as TFunction
    const tld = (await platform.call('GET', '/tlds/app', { token: staff })).json
    const typed = {
      version: String(tld.version),
      kind: tld.kind,
      registry_operator: 'Charleston Road Registry',
      add_grace_days: '5',
      renew_grace_days: '5',
      auto_renew_grace_days: '45',
      transfer_grace_days: '5',
      redemption_days: '30',
      list_price: '',
      currency: 'EUR',
      periods: ['1', '2'],
      required_contacts: ['registrant', 'tech'],
    }
    const post = (values: Record<string, string | string[]>) => {
      const form = new FormData()
      for (const [name, value] of Object.entries(values)) for (const one of [value].flat()) form.append(name, one)
      return parseWithZod(form, { schema: tldSchema(t) })
    }
    const refusedOn = (submission: ReturnType<typeof post>) => Object.keys(submission.status === 'error' ? (submission.error ?? {}) : {})
    const cases: { field: string; typed: Record<string, string | string[]>; sent: Record<string, unknown>; api?: string }[] = [
      { field: 'redemption_days', typed: { redemption_days: '400' }, sent: { redemption_days: 400 } },
      { field: 'add_grace_days', typed: { add_grace_days: '-1' }, sent: { add_grace_days: -1 } },
      { field: 'periods', typed: { periods: [] }, sent: { periods: [] } },
      { field: 'currency', typed: { currency: 'XYZ' }, sent: { currency: 'XYZ' } },
      { field: 'registry_operator', typed: { registry_operator: 'x'.repeat(201) }, sent: { registry_operator: 'x'.repeat(201) } },
      { field: 'list_price', typed: { list_price: '-1.00' }, sent: { list_price_minor: -100 }, api: 'list_price_minor' },
      { field: 'list_price', typed: { is_offered: 'on' }, sent: { is_offered: true, list_price_minor: null }, api: 'list_price_minor' },
    ]
    for (const { field, typed: bad, sent, api } of cases) {
      expect(refusedOn(post({ ...typed, ...bad })), JSON.stringify(bad)).toEqual([field])
      const answer = await platform.call('PATCH', `/tlds/${tld.id}`, { token: staff, body: { ...sent, version: tld.version } })
      expect(answer.status, JSON.stringify(sent)).toBe(400)
      expect(answer.json.errors.map((e: { field: string }) => e.field)).toEqual([api ?? field])
    }
    // A price in the currency's format: none of a yen, two decimals of a euro.
    expect(refusedOn(post({ ...typed, list_price: '12.345' }))).toEqual(['list_price'])
    expect(refusedOn(post({ ...typed, list_price: '1.5', currency: 'jpy' }))).toEqual(['list_price'])

    const good = post({ ...typed, list_price: '1,234.50', is_offered: 'on', dnssec: 'on' })
    expect(good.status).toBe('success')
    const body = tldBody(good.status === 'success' ? good.value : (undefined as never))
    expect(body).toMatchObject({ list_price_minor: 123450, periods: [1, 2], is_offered: true, dnssec: true, idn: false, required_contacts: ['registrant', 'tech'] })
    const saved = await platform.call('PATCH', `/tlds/${tld.id}`, { token: staff, body })
    expect(saved.status).toBe(200)
    expect(saved.json).toMatchObject({ list_price_minor: 123450, is_offered: true, periods: [1, 2], auto_renew_grace_days: 45, version: tld.version + 1 })
  })
})
