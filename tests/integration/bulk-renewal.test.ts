import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { EppRegistryConnection } from '#server/integrations/registry/connection.ts'
import { DEFAULT_TLD_POLICY } from '#server/integrations/registry/local-registry.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createBulkJob, quoteBulk, runBulkJob, type BulkParams } from '#server/platform/bulk/service.ts'
import { addManagedDomains } from '#server/platform/domains/service.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// One renewal rule set (issue 14): a bulk renewal refuses, item by item, exactly what the domain's
// own renewal refuses (a period its TLD does not allow, a status that cannot renew), with the same
// message, before anything reaches the registry. The local EPP registry over TLS serves .com and .org.

const CLIENT = { id: 'renew-registrar', password: 'renew-secret-123' }
let local: LocalRegistryConnection
let connection: EppRegistryConnection
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acme: string
let admin: string

async function registered(name: string) {
  const created = await connection.createDomain({ name, authInfo: 'Auth-info-123', years: 1 })
  const [domain] = await addManagedDomains(platform.db, systemScope('test', acme), [{ name, expires_at: created.expiresAt! }])
  return domain!
}

const registryExpiry = async (name: string) => (await connection.infoDomain(name)).expiresAt?.toISOString()

beforeAll(async () => {
  local = await localRegistryConnection({ client: CLIENT, policy: { tlds: { com: DEFAULT_TLD_POLICY, org: DEFAULT_TLD_POLICY } } })
  connection = local.connection
  platform = await createTestPlatform({ registries: local.registries }, { seed: { domainsPerAccount: [2, 1] } })
  await platform.deps.jobs.start({ work: true })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  admin = (await platform.call('POST', '/login', { body: { username: 'admin@acme.example', password: DEMO_PASSWORD } })).json.access_token
})

afterAll(async () => {
  await platform?.close()
  await local?.close()
})

describe('bulk renewal follows the single renewal rules', () => {
  it('refuses per item a period the TLD does not allow and a status that cannot renew, with the single call’s message; nothing renewed at the registry', async () => {
    // .org allows 1, 2, 3, 5 or 10 years (the catalogue), not 4; .com allows 4.
    const wrongPeriod = await registered('renew-period.org')
    const inRedemption = await registered('renew-redemption.com')
    await platform.db.updateTable('domains').set({ status: 'redemption' }).where('id', '=', inRedemption.id).execute()
    const renewable = await registered('renew-fine.com')
    const before = {
      period: await registryExpiry(wrongPeriod.name),
      redemption: await registryExpiry(inRedemption.name),
      fine: await registryExpiry(renewable.name),
    }

    // The domain's own renewal: both refused before the registry.
    const singlePeriod = await platform.call('POST', `/groups/${acme}/domains/${wrongPeriod.id}/renew`, { token: admin, body: { period: 4 } })
    expect(singlePeriod.status).toBe(400)
    expect(singlePeriod.json.detail).toBe('.org does not allow a period of 4 years')
    const singleStatus = await platform.call('POST', `/groups/${acme}/domains/${inRedemption.id}/renew`, { token: admin, body: { period: 4 } })
    expect(singleStatus.status).toBe(409)
    expect(singleStatus.json.detail).toBe('renew-redemption.com is redemption and cannot be renewed')

    // The tray's bulk renewal of the same domains, and one that may renew: first its price, which
    // only the one that may renew is charged (issue 28) — the total of its renewal's quote.
    const ids = [wrongPeriod.id, inRedemption.id, renewable.id]
    const quote = await platform.call('POST', `/groups/${acme}/bulk-actions/quote`, { token: admin, body: { action: 'renew', ids, params: { period: 4 } } })
    expect(quote.status, JSON.stringify(quote.json)).toBe(200)
    const single = await platform.call('GET', `/groups/${acme}/domains/${renewable.id}/renew/quote?period=4`, { token: admin })
    expect(single.json.price).not.toBeNull()
    expect(quote.json).toEqual({ action: 'renew', count: 3, charged: 1, period: 4, totals: [single.json.price], items: [{ id: renewable.id, name: renewable.name, ...single.json.price }] })
    // Confirmed at totals that are no longer the quote: refused, nothing started.
    const jobsBefore = await platform.db.selectFrom('bulk_jobs').select('id').execute()
    const stale = await platform.call('POST', `/groups/${acme}/bulk-actions`, {
      token: admin,
      body: { action: 'renew', ids, params: { period: 4 }, expected_totals: [{ amount_minor: 1, currency: 'USD' }] },
    })
    expect(stale.status).toBe(409)
    expect(stale.json.code).toBe('billing.quote_changed')
    expect(await platform.db.selectFrom('bulk_jobs').select('id').execute()).toEqual(jobsBefore)
    const job = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token: admin, body: { action: 'renew', ids, params: { period: 4 }, expected_totals: quote.json.totals } })
    expect(job.status, JSON.stringify(job.json)).toBe(202)
    const done = await vi.waitFor(
      async () => {
        const res = await platform.call('GET', `/groups/${acme}/bulk-actions/${job.json.job_id}`, { token: admin })
        expect(res.json.state).toBe('completed')
        return res.json
      },
      { timeout: 30_000, interval: 200 },
    )
    const result = (id: string) => done.results.find((r: { id: string }) => r.id === id)
    expect(result(wrongPeriod.id)).toMatchObject({ ok: false, error: singlePeriod.json.detail })
    expect(result(inRedemption.id)).toMatchObject({ ok: false, error: singleStatus.json.detail })
    expect(result(renewable.id)).toMatchObject({ ok: true, outcome: 'applied' })

    // Nothing renewed at the registry for the refused ones, nor in our rows; the third renewed by 4 years.
    expect(await registryExpiry(wrongPeriod.name)).toBe(before.period)
    expect(await registryExpiry(inRedemption.name)).toBe(before.redemption)
    const fineAfter = new Date((await registryExpiry(renewable.name))!)
    expect(fineAfter.getUTCFullYear()).toBe(new Date(before.fine!).getUTCFullYear() + 4)
    const rows = await platform.db.selectFrom('domains').select(['id', 'expires_at', 'version']).where('id', 'in', [wrongPeriod.id, inRedemption.id, renewable.id]).execute()
    const row = (id: string) => rows.find((r) => r.id === id)!
    expect(row(wrongPeriod.id)).toMatchObject({ expires_at: wrongPeriod.expires_at, version: wrongPeriod.version })
    expect(row(inRedemption.id)).toMatchObject({ expires_at: inRedemption.expires_at, version: inRedemption.version })
    expect(row(renewable.id).expires_at!.toISOString()).toBe(fineAfter.toISOString())
    const renewals = await platform.db.selectFrom('audit_entries').select('entity_id').where('action', '=', 'renew').where('entity_id', 'in', [wrongPeriod.id, inRedemption.id, renewable.id]).execute()
    expect(renewals.map((r) => r.entity_id)).toEqual([renewable.id])
  }, 60_000)
})

describe('a bulk registry lock asks once at its fees (issue 28)', () => {
  it('quotes each domain as its own lock does, charges exactly that, and refuses a stale total with nothing charged or locked', async () => {
    const first = await registered('bulk-lock-1.com')
    const second = await registered('bulk-lock-2.org')
    const locked = await registered('bulk-lock-held.com')
    await platform.db.updateTable('domains').set({ registry_lock: true }).where('id', '=', locked.id).execute()
    const ids = [first.id, second.id, locked.id]
    const fees = () =>
      platform.db
        .selectFrom('transactions')
        .select(['domain_id', 'state', 'amount_minor', 'currency'])
        .where('domain_id', 'in', ids)
        .where('action', '=', 'registry-lock')
        .orderBy('domain_id')
        .execute()
    const lockOf = async () => (await platform.db.selectFrom('domains').select(['id', 'registry_lock']).where('id', 'in', ids).orderBy('id').execute()).map((d) => [d.id, d.registry_lock])

    // The quote: each domain not yet locked at its own lock's quote, the total their sum; the locked one is not charged.
    const single = async (id: string) => (await platform.call('GET', `/groups/${acme}/domains/${id}/registry-lock/quote`, { token: admin })).json.price
    const [p1, p2] = [await single(first.id), await single(second.id)]
    expect(p1).not.toBeNull()
    expect(p2.currency).toBe(p1.currency)
    const quote = await platform.call('POST', `/groups/${acme}/bulk-actions/quote`, { token: admin, body: { action: 'lock', ids } })
    expect(quote.status, JSON.stringify(quote.json)).toBe(200)
    expect(quote.json).toEqual({
      action: 'lock',
      count: 3,
      charged: 2,
      period: null,
      totals: [{ amount_minor: p1.amount_minor + p2.amount_minor, currency: p1.currency }],
      items: [
        { id: first.id, name: first.name, ...p1 },
        { id: second.id, name: second.name, ...p2 },
      ],
    })

    // A total other than the quote's: refused, nothing started, charged or locked.
    const jobsBefore = await platform.db.selectFrom('bulk_jobs').select('id').execute()
    const stale = await platform.call('POST', `/groups/${acme}/bulk-actions`, {
      token: admin,
      body: { action: 'lock', ids, expected_totals: [{ amount_minor: quote.json.totals[0].amount_minor - 1, currency: p1.currency }] },
    })
    expect(stale.status).toBe(409)
    expect(stale.json.code).toBe('billing.quote_changed')
    expect(await platform.db.selectFrom('bulk_jobs').select('id').execute()).toEqual(jobsBefore)
    expect(await fees()).toEqual([])
    const before = await lockOf()
    expect(before.filter(([, on]) => on)).toEqual([[locked.id, true]])

    // Confirmed at the quote: each domain charged its quoted fee once, the locked one nothing.
    const job = await platform.call('POST', `/groups/${acme}/bulk-actions`, { token: admin, body: { action: 'lock', ids, expected_totals: quote.json.totals } })
    expect(job.status, JSON.stringify(job.json)).toBe(202)
    const done = await vi.waitFor(
      async () => {
        const res = await platform.call('GET', `/groups/${acme}/bulk-actions/${job.json.job_id}`, { token: admin })
        expect(res.json.state).toBe('completed')
        return res.json
      },
      { timeout: 30_000, interval: 200 },
    )
    expect(done.params).toEqual({})
    expect(done.results.map((r: { ok: boolean; outcome: string }) => [r.ok, r.outcome])).toEqual([
      [true, 'applied'],
      [true, 'applied'],
      [true, 'unchanged'],
    ])
    const charged = (await fees()).map((f) => ({ domain_id: f.domain_id, state: f.state, amount_minor: Number(f.amount_minor), currency: f.currency.trim() }))
    expect(charged.sort((a, b) => a.domain_id!.localeCompare(b.domain_id!))).toEqual(
      quote.json.items
        .map((i: { id: string; amount_minor: number; currency: string }) => ({ domain_id: i.id, state: 'settled', amount_minor: i.amount_minor, currency: i.currency }))
        .sort((a: { domain_id: string }, b: { domain_id: string }) => a.domain_id.localeCompare(b.domain_id)),
    )
    expect((await lockOf()).every(([, on]) => on)).toBe(true)
  }, 60_000)

  it('holds each item to the fee confirmed: a fee otherwise when its turn comes fails that item, nothing charged or locked', async () => {
    const domain = await registered('bulk-lock-later.com')
    const scope = systemScope('test', acme)
    const quote = await quoteBulk(platform.deps, scope, { action: 'lock', ids: [domain.id] })
    // Queued and not yet run; by its turn the engine prices the lock otherwise than confirmed.
    const queued = { ...platform.deps, jobs: { send: async () => null } } as unknown as PlatformDeps
    const job = await createBulkJob(queued, scope, { action: 'lock', ids: [domain.id], expected_totals: quote.totals })
    const [key] = Object.keys((job.params as BulkParams).expected!)
    const confirmed = { amount_minor: quote.totals[0]!.amount_minor + 100, currency: quote.totals[0]!.currency }
    await platform.db
      .updateTable('bulk_jobs')
      .set({ params: JSON.stringify({ expected: { [key!]: confirmed } }) })
      .where('id', '=', job.id)
      .execute()
    await runBulkJob(platform.deps, job.id)
    const item = await platform.db.selectFrom('bulk_job_items').select(['ok', 'error']).where('job_id', '=', job.id).executeTakeFirstOrThrow()
    expect(item.ok).toBe(false)
    expect(item.error).toContain('The price changed since it was shown')
    expect(await platform.db.selectFrom('transactions').select('id').where('domain_id', '=', domain.id).where('action', '=', 'registry-lock').execute()).toEqual([])
    expect((await platform.db.selectFrom('domains').select('registry_lock').where('id', '=', domain.id).executeTakeFirstOrThrow()).registry_lock).toBe(false)
  }, 30_000)
})
