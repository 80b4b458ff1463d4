import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import { reconcileDomains } from '#server/platform/domains/jobs.ts'
import { seedDemo } from '#server/seed/demo.ts'
import { preloadDemoRegistry, REGISTRY_LOCK_STATUSES } from '#server/seed/registry.ts'
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
