import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import { EppBlockProvider, EppRegistryConnection, startLocalRegistry, type LocalRegistryServer, type RegistryConnection } from '#server/integrations/registry/index.ts'
import type { Registries } from '#server/platform/deps.ts'
import { DEMO_PASSWORD, seedDemo } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

/**
 * Blocks (decision 302, issue 18): an order reserves its charge in the transaction that stores the
 * block and queues its placement; the local registry — a real EPP round trip with the block
 * mapping, every frame checked against the schemas — places it (settled) or refuses it (released,
 * its reason kept); past the limit nothing is written and nothing reaches the provider; renewal
 * and cancellation go to the provider too; another account's block is a 404.
 */
const US = { id: 'registrar-portal', password: 'portal-secret-1' }
let registry: LocalRegistryServer
let ours: RegistryConnection
let blocks: EppBlockProvider
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
let acme = ''
let globex = ''
let staffHome = ''

beforeAll(async () => {
  registry = await startLocalRegistry({
    port: 0,
    clients: [US],
    policy: { tlds: { com: { createYears: [1], renewYears: [1], transferYears: [1] }, net: { createYears: [1], renewYears: [1], transferYears: [1] } } },
  })
  const client = { host: '127.0.0.1', port: registry.port, tls: { ca: registry.certificate, servername: 'localhost' }, timeoutMs: 10_000 }
  ours = new EppRegistryConnection({ registry: 'local', client, clientId: US.id, password: US.password, sessions: 1, rateLimit: { perSecond: 1000, burst: 1000 } })
  blocks = new EppBlockProvider({ provider: 'local', client, clientId: US.id, password: US.password, rateLimit: { perSecond: 1000, burst: 1000 } })
  const registries: Registries = { forTld: (tld) => (['com', 'net'].includes(tld) ? ours : null), clientIdFor: () => US.id, blocks, close: async () => {} }
  platform = await createTestPlatform({ registries })
  await seedDemo(platform.db, createLogger('silent'), { domainsPerAccount: [1, 1] })
  await platform.deps.jobs.start({ work: true })
  for (const email of ['staff@example.com', 'admin@acme.example', 'viewer@acme.example', 'admin@globex.example']) {
    tokens[email] = (await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })).json.access_token
  }
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  staffHome = (await platform.call('GET', '/me', { token: tokens['staff@example.com']! })).json.group_id
}, 60_000)
afterAll(async () => {
  await platform?.close()
  await blocks?.close()
  await ours?.close()
  await registry?.close()
})

const admin = () => tokens['admin@acme.example']!
const DPML = 'block:dpml:order'
const order = (label: string, token = admin(), context = acme, extra: Record<string, unknown> = {}) =>
  platform.call('POST', `/groups/${context}/blocks`, { token, body: { label, product_code: DPML, period_years: 1, trademark_ref: 'TMCH-0001', ...extra } })
const charge = (key: string) => platform.db.selectFrom('transactions').selectAll().where('idempotency_key', '=', key).executeTakeFirstOrThrow()
const entityOf = async (id: string) => (await platform.db.selectFrom('accounts').select('billing_entity_id').where('id', '=', id).executeTakeFirstOrThrow()).billing_entity_id!
const balance = async (id: string) =>
  (
    await platform.db
      .selectFrom('billing_balances')
      .select('balance_minor')
      .where('billing_entity_id', '=', await entityOf(id))
      .execute()
  ).reduce((sum, r) => sum + Number(r.balance_minor), 0)
const count = async (table: string) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(platform.db)).rows[0]!.n
const atProvider = () => Object.values(registry.registry.state.blocks ?? {})

/** Waits for the placement job to finish (the job's own pace, not a timing assertion). */
async function settled(id: string, context = acme, token = admin()) {
  for (let i = 0; i < 200; i++) {
    const res = await platform.call('GET', `/groups/${context}/blocks/${id}`, { token })
    if (res.json.status !== 'pending') return res.json
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`block ${id} still pending`)
}

let acmeBlock = ''

describe('blocks', () => {
  it('orders a block: charged (reserved) with the order, placed by the job with the provider, settled', async () => {
    const before = await balance(acme)
    const res = await order('Acmeshield')
    expect(res.status).toBe(201)
    expect(res.json).toMatchObject({ label: 'acmeshield', status: 'pending', product_code: DPML, trademark_ref: 'TMCH-0001' })
    acmeBlock = res.json.id
    const reserved = await charge(`block-order:${acmeBlock}`)
    expect(reserved).toMatchObject({ kind: 'block', action: 'order', object_name: 'acmeshield', account_id: acme })
    expect(before - (await balance(acme))).toBe(Number(reserved.amount_minor))
    const done = await settled(acmeBlock)
    expect(done).toMatchObject({ status: 'active', covered_tlds: ['com', 'net'], provider: 'local' })
    expect(done.transactions).toEqual([expect.objectContaining({ state: 'settled', action: 'order', amount_minor: Number(reserved.amount_minor) })])
    expect(new Date(done.expires_at).getUTCFullYear()).toBe(new Date().getUTCFullYear() + 1)
    expect(atProvider()).toEqual([expect.objectContaining({ label: 'acmeshield', product: 'dpml', mark: 'TMCH-0001', clID: US.id })])
    // The block does what it is for: the label cannot be registered in a covered TLD.
    await expect(ours.createDomain({ name: 'acmeshield.net', years: 1, authInfo: 'Secret-123' } as never)).rejects.toMatchObject({ code: 2308 })
    // Listed with the list engine, filtered by status.
    const list = await platform.call('GET', `/groups/${acme}/blocks?pql=${encodeURIComponent("status equals 'active'")}`, { token: admin() })
    expect(list.json.data.map((b: { label: string }) => b.label)).toEqual(['acmeshield'])
  })

  it('a label the provider refuses (blocked by another holder): failed with its reason, the charge released', async () => {
    const before = await balance(globex)
    const res = await order('acmeshield', tokens['admin@globex.example']!, globex, { trademark_ref: 'TMCH-9999' })
    expect(res.status).toBe(201)
    const done = await settled(res.json.id, globex, tokens['admin@globex.example']!)
    expect(done.status).toBe('failed')
    expect(done.failure_reason).toMatch(/already blocked by another holder/)
    expect((await charge(`block-order:${res.json.id}`)).state).toBe('released')
    expect(await balance(globex)).toBe(before)
    expect(atProvider()).toHaveLength(1)
  })

  it('refuses a label that is not one DNS label beside the field, and converts an IDN to punycode', async () => {
    const bad = await order('acme.shield')
    expect(bad.status).toBe(400)
    expect(bad.json.errors).toEqual([expect.objectContaining({ field: 'label', code: 'block.label-dot' })])
    const idn = await order('münchen')
    expect(idn.status).toBe(201)
    expect(idn.json).toMatchObject({ label: 'xn--mnchen-3ya', label_unicode: 'münchen' })
    expect((await settled(idn.json.id)).status).toBe('active')
    const again = await order('MÜNCHEN')
    expect(again.json).toMatchObject({ code: 'block.already-blocked' })
  })

  it('renews an active block at the provider, charged and settled', async () => {
    const before = (await platform.call('GET', `/groups/${acme}/blocks/${acmeBlock}`, { token: admin() })).json
    const res = await platform.call('POST', `/groups/${acme}/blocks/${acmeBlock}/renew`, { token: admin(), body: { period_years: 1 } })
    expect(res.status).toBe(200)
    expect(new Date(res.json.expires_at).getUTCFullYear()).toBe(new Date(before.expires_at).getUTCFullYear() + 1)
    const renew = await charge(`block-renew:${acmeBlock}:${before.expires_at.slice(0, 10)}`)
    expect(renew).toMatchObject({ state: 'settled', action: 'renew' })
    expect(atProvider().find((b) => b.label === 'acmeshield')!.exDate).toBe(res.json.expires_at)
  })

  it('another account meets 404 on every block endpoint, a viewer 403 on every change; staff see both', async () => {
    const globexBlock = (await platform.db.selectFrom('blocks').select('id').where('account_id', '=', globex).executeTakeFirstOrThrow()).id
    const before = { blocks: await count('blocks'), tx: await count('transactions'), audit: await count('audit_entries') }
    for (const context of [acme, globex])
      for (const [method, path, body] of [
        ['GET', `/groups/${context}/blocks/${globexBlock}`],
        ['POST', `/groups/${context}/blocks/${globexBlock}/renew`, { period_years: 1 }],
        ['POST', `/groups/${context}/blocks/${globexBlock}/cancel`],
        ...(context === globex
          ? [
              ['GET', `/groups/${context}/blocks`],
              ['POST', `/groups/${context}/blocks`, { label: 'x', product_code: DPML, period_years: 1, trademark_ref: 'x' }],
            ]
          : []),
      ] as [string, string, unknown?][]) {
        const res = await platform.call(method, path, { token: admin(), body })
        expect({ path: `${method} ${path}`, status: res.status }).toEqual({ path: `${method} ${path}`, status: 404 })
        expect(res.text).not.toMatch(/Globex|globex/)
      }
    expect((await platform.call('GET', `/groups/${acme}/blocks?limit=100`, { token: admin() })).json.data.every((b: { group_id?: string }) => b.group_id === undefined || b.group_id === acme)).toBe(
      true,
    )
    const viewer = tokens['viewer@acme.example']!
    expect((await platform.call('GET', `/groups/${acme}/blocks/${acmeBlock}`, { token: viewer })).status).toBe(200)
    for (const [path, body] of [
      [`/groups/${acme}/blocks`, { label: 'viewerblock', product_code: DPML, period_years: 1, trademark_ref: 'x' }],
      [`/groups/${acme}/blocks/${acmeBlock}/renew`, { period_years: 1 }],
      [`/groups/${acme}/blocks/${acmeBlock}/cancel`, undefined],
    ] as const)
      expect((await platform.call('POST', path, { token: viewer, body })).status).toBe(403)
    expect({ blocks: await count('blocks'), tx: await count('transactions'), audit: await count('audit_entries') }).toEqual(before)
    const all = await platform.call('GET', `/groups/${staffHome}/blocks?limit=100&fields=group_id`, { token: tokens['staff@example.com']! })
    expect(new Set(all.json.data.map((b: { group_id: string }) => b.group_id))).toEqual(new Set([acme, globex]))
  })

  it('cancels an active block at the provider: the label is free to register again', async () => {
    const res = await platform.call('POST', `/groups/${acme}/blocks/${acmeBlock}/cancel`, { token: admin() })
    expect(res.status).toBe(200)
    expect(res.json.status).toBe('cancelled')
    expect(atProvider().some((b) => b.label === 'acmeshield')).toBe(false)
    const again = await platform.call('POST', `/groups/${acme}/blocks/${acmeBlock}/cancel`, { token: admin() })
    expect(again.json).toMatchObject({ code: 'block.not-cancellable' })
  })

  it('refuses an order past the balance or credit limit with the shortfall, writing nothing and sending nothing', async () => {
    const entity = await entityOf(acme)
    const terms = await platform.call('PUT', `/groups/${staffHome}/billing-entities/${entity}/balances/USD`, { token: tokens['staff@example.com']!, body: { credit_limit: '0' } })
    const available = terms.json.available_minor as number
    await platform.call('POST', `/groups/${staffHome}/billing-entities/${entity}/payments`, {
      token: tokens['staff@example.com']!,
      body: { kind: 'adjustment', currency: 'USD', amount: ((500 - available) / 100).toFixed(2), reason: 'Test: leave 5.00' },
    })
    const before = { blocks: await count('blocks'), tx: await count('transactions'), provider: atProvider().length, frames: registry.frames.received }
    const res = await order('toomuchshield')
    expect(res.status).toBe(409)
    expect(res.json).toMatchObject({ code: 'billing.insufficient_funds', available: 'USD 5.00' })
    expect(res.json.shortfall).toMatch(/^USD \d+\.\d\d$/)
    expect({ blocks: await count('blocks'), tx: await count('transactions'), provider: atProvider().length, frames: registry.frames.received }).toEqual(before)
    // Every block frame both ways was valid against the schemas (the RFC ones and block-1.0.xsd).
    expect(registry.problems).toEqual([])
    expect(registry.validator).toBeDefined()
  })
})
