import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createZone } from '#server/platform/dns/service.ts'
import { LIVE_LOOKUPS_PER_MINUTE } from '#server/platform/domains/lifecycle.ts'
import { REGISTRY_THROTTLE_MESSAGE } from '#server/integrations/registry/index.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { preloadDemoRegistry } from '#server/seed/registry.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

/**
 * DS records of a domain whose zone is signed where it is hosted (issue 28, item 16): checked as
 * RFC 4034 and 8624 say, sent to the registry over EPP secDNS (seen in the registry's own data),
 * recorded and audited; refused for a zone hosted here, a locked domain, another account, a viewer.
 */
const US = { id: 'registrar-portal', password: 'portal-secret-1' }
let local: LocalRegistryConnection
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
let acme = ''
let globex = ''
const SHA256 = '2BB183AF5F22588179A53B0A98631FAD1A292118A3F2D0B1F0D0E0C1B2A39485'

beforeAll(async () => {
  local = await localRegistryConnection({ client: US, policy: { tlds: { com: { createYears: [1], renewYears: [1], transferYears: [1] } } }, sessions: 1 })
  platform = await createTestPlatform({ registries: local.registries }, { seed: { domainsPerAccount: [4, 2] } })
  await preloadDemoRegistry(platform.db, { ...local.registries, local: local.registry, clientId: US.id }, createLogger('silent'))
  for (const email of ['admin@acme.example', 'viewer@acme.example', 'admin@globex.example']) {
    tokens[email] = (await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })).json.access_token
  }
  const account = async (name: string) => (await platform.db.selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id
  ;[acme, globex] = [await account('Acme Corp'), await account('Globex')]
  // A zone made here queues its publishing: the queue exists, nobody works it.
  await platform.deps.jobs.start({ work: false })
})
afterAll(async () => {
  await platform?.close()
  await local?.close()
})

const domainOf = async (accountId: string, locked: boolean) =>
  platform.db.selectFrom('domains').select(['id', 'name']).where('account_id', '=', accountId).where('registry_lock', '=', locked).orderBy('name').executeTakeFirstOrThrow()
const atRegistry = (name: string) => local.registry.registry.state.domains[name]!.ds
const add = (domainId: string, body: unknown, token = tokens['admin@acme.example']!, context = acme) => platform.call('POST', `/groups/${context}/domains/${domainId}/ds`, { token, body })
const codes = (answer: { json: { errors?: { field: string; code: string }[] } }) => answer.json.errors?.map((e) => `${e.field} ${e.code}`)

describe('DS records of a domain hosted elsewhere', () => {
  it('refuses what RFC 4034 and 8624 refuse, beside each field, and sends nothing', async () => {
    const domain = await domainOf(acme, false)
    const before = atRegistry(domain.name).length
    const numbers = await add(domain.id, { key_tag: 70000, alg: 1, digest_type: 1, digest: SHA256 })
    expect(numbers.status).toBe(400)
    expect(codes(numbers)).toEqual(['key_tag ds.key-tag', 'alg ds.algorithm', 'digest_type ds.digest-type'])
    expect(codes(await add(domain.id, { key_tag: '12.5', alg: 13, digest_type: 2, digest: SHA256 }))).toEqual(['key_tag ds.key-tag'])
    expect(codes(await add(domain.id, { key_tag: 1, alg: 13, digest_type: 2, digest: 'not hex' }))).toEqual(['digest ds.digest-hex'])
    expect(codes(await add(domain.id, { key_tag: 1, alg: 13, digest_type: 2, digest: SHA256.slice(2) }))).toEqual(['digest ds.digest-length-sha256'])
    expect(codes(await add(domain.id, { key_tag: 1, alg: 14, digest_type: 4, digest: SHA256 }))).toEqual(['digest ds.digest-length-sha384'])
    expect(atRegistry(domain.name)).toHaveLength(before)
  })

  it('adds one at the registry over secDNS and on the domain, audited; the same one twice is refused; removed again', async () => {
    const domain = await domainOf(acme, false)
    const before = atRegistry(domain.name).length
    // A copy with spaces and lower case, as a DNS provider's page shows it.
    const added = await add(domain.id, { key_tag: '2371', alg: '13', digest_type: '2', digest: SHA256.toLowerCase().replace(/(.{16})/g, '$1 ') })
    expect(added.status, JSON.stringify(added.json)).toBe(201)
    const ds = { key_tag: 2371, alg: 13, digest_type: 2, digest: SHA256 }
    expect(added.json.ds).toContainEqual(ds)
    expect(atRegistry(domain.name)).toContainEqual({ keyTag: 2371, alg: 13, digestType: 2, digest: SHA256 })
    const detail = await platform.call('GET', `/groups/${acme}/domains/${domain.id}`, { token: tokens['viewer@acme.example']! })
    expect(detail.json.ds).toContainEqual(ds)
    expect(codes(await add(domain.id, ds))).toEqual(['digest ds.duplicate'])

    const key = `2371-13-2-${SHA256}`
    const removed = await platform.call('DELETE', `/groups/${acme}/domains/${domain.id}/ds/${key}`, { token: tokens['admin@acme.example']! })
    expect(removed.status).toBe(200)
    expect(removed.json.ds).not.toContainEqual(ds)
    expect(atRegistry(domain.name)).toHaveLength(before)
    expect((await platform.call('DELETE', `/groups/${acme}/domains/${domain.id}/ds/${key}`, { token: tokens['admin@acme.example']! })).status).toBe(404)
    const trail = await platform.db
      .selectFrom('audit_entries')
      .select(['action', 'actor_label'])
      .where('entity_id', '=', domain.id)
      .where('action', 'in', ['ds-added', 'ds-removed'])
      .orderBy('created_at')
      .execute()
    expect(trail).toEqual([
      { action: 'ds-added', actor_label: 'admin@acme.example' },
      { action: 'ds-removed', actor_label: 'admin@acme.example' },
    ])
  })

  it('is refused for a zone hosted here, a registry-locked domain, another account and a viewer', async () => {
    const ds = { key_tag: 1, alg: 13, digest_type: 2, digest: SHA256 }
    const [open, locked] = [await domainOf(acme, false), await domainOf(acme, true)]
    expect((await add(open.id, ds, tokens['viewer@acme.example']!)).status).toBe(403)
    expect((await add(open.id, ds, tokens['admin@globex.example']!, globex)).status).toBe(404)
    const lockedAnswer = await add(locked.id, ds)
    expect(lockedAnswer.status).toBe(409)
    await createZone(platform.deps, systemScope('test', acme), { domain_id: open.id })
    const hosted = await add(open.id, ds)
    expect([hosted.status, hosted.json.code]).toEqual([409, 'ds.zone-here'])
    expect(atRegistry(open.name).some((d) => d.keyTag === 1)).toBe(false)
  })
})

describe('the live registry lookup (registrar.domain.info)', () => {
  it("answers what the registry holds now to a viewer, without the auth code, and after ten in a minute the throttle's 429", async () => {
    const domain = await domainOf(acme, false)
    const lookup = () => platform.call('POST', `/groups/${acme}/platform_calls`, { token: tokens['viewer@acme.example']!, body: { operation: 'registrar.domain.info', domain: domain.name } })
    const first = await lookup()
    expect(first.status).toBe(200)
    expect(first.json.platform.result).toMatchObject({ name: domain.name, clientId: US.id })
    expect(first.json.platform.result.authInfo).toBeUndefined()
    // Another account's name is not found for this one.
    const other = await domainOf(globex, false)
    expect((await platform.call('POST', `/groups/${acme}/platform_calls`, { token: tokens['viewer@acme.example']!, body: { operation: 'registrar.domain.info', domain: other.name } })).status).toBe(
      404,
    )
    let answer = first
    for (let i = 1; i <= LIVE_LOOKUPS_PER_MINUTE && answer.status === 200; i++) answer = await lookup()
    // Ten in this minute's window (or, across a minute's edge, the next ten): the eleventh is refused.
    if (answer.status === 200) for (let i = 0; i < LIVE_LOOKUPS_PER_MINUTE && answer.status === 200; i++) answer = await lookup()
    expect(answer.status).toBe(429)
    expect(answer.json.detail).toBe(REGISTRY_THROTTLE_MESSAGE)
    expect(answer.headers.get('retry-after')).toMatch(/^\d+$/)
  })
})
