import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectStatistics, STATISTICS_JOB } from '#server/platform/dns/statistics.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'
import { liveZone } from '#tests/support/zones.ts'

// Query counts per zone from a real pdns_server's statistics API, after real `dig` queries.
let pdns: PowerDnsServer
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let token: string
let account: string
let zoneId: string

beforeAll(async () => {
  pdns = await startPowerDns()
  platform = await createTestPlatform({ powerdns: pdns.settings }, { seed: { domainsPerAccount: [1, 1] } })
  await platform.deps.jobs.start({ work: true })
  // The test collects by hand: the every-minute schedule would take some of the counts in between.
  await platform.jobs.boss.unschedule(STATISTICS_JOB)
  token = (await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })).json.access_token
  account = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  // One published zone for both tests.
  const staff = (await platform.call('POST', '/login', { body: { username: 'staff@example.com', password: DEMO_PASSWORD } })).json.access_token
  zoneId = (await liveZone(platform.call, account, token, staff, 'stats.test')).json.id
  await until(
    async () => (await platform.call('GET', `/groups/${account}/zones/${zoneId}`, { token })).json,
    (z) => z.published,
    'publish',
  )
})
afterAll(async () => {
  await platform?.close()
  await pdns?.stop()
})

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000
  for (;;) {
    const value = await read()
    if (ok(value)) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const statistics = (query = '') => platform.call('GET', `/groups/${account}/zones/${zoneId}/statistics${query}`, { token })

describe('DNS statistics from PowerDNS', () => {
  it('counts the queries of each zone between two collections, from the query ring of PowerDNS', async () => {
    const first = await collectStatistics(platform.deps)
    expect(first?.ringWrapped).toBe(false)
    expect(first?.perZone[zoneId] ?? 0).toBe(0)

    for (let i = 0; i < 5; i++) expect(await pdns.dig('stats.test', 'SOA')).toHaveLength(1)
    await pdns.dig('nothing-here.STATS.test', 'A') // NXDOMAIN, and a name in capitals: still this zone
    await pdns.dig('elsewhere.example', 'A') // not ours: refused, counted for no zone
    const second = await collectStatistics(platform.deps)
    expect(second).toMatchObject({ ringWrapped: false, estimated: false })
    expect(second!.perZone).toEqual({ [zoneId]: 6 })
    expect(second!.newQueries).toBe(7)

    const res = await statistics()
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ zone_id: zoneId, bucket_seconds: 300, total: 6 })
    expect(res.json.buckets).toHaveLength(1)
    expect(res.json.buckets[0].queries).toBe(6)

    // Nothing asked since: nothing added.
    await collectStatistics(platform.deps)
    expect((await statistics()).json.total).toBe(6)
    await pdns.dig('stats.test', 'NS')
    await collectStatistics(platform.deps)
    expect((await statistics()).json.total).toBe(7)
  })

  it('takes a range, refuses a bad one, and answers 404 for a zone of nobody here', async () => {
    const future = await statistics(`?from=${encodeURIComponent('2999-01-01T00:00:00Z')}&to=${encodeURIComponent('2999-01-02T00:00:00Z')}`)
    expect(future.json).toMatchObject({ total: 0, buckets: [] })
    const backwards = await statistics('?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')
    expect(backwards.status).toBe(400)
    expect(backwards.json.errors).toEqual([{ field: 'from', message: 'must be before to' }])
    expect((await platform.call('GET', `/groups/${account}/zones/00000000-0000-4000-8000-000000000000/statistics`, { token })).status).toBe(404)
  })
})
