import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EppRegistryConnection } from '#server/integrations/registry/connection.ts'
import type { RegistryConnection } from '#server/integrations/registry/index.ts'
import { DEFAULT_TLD_POLICY } from '#server/integrations/registry/local-registry.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { addManagedDomains } from '#server/platform/domains/service.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// Decision 006 on domain edits (issue 14): the version a user edited from is checked before
// anything is sent to the registry and again under the row lock in the transaction that writes.
// And a registry-locked domain's nameservers are refused with a code of their own (issue 16).
// Real database (PGlite, or PostgreSQL with DATABASE_URL) and the local EPP registry over TLS.

const CLIENT = { id: 'race-registrar', password: 'race-secret-123' }
let local: LocalRegistryConnection
let connection: EppRegistryConnection
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acme: string
let admin: string
// The registry as the platform sees it: the real connection, counting domain updates, with a
// hook that runs while an update is on its way (another writer acting at that moment).
let updatesSent: string[] = []
let whileUpdating: (() => Promise<void>) | null = null

function observed(real: RegistryConnection): RegistryConnection {
  return new Proxy(real, {
    get(target, prop) {
      if (prop === 'updateDomain') {
        return async (input: Parameters<RegistryConnection['updateDomain']>[0]) => {
          updatesSent.push(input.name)
          const hook = whileUpdating
          whileUpdating = null
          if (hook) await hook()
          return target.updateDomain(input)
        }
      }
      const value = Reflect.get(target, prop, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

async function registered(name: string) {
  const created = await connection.createDomain({ name, authInfo: 'Auth-info-123', years: 1 })
  const [domain] = await addManagedDomains(platform.db, systemScope('test', acme), [{ name, expires_at: created.expiresAt! }])
  return domain!
}

const patch = (id: string, body: Record<string, unknown>) => platform.call('PATCH', `/groups/${acme}/domains/${id}`, { token: admin, body })
const row = (id: string) => platform.db.selectFrom('domains').select(['version', 'nameservers', 'registry_lock', 'auto_renew']).where('id', '=', id).executeTakeFirstOrThrow()
const updates = (id: string) => platform.db.selectFrom('audit_entries').select(['action', 'changes']).where('entity_id', '=', id).where('action', '=', 'update').execute()

beforeAll(async () => {
  local = await localRegistryConnection({ client: CLIENT, policy: { tlds: { com: DEFAULT_TLD_POLICY } }, through: observed })
  connection = local.connection
  platform = await createTestPlatform({ registries: local.registries }, { seed: { domainsPerAccount: [2, 1] } })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  admin = (await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })).json.access_token
})

afterAll(async () => {
  await platform?.close()
  await local?.close()
})

describe('concurrent edits of one domain', () => {
  it('two PATCHes from the same version: exactly one wins, the other gets the stale-version 409 and sends nothing to the registry', async () => {
    const domain = await registered('race-two.com')
    updatesSent = []
    const [a, b] = await Promise.all([
      patch(domain.id, { version: domain.version, nameservers: ['ns1.left.example', 'ns2.left.example'] }),
      patch(domain.id, { version: domain.version, nameservers: ['ns1.right.example', 'ns2.right.example'] }),
    ])
    expect([a.status, b.status].sort()).toEqual([200, 409])
    const [won, lost] = a.status === 200 ? [a, b] : [b, a]
    expect(lost.headers.get('content-type')).toContain('application/problem+json')
    expect(lost.json).toMatchObject({ status: 409, code: 'version.conflict', current_version: domain.version + 1 })
    expect(lost.json.detail).toBe('Someone else changed this domain; reload it and try again')

    const after = await row(domain.id)
    expect(after.version).toBe(domain.version + 1)
    expect(after.nameservers).toEqual(won.json.nameservers)
    expect(await updates(domain.id)).toHaveLength(1)
    // Only the winner reached the registry, and the registry holds what we hold.
    expect(updatesSent).toEqual(['race-two.com'])
    expect([...(await connection.infoDomain('race-two.com')).nameservers].sort()).toEqual(after.nameservers)
  })

  it('re-checks the version under the row lock: an edit that lands while ours is at the registry makes ours the stale one, and nothing of ours is written', async () => {
    const domain = await registered('race-lock.com')
    // Another process's edit, committed while this one waits for the registry.
    whileUpdating = async () => {
      await platform.db
        .updateTable('domains')
        .set((eb) => ({ auto_renew: false, version: eb('version', '+', 1) }))
        .where('id', '=', domain.id)
        .execute()
    }
    const res = await patch(domain.id, { version: domain.version, nameservers: ['ns1.late.example'] })
    expect(res.status).toBe(409)
    expect(res.json).toMatchObject({ code: 'version.conflict', current_version: domain.version + 1 })
    // Only the other edit is in our row; this one wrote neither its nameservers nor an audit entry.
    expect(await row(domain.id)).toMatchObject({ version: domain.version + 1, nameservers: [], auto_renew: false })
    expect(await updates(domain.id)).toHaveLength(0)
  })

  it('a nameserver change on a registry-locked domain says the lock is on and what to do, and sends nothing', async () => {
    const domain = await registered('race-locked.com')
    const locked = await patch(domain.id, { version: domain.version, registry_lock: true })
    expect(locked.status).toBe(200)
    updatesSent = []
    const refused = await patch(domain.id, { version: locked.json.version, nameservers: ['ns1.moved.example'] })
    expect(refused.status).toBe(409)
    expect(refused.json).toMatchObject({ code: 'domain.registry_locked', domain: 'race-locked.com' })
    expect(refused.json.detail).toBe(
      'race-locked.com has the registry lock on, so its nameservers and contacts cannot be changed. Turn the registry lock off first, make the change, then turn the lock back on.',
    )
    expect(updatesSent).toEqual([])
    expect(await row(domain.id)).toMatchObject({ version: locked.json.version, nameservers: [], registry_lock: true })
    // Unlocking in the same change is what the sentence asks for: allowed.
    const unlocked = await patch(domain.id, { version: locked.json.version, registry_lock: false, nameservers: ['ns1.moved.example'] })
    expect(unlocked.status, JSON.stringify(unlocked.json)).toBe(200)
    expect(unlocked.json).toMatchObject({ registry_lock: false, nameservers: ['ns1.moved.example'] })
    expect((await connection.infoDomain('race-locked.com')).nameservers).toEqual(['ns1.moved.example'])
  })
})
