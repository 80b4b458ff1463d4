import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// GET /groups/{context}/summary, the home page's "what needs attention": each figure is the total
// of the list the portal links it to, scoped to the account (every account for staff in their own
// group), and absent where the user may not read the area.
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acme: string
let globex: string
const tokens: Record<string, string> = {}
const NOW = new Date('2026-03-10T15:00:00Z')

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

const summary = async (context: string, token: string) => {
  const res = await platform.call('GET', `/groups/${context}/summary`, { token })
  return res
}

beforeAll(async () => {
  platform = await createTestPlatform({ now: () => NOW }, { seed: { domainsPerAccount: [40, 20] } })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  tokens.viewer = await login('viewer@acme.example')
  tokens.admin = await login('admin@acme.example')
  tokens.globex = await login('admin@globex.example')
  tokens.staff = await login('staff@example.com')
  // A known state for the figures: Acme's first three domains (by name) expire in 5, 45 and 80
  // days, the first without auto-renew; two zones in trouble, one of Globex's.
  const domains = await platform.db.selectFrom('domains').select(['id', 'name', 'account_id']).where('status', '<>', 'deleted').orderBy('name').execute()
  const acmeDomains = domains.filter((d) => d.account_id === acme)
  const globexDomain = domains.find((d) => d.account_id === globex)!
  await platform.db
    .updateTable('domains')
    .set({ expires_at: new Date(NOW.getTime() + 400 * 86_400_000) })
    .execute()
  for (const [i, days] of [5, 45, 80].entries()) {
    await platform.db
      .updateTable('domains')
      .set({ expires_at: new Date(NOW.getTime() + days * 86_400_000), auto_renew: i !== 0 })
      .where('id', '=', acmeDomains[i]!.id)
      .execute()
  }
  await platform.db
    .updateTable('domains')
    .set({ expires_at: new Date(NOW.getTime() + 10 * 86_400_000), auto_renew: false })
    .where('id', '=', globexDomain.id)
    .execute()
  await platform.db.deleteFrom('dns_records').execute()
  await platform.db.deleteFrom('dns_zones').execute()
  await platform.db
    .insertInto('dns_zones')
    .values([
      { account_id: acme, domain_id: acmeDomains[0]!.id, name: acmeDomains[0]!.name, serial: 1, publish_state: 'failed', last_error: 'refused' },
      {
        account_id: acme,
        domain_id: acmeDomains[1]!.id,
        name: acmeDomains[1]!.name,
        serial: 1,
        publish_state: 'published',
        drift: JSON.stringify({ missing: [], unexpected: [{ name: 'x', type: 'A' }], different: [] }),
      },
      { account_id: acme, domain_id: acmeDomains[2]!.id, name: acmeDomains[2]!.name, serial: 1, publish_state: 'published', drift: JSON.stringify({ missing: [], unexpected: [], different: [] }) },
      { account_id: globex, domain_id: globexDomain.id, name: globexDomain.name, serial: 1, publish_state: 'failed' },
    ] as never)
    .execute()
})
afterAll(() => platform?.close())

describe('GET /groups/{context}/summary', () => {
  it('counts the account’s domains expiring in 30, 60 and 90 days, those without auto-renew apart, as the list filtered the same way does', async () => {
    const res = await summary(acme, tokens.viewer!)
    expect(res.status).toBe(200)
    expect(res.json.today).toBe('2026-03-10')
    expect(res.json.expiring).toEqual([
      { days: 30, until: '2026-04-09', total: 1, auto_renew_off: 1 },
      { days: 60, until: '2026-05-09', total: 2, auto_renew_off: 1 },
      { days: 90, until: '2026-06-08', total: 3, auto_renew_off: 1 },
    ])
    for (const window of res.json.expiring as { until: string; total: number; auto_renew_off: number }[]) {
      const between = `expires_at between '${res.json.today},${window.until}'`
      const all = await platform.call('GET', `/groups/${acme}/domains?limit=1&pql=${encodeURIComponent(between)}`, { token: tokens.viewer })
      expect(all.json.meta.total).toBe(window.total)
      const off = await platform.call('GET', `/groups/${acme}/domains?limit=1&pql=${encodeURIComponent(`${between} and auto_renew equals 'false'`)}`, { token: tokens.viewer })
      expect(off.json.meta.total).toBe(window.auto_renew_off)
    }
  })

  it('names the zones failing to publish first, then the drifting ones, of the account only', async () => {
    const res = await summary(acme, tokens.admin!)
    expect(res.json.zones.failing).toBe(1)
    expect(res.json.zones.drifting).toBe(1)
    expect(res.json.zones.named.map((z: { problem: string }) => z.problem)).toEqual(['failing', 'drifting'])
  })

  it('counts open registry differences, pending and failed orders and waiting material changes as their lists do', async () => {
    const res = await summary(acme, tokens.admin!)
    const differences = await platform.call('GET', `/groups/${acme}/domains/reconciliation-differences?limit=1`, { token: tokens.admin })
    expect(res.json.differences).toBe(differences.json.meta.total)
    const failed = await platform.call('GET', `/groups/${acme}/orders?limit=1&pql=${encodeURIComponent("state equals 'failed'")}`, { token: tokens.admin })
    expect(res.json.orders.failed).toBe(failed.json.meta.total)
    const pending = await platform.call('GET', `/groups/${acme}/orders?limit=1&pql=${encodeURIComponent("state equals 'pending,processing'")}`, { token: tokens.admin })
    expect(res.json.orders.pending).toBe(pending.json.meta.total)
    const waiting = await platform.call('GET', `/groups/${acme}/material-change-requests?limit=1&pql=${encodeURIComponent("state equals 'pending'")}`, { token: tokens.admin })
    expect(res.json.material_changes.pending).toBe(waiting.json.meta.total)
  })

  it('is scoped: another account’s context is 404, and Globex sees only its own figures', async () => {
    expect((await summary(globex, tokens.admin!)).status).toBe(404)
    const own = await summary(globex, tokens.globex!)
    expect(own.status).toBe(200)
    expect(own.json.expiring[0]).toMatchObject({ total: 1, auto_renew_off: 1 })
    expect(own.json.zones).toMatchObject({ failing: 1, drifting: 0 })
  })

  it('gives staff in their own group every account’s figures, and one account’s in its context', async () => {
    const staffHome = (await platform.db.selectFrom('users').select('account_id').where('email', '=', 'staff@example.com').executeTakeFirstOrThrow()).account_id
    const all = await summary(staffHome, tokens.staff!)
    expect(all.json.expiring[0]).toMatchObject({ total: 2, auto_renew_off: 2 })
    expect(all.json.zones.failing).toBe(2)
    const inAcme = await summary(acme, tokens.staff!)
    expect(inAcme.json.zones.failing).toBe(1)
  })

  it('leaves out what the user may not read, and needs a signed-in user', async () => {
    const viewer = await platform.db.selectFrom('users').select(['id', 'roles']).where('email', '=', 'viewer@acme.example').executeTakeFirstOrThrow()
    await platform.db
      .updateTable('users')
      .set({ roles: ['domain-viewer'] })
      .where('id', '=', viewer.id)
      .execute()
    try {
      const res = await summary(acme, await login('viewer@acme.example'))
      expect(res.status).toBe(200)
      expect(res.json.zones).toBeNull()
      expect(res.json.expiring).toHaveLength(3)
    } finally {
      await platform.db.updateTable('users').set({ roles: viewer.roles }).where('id', '=', viewer.id).execute()
    }
    expect((await platform.call('GET', `/groups/${acme}/summary`)).status).toBe(401)
  })
})
