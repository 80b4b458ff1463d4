import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
let acme: { id: string }
let registrar: { id: string }

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [6, 4] } })
  for (const email of ['staff@example.com', 'admin@acme.example', 'viewer@acme.example']) {
    const res = await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })
    expect(res.status).toBe(200)
    tokens[email] = res.json.access_token
  }
  const byName = async (name: string) => platform.db.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow()
  acme = await byName('Acme Corp')
  registrar = await byName('Registrar Operations')
})
afterAll(() => platform?.close())

const staff = () => tokens['staff@example.com']!
const admin = () => tokens['admin@acme.example']!

describe('accounts', () => {
  it('lists every account for staff in their own group, filterable, and only its own for a client', async () => {
    const all = await platform.call('GET', `/groups/${registrar.id}/accounts?sort=name`, { token: staff() })
    expect(all.status).toBe(200)
    expect(all.json.data.map((a: { name: string }) => a.name)).toEqual(['Acme Corp', 'Globex', 'Registrar Operations'])
    const filtered = await platform.call('GET', `/groups/${registrar.id}/accounts?pql=${encodeURIComponent("currency equals 'USD'")}`, { token: staff() })
    expect(filtered.json.data.map((a: { name: string }) => a.name)).toEqual(['Acme Corp'])
    const own = await platform.call('GET', `/groups/${acme.id}/accounts`, { token: admin() })
    expect(own.json.data.map((a: { id: string }) => a.id)).toEqual([acme.id])
    expect(own.json.meta.total).toBe(1)
  })

  it('shows an account with the counts of its users, domains and contacts', async () => {
    const res = await platform.call('GET', `/accounts/${acme.id}`, { token: admin() })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ id: acme.id, name: 'Acme Corp', currency: 'USD', user_count: 2, domain_count: 6, contact_count: 5 })
  })

  it('lets staff create and edit accounts, with version checks and audit entries', async () => {
    const created = await platform.call('POST', '/accounts', { token: staff(), body: { name: 'Initech', currency: 'GBP', language: 'en' } })
    expect(created.status).toBe(201)
    const id = created.json.id as string
    const dup = await platform.call('POST', '/accounts', { token: staff(), body: { name: 'initech' } })
    expect(dup.status).toBe(409)
    expect(dup.json.code).toBe('account.name_taken')
    expect(dup.json.errors[0]).toMatchObject({ field: 'name', code: 'account.name_taken' })

    const suspended = await platform.call('PATCH', `/accounts/${id}`, { token: staff(), body: { status: 'suspended', language: 'ja', version: 1 } })
    expect(suspended.status).toBe(200)
    expect(suspended.json).toMatchObject({ status: 'suspended', language: 'ja', version: 2 })
    const stale = await platform.call('PATCH', `/accounts/${id}`, { token: staff(), body: { name: 'Initrode', version: 1 } })
    expect(stale.status).toBe(409)
    expect(stale.json).toMatchObject({ code: 'version.conflict', current_version: 2 })
    const badCurrency = await platform.call('PATCH', `/accounts/${id}`, { token: staff(), body: { currency: 'XYZ', version: 2 } })
    expect(badCurrency.status).toBe(400)
    expect(badCurrency.json.errors[0]).toMatchObject({ field: 'currency', code: 'currency.invalid' })

    const log = await platform.call('GET', `/groups/${id}/audit-entries?pql=${encodeURIComponent(`area equals 'accounts' and entity_id equals '${id}'`)}&sort=created_at`, { token: staff() })
    expect(log.json.data.map((e: { action: string }) => e.action)).toEqual(['create', 'suspend'])
    expect(log.json.data[1].changes).toEqual({ before: { status: 'active', language: 'en' }, after: { status: 'suspended', language: 'ja' } })
  })

  it('lets a client account-manager edit their own account but not its status, and nobody else create one', async () => {
    const current = await platform.call('GET', `/accounts/${acme.id}`, { token: admin() })
    const status = await platform.call('PATCH', `/accounts/${acme.id}`, { token: admin(), body: { status: 'suspended', version: current.json.version } })
    expect(status.status).toBe(403)
    const lang = await platform.call('PATCH', `/accounts/${acme.id}`, { token: admin(), body: { language: 'es', version: current.json.version } })
    expect(lang.status).toBe(200)
    expect((await platform.call('POST', '/accounts', { token: admin(), body: { name: 'Sneaky' } })).status).toBe(403)
    expect((await platform.call('PATCH', `/accounts/${acme.id}`, { token: tokens['viewer@acme.example']!, body: { language: 'en', version: lang.json.version } })).status).toBe(403)
  })
})
