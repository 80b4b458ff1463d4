import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { portalAs } from '#tests/support/portal.ts'
import { loader as logLoader } from '#app/routes/entity-log.tsx'
import { loader as exportLoader } from '#app/routes/resources/list-export.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acme: string
let token: string
const pql = (text: string) => `pql=${encodeURIComponent(text)}`

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [4, 4] } })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  token = (await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })).json.access_token
})
afterAll(() => platform?.close())

describe('contacts', () => {
  it('lists the seeded contacts of the account with filters on country, name and use', async () => {
    const all = await platform.call('GET', `/groups/${acme}/contacts?sort=name`, { token })
    expect(all.status).toBe(200)
    expect(all.json.meta.total).toBe(5)
    const countries = await platform.call('GET', `/groups/${acme}/contacts?${pql("country_code equals 'ES,JP'")}&fields=name,country_code`, { token })
    expect(countries.json.data).toEqual([
      { name: 'Lucía Fernández', country_code: 'ES' },
      { name: '佐藤 花子', country_code: 'JP' },
    ])
    const used = await platform.call('GET', `/groups/${acme}/contacts?${pql("in_use equals 'true'")}&fields=name`, { token })
    expect(used.json.data.map((c: { name: string }) => c.name).sort()).toEqual(['Jonas Becker', 'Olivia Carter'])
  })

  it('creates a contact with phone numbers normalised to E.164 and the country named in the asked language', async () => {
    const res = await platform.call('POST', `/groups/${acme}/contacts`, {
      token,
      headers: { 'accept-language': 'ja,en;q=0.8' },
      body: {
        name: ' Marie Dubois ',
        email: 'Marie@Example.FR',
        phone: '+33 1 42 68 53 00',
        mobile: '0033 6 12 34 56 78',
        street1: '8 rue de Rivoli',
        city: 'Paris',
        postcode: '75004',
        country_code: 'fr',
      },
    })
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({
      name: 'Marie Dubois',
      email: 'marie@example.fr',
      phone: '+33142685300',
      mobile: '+33612345678',
      fax: null,
      country_code: 'FR',
      country_name: 'フランス',
      in_use: false,
      version: 1,
    })

    const edited = await platform.call('PATCH', `/groups/${acme}/contacts/${res.json.id}`, { token, body: { fax: '+33 1 42 68 53 01', version: 1 } })
    expect(edited.status).toBe(200)
    expect(edited.json).toMatchObject({ fax: '+33142685301', version: 2, country_name: 'France' })
    const stale = await platform.call('PATCH', `/groups/${acme}/contacts/${res.json.id}`, { token, body: { city: 'Lyon', version: 1 } })
    expect(stale.status).toBe(409)
    expect(stale.json.code).toBe('version.conflict')

    const bad = await platform.call('PATCH', `/groups/${acme}/contacts/${res.json.id}`, { token, body: { phone: '12345', mobile: '+999 1234 5678', country_code: 'XX', version: 2 } })
    expect(bad.status).toBe(400)
    expect(bad.json.errors).toEqual([
      expect.objectContaining({ field: 'phone', code: 'phone.invalid', reason: 'phone.missing_plus' }),
      expect.objectContaining({ field: 'mobile', code: 'phone.invalid', reason: 'phone.unknown_country_code' }),
      expect.objectContaining({ field: 'country_code', code: 'country.invalid' }),
    ])

    const deleted = await platform.call('DELETE', `/groups/${acme}/contacts/${res.json.id}`, { token })
    expect(deleted.status).toBe(204)
    expect((await platform.call('GET', `/groups/${acme}/contacts/${res.json.id}`, { token })).status).toBe(404)
    const log = await platform.call('GET', `/groups/${acme}/audit-entries?${pql(`area equals 'contacts' and entity_id equals '${res.json.id}'`)}&sort=created_at`, { token })
    expect(log.json.data.map((e: { action: string }) => e.action)).toEqual(['create', 'update', 'delete'])
  })

  it('lists the registry handles of a contact with their sync state, and marks them pending after an edit', async () => {
    const contact = await platform.db.selectFrom('contacts').select(['id', 'version']).where('account_id', '=', acme).where('name', '=', 'Olivia Carter').executeTakeFirstOrThrow()
    const handles = await platform.call('GET', `/groups/${acme}/contacts/${contact.id}/registry-handles`, { token })
    expect(handles.status).toBe(200)
    expect(handles.json.data).toEqual([expect.objectContaining({ registry: 'verisign', handle: 'ACME-C-0001', sync_state: 'synced' })])
    const detail = await platform.call('GET', `/groups/${acme}/contacts/${contact.id}`, { token })
    expect(detail.json).toMatchObject({ in_use: true, domain_count: 3, registry_handles: [{ registry: 'verisign' }] })
    await platform.call('PATCH', `/groups/${acme}/contacts/${contact.id}`, { token, body: { city: 'Oakland', version: contact.version } })
    const after = await platform.call('GET', `/groups/${acme}/contacts/${contact.id}/registry-handles?${pql("sync_state equals 'pending'")}`, { token })
    expect(after.json.meta.total).toBe(1)
  })

  it("exports a contact's log as the contact's own entries, not the whole area's", async () => {
    const contact = await platform.db.selectFrom('contacts').select('id').where('account_id', '=', acme).where('name', '=', 'Olivia Carter').executeTakeFirstOrThrow()
    const as = await portalAs(platform, 'admin@acme.example')
    const screen = (await as(logLoader, `/contacts/${contact.id}/log?context=${acme}`, { id: contact.id }, '/contacts/:id/log')) as {
      data: { list: { meta: { total: number }; exportSearch: string } }
    }
    const { meta, exportSearch } = screen.data.list
    expect(meta.total).toBeGreaterThan(0)
    const csvOf = async (search: string) => {
      const response = (await as(exportLoader, `/export/contacts-log?${search}&context=${acme}`, { list: 'contacts-log' })) as Response
      return { status: response.status, lines: (await response.text()).trim().split('\r\n') }
    }
    // The screen's Export CSV link: as many rows as the screen counts, each about the contact.
    const csv = await csvOf(`${exportSearch}&fields=entity_id,action`)
    expect(csv.status).toBe(200)
    expect(csv.lines[0]).toBe('entity_id,action')
    expect(csv.lines.length - 1).toBe(meta.total)
    expect(new Set(csv.lines.slice(1).map((line) => line.split(',')[0]))).toEqual(new Set([contact.id]))
    // The area's log, the same list without the contact's scope, holds more.
    expect((await csvOf('fields=entity_id')).lines.length - 1).toBeGreaterThan(meta.total)
    // A scope the portal did not seal, or sealed for another list, is refused.
    const scope = new URLSearchParams(exportSearch).get('scope')!
    expect((await csvOf(`scope=${scope.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`)).status).toBe(400)
    const other = (await as(exportLoader, `/export/users-log?scope=${scope}&context=${acme}`, { list: 'users-log' })) as Response
    expect(other.status).toBe(400)
  })
})
