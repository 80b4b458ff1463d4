import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// The API additions the DNS screens need: a domain's zone from its id alone, the per-zone log
// and the DNSSEC view (here without PowerDNS, as the portal runs when it is not configured).
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let admin: string
let otherAdmin: string
let acme: string

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [2, 1] } })
  await platform.deps.jobs.start({ work: false })
  admin = await login('admin@acme.example')
  otherAdmin = await login('admin@globex.example')
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
})
afterAll(() => platform?.close())

describe('DNS API for the portal screens', () => {
  it('creates the zone of a domain from the domain id alone, with the domain name', async () => {
    const domain = await platform.db.selectFrom('domains').select(['id', 'name']).where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()
    const created = await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { domain_id: domain.id } })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ name: domain.name, domain_id: domain.id, publish_state: 'pending', published: false })
    const listed = await platform.call('GET', `/groups/${acme}/zones?filter[domain_id]=${domain.id}`, { token: admin })
    expect(listed.json.data.map((z: { id: string }) => z.id)).toEqual([created.json.id])
    expect((await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { domain_id: domain.id } })).status).toBe(409)
    // Another account's domain is not found, like a missing one.
    const globex = await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()
    expect((await platform.call('POST', `/groups/${globex.id}/zones`, { token: otherAdmin, body: { domain_id: domain.id } })).status).toBe(404)
    expect((await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: {} })).status).toBe(400)
  })

  it('lists the DNS log of one zone only, records with before and after', async () => {
    const a = (await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'log-a.test' } })).json
    const b = (await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: 'log-b.test' } })).json
    const add = await platform.call('POST', `/groups/${acme}/zones/${a.id}/changes`, { token: admin, body: { changes: [{ action: 'add', name: 'www', type: 'A', content: '192.0.2.10' }] } })
    expect(add.status).toBe(200)
    const www = (await platform.call('GET', `/groups/${acme}/zones/${a.id}/records?filter[name]=www.log-a.test`, { token: admin })).json.data[0]
    const upd = await platform.call('POST', `/groups/${acme}/zones/${a.id}/changes`, { token: admin, body: { changes: [{ action: 'update', id: www.id, content: '192.0.2.11' }] } })
    expect(upd.json).toMatchObject({ applied: true })
    await platform.call('POST', `/groups/${acme}/zones/${b.id}/changes`, { token: admin, body: { changes: [{ action: 'add', name: 'x', type: 'A', content: '192.0.2.99' }] } })

    const log = await platform.call('GET', `/groups/${acme}/zones/${a.id}/log?sort=created_at`, { token: admin })
    expect(log.status).toBe(200)
    expect(log.json.data.map((e: { entity_type: string; action: string }) => `${e.entity_type} ${e.action}`)).toEqual(['dns_zone create', 'dns_record create', 'dns_record update'])
    const update = log.json.data[2]
    expect(update.changes.before.content).toBe('192.0.2.10')
    expect(update.changes.after.content).toBe('192.0.2.11')
    expect(update.actor_label).toBeTruthy()
    expect((await platform.call('GET', `/groups/${acme}/zones/${b.id}/log`, { token: admin })).json.meta.total).toBe(2)
    expect((await platform.call('GET', `/groups/${acme}/zones/${a.id}/log`, { token: otherAdmin })).status).toBe(404)
  })

  it('shows the DNSSEC state with no keys when PowerDNS is not configured', async () => {
    // A name under a domain of the account: its zone is live at once (a name elsewhere would wait for its proof first).
    const domain = await platform.db.selectFrom('domains').select('name').where('account_id', '=', acme).orderBy('name').executeTakeFirstOrThrow()
    const zone = (await platform.call('POST', `/groups/${acme}/zones`, { token: admin, body: { name: `sec.${domain.name}` } })).json
    expect(zone).toMatchObject({ control: 'portfolio', verified: true })
    const view = await platform.call('GET', `/groups/${acme}/zones/${zone.id}/dnssec`, { token: admin })
    expect(view.status).toBe(200)
    expect(view.json).toEqual({ state: 'unsigned', ds_records: [], powerdns_configured: false, keys: [], keys_error: null })
    const signing = await platform.call('POST', `/groups/${acme}/zones/${zone.id}/dnssec/sign`, { token: admin })
    expect(signing.status).toBe(202)
    expect((await platform.call('GET', `/groups/${acme}/zones/${zone.id}/dnssec`, { token: admin })).json.state).toBe('signing')
  })
})
