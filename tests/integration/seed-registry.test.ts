import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import { reconcileDomains } from '#server/platform/domains/jobs.ts'
import { DEMO_TRANSFER, preloadDemoRegistry, REGISTRY_LOCK_STATUSES } from '#server/seed/registry.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { checkTransfer, runItem } from '#server/platform/orders/jobs.ts'
import { OTHER_LOCAL_REGISTRAR } from '#server/platform/registries/registries.ts'
import { DEMO_APPROVER, DEMO_ORDERED_DOMAIN, seedDemoDetails } from '#server/seed/details.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// The demo seed puts its registrations into the local registry's own data (no EPP) before the
// portal serves anything: afterwards the registry, seen through the real EPP client over TLS with
// every frame schema-validated, and our records agree exactly, and nothing rewrites them.

let platform: Awaited<ReturnType<typeof createTestPlatform>>
type Row = { id: string; name: string; expires_at: Date | null; created_at: Date; registry_lock: boolean; dnssec: boolean }
let seeded: Row[]
const logger = createLogger('silent')
const local = () => platform.registries!.local!
const rows = () => platform.db.selectFrom('domains').selectAll().orderBy('name').execute()

beforeAll(async () => {
  platform = await createTestPlatform(
    {},
    {
      registry: {
        tlds: [
          { name: 'com', periods: [1, 2, 5] },
          { name: 'net', periods: [1] },
        ],
      },
    },
  )
  await seedDemo(platform.db, logger, { domainsPerAccount: [10, 4] })
  seeded = await platform.db.selectFrom('domains').select(['id', 'name', 'expires_at', 'created_at', 'registry_lock', 'dnssec']).orderBy('name').execute()
})
afterAll(() => platform?.close())

describe('demo seed at the local registry', () => {
  it('preloads every seeded domain as registry data, without a single EPP frame, keeping the seed’s dates', async () => {
    expect(seeded).toHaveLength(14)
    expect(seeded.every((d) => d.name.endsWith('.com'))).toBe(true)
    expect(await preloadDemoRegistry(platform.db, platform.registries!, logger)).toEqual({ preloaded: 14 })
    expect(local().frames).toEqual({ received: 0, sent: 0 })

    const after = await rows()
    expect(after.map((d) => [d.name, d.expires_at?.toISOString(), d.registered_at?.toISOString(), d.registry])).toEqual(
      seeded.map((d) => [d.name, d.expires_at?.toISOString(), d.created_at.toISOString(), 'local']),
    )
    for (const d of after) {
      const held = local().registry.state.domains[d.name]!
      expect(held.clID).toBe('portal')
      expect(held.exDate).toBe(d.expires_at!.toISOString())
      expect(held.crDate).toBe(d.registered_at!.toISOString())
      expect(held.addGraceUntil).toBeUndefined()
      expect(d.registry_statuses).toEqual(d.registry_lock ? [...REGISTRY_LOCK_STATUSES].sort() : ['ok'])
      expect(d.ds_data.length > 0).toBe(d.dnssec)
      expect(d.nameservers).toEqual(['ns1.registrar.example', 'ns2.registrar.example'])
    }
    // The seed has both kinds, so both branches above were taken.
    expect(after.some((d) => d.registry_lock) && after.some((d) => !d.registry_lock) && after.some((d) => d.dnssec)).toBe(true)
  })

  it('answers info over EPP with exactly what we recorded, and reconciliation finds no difference', async () => {
    const connection = platform.registries!.forTld('com')!
    for (const d of await rows()) {
      const info = await connection.infoDomain(d.name)
      expect(info.expiresAt?.toISOString()).toBe(d.expires_at!.toISOString())
      expect(info.createdAt?.toISOString()).toBe(d.registered_at!.toISOString())
      expect(info.clientId).toBe('portal')
      expect(info.roid).toBe(d.registry_roid)
      expect([...info.statuses].sort()).toEqual(d.registry_statuses)
      expect(info.authInfo).toMatch(/\S{6,}/)
    }
    const before = await rows()
    const result = await reconcileDomains(platform.deps)
    expect(result).toEqual({ checked: 14, differences: 0 })
    const open = await platform.db
      .selectFrom('domain_differences')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
    expect(open.n).toBe(0)
    // Reconciliation only stamps the check time; every other column is as the seed left it.
    const strip = (list: typeof before) => list.map(({ reconciled_at: _r, ...rest }) => rest)
    expect(strip(await rows())).toEqual(strip(before))
    expect(local().validator?.stats.invalidSent ?? 0).toBe(0)
    expect(local().problems).toEqual([])
  })

  it('lets the registry enforce what it holds: a renewal from our expiry works, a locked domain refuses updates', async () => {
    const connection = platform.registries!.forTld('com')!
    const [open, locked] = [(await rows()).find((d) => !d.registry_lock)!, (await rows()).find((d) => d.registry_lock)!]
    const renewed = await connection.renewDomain({ name: open.name, currentExpiry: open.expires_at!, years: 1 })
    expect(renewed.expiresAt?.toISOString().slice(0, 10)).toBe(`${open.expires_at!.getUTCFullYear() + 1}${open.expires_at!.toISOString().slice(4, 10)}`)
    await expect(connection.updateDomain({ name: locked.name, add: { statuses: ['clientHold'] } })).rejects.toMatchObject({ code: 2304 })
  })

  it('does nothing a second time: only rows the seed made without a registry are preloaded', async () => {
    expect(await preloadDemoRegistry(platform.db, platform.registries!, logger)).toEqual({ preloaded: 0 })
  })
})

describe('demo seed of the detail screens (issue 28, item 17)', () => {
  it('leaves a certificate, an order the registry carried out and a material change request waiting for its approver, all through the services', async () => {
    // Jobs queue but nobody works them, as in the e2e template's seeding server: the order is done all the same.
    await platform.deps.jobs.start({ work: false })
    await seedDemoDetails(platform.deps, logger)
    const acme = await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()
    // No CA in this platform: the certificate is one bought elsewhere, imported with its chain and key.
    const certs = await platform.db.selectFrom('ssl_certificates').select(['common_name', 'names', 'status', 'origin', 'account_id']).execute()
    expect(certs).toEqual([{ common_name: 'acme-corp.com', names: ['acme-corp.com', 'www.acme-corp.com'], status: 'issued', origin: 'import', account_id: acme.id }])
    const order = await platform.db.selectFrom('order_items').select(['name', 'state', 'account_id']).execute()
    expect(order).toEqual([{ name: DEMO_ORDERED_DOMAIN, state: 'completed', account_id: acme.id }])
    expect(local().registry.state.domains[DEMO_ORDERED_DOMAIN]?.clID).toBe('portal')
    const requests = await platform.db.selectFrom('material_change_requests').select(['domain_name', 'state', 'approvers', 'requested_by_label']).execute()
    expect(requests).toEqual([{ domain_name: 'acme-corp.com', state: 'pending', approvers: [DEMO_APPROVER], requested_by_label: 'admin@acme.example' }])
    // Its flagship names have their four contacts set.
    const flagship = await platform.db
      .selectFrom('domain_contacts')
      .innerJoin('domains', 'domains.id', 'domain_contacts.domain_id')
      .select(['domains.name', 'domain_contacts.role'])
      .where('domains.name', 'in', ['acme.com', 'acme-corp.com'])
      .execute()
    expect(flagship).toHaveLength(8)
  })
})

describe('a transfer in the demo (issue 28, item 16)', () => {
  it("moves the other registrar's name to Acme with the auth code the README gives, a few seconds after it is asked; a wrong code fails at the registry and another account never sees the order", async () => {
    const login = async (username: string) => (await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })).json.access_token as string
    const [ada, gil] = [await login('admin@acme.example'), await login('admin@globex.example')]
    const account = async (name: string) => (await platform.db.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id
    const [acme, globex] = [await account('Acme Corp'), await account('Globex')]
    expect(local().registry.state.domains[DEMO_TRANSFER.name]).toMatchObject({ clID: OTHER_LOCAL_REGISTRAR.id, authInfo: DEMO_TRANSFER.authCode })
    const order = async (authCode: string) => {
      const placed = await platform.call('POST', `/groups/${acme}/orders`, { token: ada, body: { items: [{ type: 'transfer', name: DEMO_TRANSFER.name, period: 1, auth_code: authCode }] } })
      expect(placed.status, JSON.stringify(placed.json)).toBe(201)
      // The order's job, as the worker runs it: the transfer is asked at the registry.
      await runItem(platform.deps, placed.json.items[0].id)
      return placed.json as { id: string; items: { id: string }[] }
    }
    const item = (id: string) => platform.db.selectFrom('order_items').select(['state', 'last_error']).where('id', '=', id).executeTakeFirstOrThrow()

    const wrong = await order('not-the-code')
    expect(await item(wrong.items[0]!.id)).toMatchObject({ state: 'failed', last_error: expect.stringMatching(/authori[sz]ation/i) })

    const right = await order(DEMO_TRANSFER.authCode)
    expect((await item(right.items[0]!.id)).state).toBe('processing')
    expect((await platform.call('GET', `/groups/${globex}/orders/${right.id}`, { token: gil })).status).toBe(404)
    // The other registrar approves it after its few seconds; the check job then finds it done.
    await new Promise((resolve) => setTimeout(resolve, OTHER_LOCAL_REGISTRAR.approvesTransfersAfterSeconds * 1000 + 200))
    await checkTransfer(platform.deps, right.items[0]!.id)
    expect((await item(right.items[0]!.id)).state).toBe('completed')
    expect(local().registry.state.domains[DEMO_TRANSFER.name]?.clID).toBe('portal')
    const domain = await platform.db.selectFrom('domains').select(['account_id', 'status']).where('name', '=', DEMO_TRANSFER.name).executeTakeFirstOrThrow()
    expect(domain).toEqual({ account_id: acme, status: 'active' })
  })
})
