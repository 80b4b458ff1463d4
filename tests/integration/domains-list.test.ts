import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// The portfolio list and detail over the demo world (no registry needed to read).
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acme: string
let globex: string
const tokens: Record<string, string> = {}

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [60, 20] } })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  tokens.viewer = await login('viewer@acme.example')
  tokens.admin = await login('admin@acme.example')
  tokens.globex = await login('admin@globex.example')
  tokens.staff = await login('staff@example.com')
})
afterAll(() => platform?.close())

describe('GET /groups/{context}/domains', () => {
  it('lists the account’s domains with the contract fields, sorted by name by default', async () => {
    const res = await platform.call('GET', `/groups/${acme}/domains?limit=10`, { token: tokens.viewer })
    expect(res.status).toBe(200)
    expect(res.json.meta).toMatchObject({ total: 60, page: 1, limit: 10 })
    const row = res.json.data[0]
    expect(Object.keys(row).sort()).toEqual([
      'auto_renew',
      'billing_entity',
      'created_at',
      'dnssec',
      'expires_at',
      'group_id',
      'id',
      'name',
      'registrant_name',
      'registrar_lock',
      'registry_lock',
      'status',
      'tags',
      'tld',
      'unicode_name',
      'updated_at',
    ])
    const names = res.json.data.map((d: { name: string }) => d.name)
    expect(names).toEqual([...names].sort())
    expect(names.every((n: string) => n.startsWith('acme-'))).toBe(true)
  })

  it('filters on name contains, TLD, expiry range, auto-renew, lock, DNSSEC, tags, status and sorts on every column', async () => {
    const q = async (query: string) => {
      const res = await platform.call('GET', `/groups/${acme}/domains?${query}`, { token: tokens.viewer })
      expect(res.status, `${query}: ${res.text}`).toBe(200)
      return res.json as { data: Record<string, unknown>[]; meta: { total: number } }
    }
    const all = await platform.db.selectFrom('domains').selectAll().where('account_id', '=', acme).execute()
    const contains = all[7]!.name.slice(2, 8)
    expect((await q(`pql=${encodeURIComponent(`name contains '${contains}'`)}`)).meta.total).toBe(all.filter((d) => d.name.includes(contains)).length)
    const byPql = await q(`pql=${encodeURIComponent("tld equals 'com' and auto_renew equals 'false' and registry_lock equals 'true'")}`)
    expect(byPql.meta.total).toBe(all.filter((d) => d.tld === 'com' && !d.auto_renew && d.registry_lock).length)
    const range = await q(`pql=${encodeURIComponent("expires_at between '2026-02-01,2026-06-30'")}`)
    expect(range.meta.total).toBe(all.filter((d) => d.expires_at! >= new Date('2026-02-01') && d.expires_at! < new Date('2026-07-01')).length)
    expect((await q(`pql=${encodeURIComponent("dnssec equals 'true'")}`)).meta.total).toBe(all.filter((d) => d.dnssec).length)
    expect((await q(`pql=${encodeURIComponent("tags equals 'brand'")}`)).meta.total).toBe(all.filter((d) => d.tags.includes('brand')).length)
    expect((await q(`pql=${encodeURIComponent("status equals 'active'")}`)).meta.total).toBe(60)
    for (const key of ['name', 'unicode_name', 'tld', 'status', 'expires_at', 'auto_renew', 'registry_lock', 'dnssec', 'tags', 'registrant_name', 'created_at', 'updated_at', 'id']) {
      const page = await q(`sort=-${key}&limit=5`)
      expect(page.data).toHaveLength(5)
    }
    const byExpiry = await q('sort=-expires_at&limit=60')
    const expiries = byExpiry.data.map((d) => String(d.expires_at))
    expect(expiries).toEqual([...expiries].sort().reverse())
  })

  it('filters and shows the registrant name through the domain’s contacts', async () => {
    const domain = await platform.db.selectFrom('domains').select(['id']).where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()
    const contact = await platform.db
      .insertInto('contacts')
      .values({ account_id: acme, name: 'Zelda Registrant', email: 'zelda@acme.example', country_code: 'ES' })
      .returning('id')
      .executeTakeFirstOrThrow()
    await platform.db.deleteFrom('domain_contacts').where('domain_id', '=', domain.id).where('role', '=', 'registrant').execute()
    await platform.db.insertInto('domain_contacts').values({ domain_id: domain.id, contact_id: contact.id, role: 'registrant' }).execute()
    const res = await platform.call('GET', `/groups/${acme}/domains?pql=${encodeURIComponent("registrant_name contains 'zelda'")}`, { token: tokens.viewer })
    expect(res.status).toBe(200)
    expect(res.json.data.map((d: { id: string; registrant_name: string }) => [d.id, d.registrant_name])).toEqual([[domain.id, 'Zelda Registrant']])
    const detail = await platform.call('GET', `/groups/${acme}/domains/${domain.id}`, { token: tokens.viewer })
    expect(detail.json.contacts.registrant).toEqual({ id: contact.id, name: 'Zelda Registrant', organisation: '', email: 'zelda@acme.example' })
  })

  it('names what is wrong with a bad filter or sort', async () => {
    const res = await platform.call('GET', `/groups/${acme}/domains?sort=colour`, { token: tokens.viewer })
    expect(res.status).toBe(400)
    expect(res.json.errors[0]).toMatchObject({ field: 'sort' })
    const bad = await platform.call('GET', `/groups/${acme}/domains?pql=${encodeURIComponent("auto_renew equals 'maybe'")}`, { token: tokens.viewer })
    expect(bad.status).toBe(400)
  })

  it('keeps tenants apart: another account’s list and domain answer 404; staff sees any account', async () => {
    expect((await platform.call('GET', `/groups/${globex}/domains`, { token: tokens.viewer })).status).toBe(404)
    const globexDomain = await platform.db.selectFrom('domains').select('id').where('account_id', '=', globex).executeTakeFirstOrThrow()
    expect((await platform.call('GET', `/groups/${acme}/domains/${globexDomain.id}`, { token: tokens.viewer })).status).toBe(404)
    const staff = await platform.call('GET', `/groups/${globex}/domains?limit=1`, { token: tokens.staff })
    expect(staff.status).toBe(200)
    expect(staff.json.meta.total).toBe(20)
    expect((await platform.call('GET', `/groups/${acme}/domains`)).status).toBe(401)
  })

  it('refuses a user without domain-viewer', async () => {
    const user = await platform.db.selectFrom('users').select('id').where('email', '=', 'viewer@acme.example').executeTakeFirstOrThrow()
    await platform.db
      .updateTable('users')
      .set({ roles: ['account-viewer'] })
      .where('id', '=', user.id)
      .execute()
    await platform.settled()
    try {
      const token = await login('viewer@acme.example')
      const res = await platform.call('GET', `/groups/${acme}/domains`, { token })
      expect(res.status).toBe(403)
    } finally {
      await platform.db
        .updateTable('users')
        .set({ roles: ['account-viewer', 'domain-viewer'] })
        .where('id', '=', user.id)
        .execute()
      await platform.settled()
    }
  })
})

describe('GET /groups/{context}/domains/{id}', () => {
  it('answers the contract detail', async () => {
    // A domain without contacts (the demo's flagship names have theirs): every role answers null.
    const domain = await platform.db
      .selectFrom('domains')
      .selectAll()
      .where('account_id', '=', acme)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('domain_contacts').select('domain_id').whereRef('domain_contacts.domain_id', '=', 'domains.id'))))
      .orderBy('name', 'desc')
      .executeTakeFirstOrThrow()
    const res = await platform.call('GET', `/groups/${acme}/domains/${domain.id}`, { token: tokens.viewer })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      id: domain.id,
      name: domain.name,
      version: 1,
      statuses: [],
      nameservers: [],
      contacts: { admin: null, tech: null, billing: null },
      ds: [],
      reconciliation: { checked_at: null, differences: [] },
    })
    expect((await platform.call('GET', `/groups/${acme}/domains/00000000-0000-4000-8000-000000000000`, { token: tokens.viewer })).status).toBe(404)
  })
})

// The plan of the name search is guarded in domains-explain.test.ts, on the engine's exact SQL.
describe('performance guards', () => {
  it('never counts past 10,000 rows exactly', async () => {
    const { COUNT_CAP } = await import('#server/platform/list/engine.ts')
    expect(COUNT_CAP).toBe(10_000)
  })
})
