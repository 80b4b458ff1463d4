import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'kysely'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { referenceView, type OpenApiDocument } from '#app/routes/api/reference-model.ts'
import { EppBlockProvider, type LocalRegistryServer, type RegistryConnection } from '#server/integrations/registry/index.ts'
import { runBlockExpiryNotices, sweepExpiredBlocks } from '#server/platform/blocks/jobs.ts'
import { startWebhookDispatcher } from '#server/platform/webhooks/delivery.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

/**
 * Blocks (decision 302, issue 18): an order reserves its charge in the transaction that stores the
 * block and queues its placement; the local registry — a real EPP round trip with the block
 * mapping, every frame checked against the schemas — places it (settled) or refuses it (released,
 * its reason kept); past the limit nothing is written and nothing reaches the provider; renewal
 * and cancellation go to the provider too; another account's block is a 404. Each state change
 * writes its webhook event in its own transaction (delivered to an endpoint that wants it), and an
 * expiring block is mailed to the account's domain managers once per term, in their language.
 */
const US = { id: 'registrar-portal', password: 'portal-secret-1' }
let local: LocalRegistryConnection
let registry: LocalRegistryServer
let ours: RegistryConnection
let blocks: EppBlockProvider
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
let acme = ''
let globex = ''
let staffHome = ''
/** A real HTTP receiver for the account's webhook endpoint. */
let receiver: Server
const received: { headers: IncomingHttpHeaders; body: string }[] = []
let dispatcher: { close(): Promise<void> } | undefined
let hookSecret = ''

beforeAll(async () => {
  local = await localRegistryConnection({
    client: US,
    policy: { tlds: { com: { createYears: [1], renewYears: [1], transferYears: [1] }, net: { createYears: [1], renewYears: [1], transferYears: [1] } } },
    sessions: 1,
  })
  registry = local.registry
  ours = local.connection
  blocks = new EppBlockProvider({ provider: 'local', client: local.client, clientId: US.id, password: US.password, rateLimit: { perSecond: 1000, burst: 1000 } })
  const registries = { ...local.registries, blocks }
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      received.push({ headers: req.headers, body })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  platform = await createTestPlatform({ registries, webhooks: { allowPrivateAddresses: true } }, { seed: { domainsPerAccount: [1, 1] } })
  await platform.deps.jobs.start({ work: true })
  for (const email of ['staff@example.com', 'admin@acme.example', 'viewer@acme.example', 'admin@globex.example']) {
    tokens[email] = (await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })).json.access_token
  }
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globex = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  staffHome = (await platform.call('GET', '/me', { token: tokens['staff@example.com']! })).json.group_id
  dispatcher = await startWebhookDispatcher(platform.deps)
})
afterAll(async () => {
  await dispatcher?.close()
  receiver?.close()
  await platform?.close()
  await blocks?.close()
  await local?.close()
})

const admin = () => tokens['admin@acme.example']!
const DPML = 'block:dpml:order'
const order = (label: string, token = admin(), context = acme, extra: Record<string, unknown> = {}) =>
  platform.call('POST', `/groups/${context}/blocks`, { token, body: { label, product_code: DPML, period_years: 1, trademark_ref: 'TMCH-0001', ...extra } })
/** The charge made for `of` (block-order:{id}, block-renew:{id}:{day}), its key naming its terms after it. */
const charge = (of: string) => platform.db.selectFrom('transactions').selectAll().where('idempotency_key', 'like', `${of}|%`).executeTakeFirstOrThrow()
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

/**
 * The block's events of a type, and whether each was written by the transaction of the block's
 * change: its audit entry of that change bears the same now() (a transaction's start time, which no
 * other transaction shares). The event row itself is updated once fanned out, so its xmin cannot say.
 */
async function eventsOf(type: string, id: string) {
  const { rows } = await sql<{ data: Record<string, unknown>; with_change: boolean }>`
    SELECT e.data, EXISTS (SELECT 1 FROM audit_entries a WHERE a.area = 'blocks' AND a.entity_id = ${id} AND a.occurred_at = e.occurred_at) AS with_change
    FROM webhook_events e WHERE e.type = ${type} AND e.data->>'id' = ${id} ORDER BY e.occurred_at`.execute(platform.db)
  return rows
}

/** What the receiver was sent of a type for a block, each message verified with the endpoint's secret. */
async function deliveredOf(type: string, id: string) {
  for (let i = 0; i < 400; i++) {
    const found = received
      .map((m) => new Webhook(hookSecret).verify(m.body, m.headers as Record<string, string>) as { type: string; data: { id: string } })
      .filter((m) => m.type === type && m.data.id === id)
    if (found.length) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`no ${type} delivered for ${id}`)
}

let acmeBlock = ''

describe('blocks', () => {
  it('orders a block: charged (reserved) with the order, placed by the job with the provider, settled', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
    const hook = await platform.call('POST', `/groups/${acme}/webhook_endpoints`, {
      token: admin(),
      body: { url, description: 'blocks', events: ['block.placed', 'block.failed', 'block.renewed', 'block.expiring', 'block.expired', 'block.cancelled'] },
    })
    expect(hook.status).toBe(201)
    hookSecret = hook.json.secret
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
    // block.placed, written by the transaction that made it active, and delivered to the endpoint that wants it.
    expect(await eventsOf('block.placed', acmeBlock)).toEqual([
      {
        with_change: true,
        data: expect.objectContaining({
          id: acmeBlock,
          label: 'acmeshield',
          product_code: DPML,
          covered_tlds: ['com', 'net'],
          expires_at: done.expires_at,
          provider_id: done.provider_id,
          period_years: 1,
        }),
      },
    ])
    expect(await deliveredOf('block.placed', acmeBlock)).toEqual([expect.objectContaining({ data: expect.objectContaining({ label: 'acmeshield', expires_at: done.expires_at }) })])
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
    expect(await eventsOf('block.failed', res.json.id)).toEqual([
      { with_change: true, data: expect.objectContaining({ label: 'acmeshield', reason: done.failure_reason, expires_at: null, covered_tlds: [] }) },
    ])
    // Globex's event is Globex's: Acme's endpoint hears nothing of it.
    expect(await platform.db.selectFrom('webhook_events').select('account_id').where('type', '=', 'block.failed').execute()).toEqual([{ account_id: globex }])
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
    // The renewal's price as the screen shows it (the engine's quote); confirmed at another price, nothing is charged or renewed (issue 28).
    const offer = (await platform.call('GET', `/groups/${acme}/block-products`, { token: admin() })).json.data.find((o: { code: string }) => o.code === DPML)
    const price = offer.prices.find((p: { period_years: number }) => p.period_years === 1)
    const balanceBefore = await balance(acme)
    const stale = await platform.call('POST', `/groups/${acme}/blocks/${acmeBlock}/renew`, {
      token: admin(),
      body: { period_years: 1, expected: { amount_minor: price.renew_minor + 100, currency: price.currency } },
    })
    expect(stale.status).toBe(409)
    expect(stale.json).toMatchObject({ code: 'billing.quote_changed', amount_minor: price.renew_minor, currency: price.currency })
    expect(await balance(acme)).toBe(balanceBefore)
    expect((await platform.call('GET', `/groups/${acme}/blocks/${acmeBlock}`, { token: admin() })).json.expires_at).toBe(before.expires_at)
    const res = await platform.call('POST', `/groups/${acme}/blocks/${acmeBlock}/renew`, {
      token: admin(),
      body: { period_years: 1, expected: { amount_minor: price.renew_minor, currency: price.currency } },
    })
    expect(res.status).toBe(200)
    expect(balanceBefore - (await balance(acme))).toBe(price.renew_minor)
    expect(new Date(res.json.expires_at).getUTCFullYear()).toBe(new Date(before.expires_at).getUTCFullYear() + 1)
    const renew = await charge(`block-renew:${acmeBlock}:${before.expires_at.slice(0, 10)}`)
    expect(renew).toMatchObject({ state: 'settled', action: 'renew' })
    expect(atProvider().find((b) => b.label === 'acmeshield')!.exDate).toBe(res.json.expires_at)
    expect(await eventsOf('block.renewed', acmeBlock)).toEqual([{ with_change: true, data: expect.objectContaining({ expires_at: res.json.expires_at, period_years: 1 }) }])
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
    expect(await eventsOf('block.cancelled', acmeBlock)).toEqual([{ with_change: true, data: expect.objectContaining({ label: 'acmeshield', previous_status: 'active' }) }])
    expect(await deliveredOf('block.cancelled', acmeBlock)).toHaveLength(1)
    const again = await platform.call('POST', `/groups/${acme}/blocks/${acmeBlock}/cancel`, { token: admin() })
    expect(again.json).toMatchObject({ code: 'block.not-cancellable' })
  })

  it("mails an expiring block to the account's domain managers once per term, in their language; its term ended, it is expired", async () => {
    const block = await platform.db.selectFrom('blocks').selectAll().where('label', '=', 'xn--mnchen-3ya').executeTakeFirstOrThrow()
    const sent: { to: string; subject: string; text: string }[] = []
    const mailer = { send: async (m: { to: string; subject: string; text: string }) => void sent.push(m) }
    const at = (expiry: Date, days: number) => () => new Date(expiry.getTime() + days * 86_400_000)
    await platform.db.updateTable('users').set({ language: 'ja' }).where('email', '=', 'admin@acme.example').execute()
    try {
      // Not yet within 30 days: nothing.
      expect(await runBlockExpiryNotices({ ...platform.deps, mailer, now: at(block.expires_at!, -31) })).toEqual({ blocks: 0, mails: 0 })
      const soon = { ...platform.deps, mailer, now: at(block.expires_at!, -20) }
      expect(await runBlockExpiryNotices(soon)).toEqual({ blocks: 1, mails: 1 })
      // The manager only (the viewer cannot renew), in Japanese.
      expect(sent).toEqual([
        {
          to: 'admin@acme.example',
          subject: 'まもなく期限切れになるブロックが 1 件あります',
          text: expect.stringContaining(`- münchen (${DPML}): ${block.expires_at!.toISOString().slice(0, 10)} に期限切れ (あと 20 日)`),
        },
      ])
      expect((await eventsOf('block.expiring', block.id)).map((e) => e.data)).toEqual([expect.objectContaining({ label: 'xn--mnchen-3ya', days_left: 20 })])
      // Once per term: the next run, days later, mails nothing.
      expect(await runBlockExpiryNotices(soon)).toEqual({ blocks: 0, mails: 0 })
      expect(await runBlockExpiryNotices({ ...soon, now: at(block.expires_at!, -2) })).toEqual({ blocks: 0, mails: 0 })
      expect(sent).toHaveLength(1)
      // Renewed, the new term is noticed in its turn.
      const renewed = await platform.call('POST', `/groups/${acme}/blocks/${block.id}/renew`, { token: admin(), body: { period_years: 1 } })
      expect(renewed.status).toBe(200)
      const next = new Date(renewed.json.expires_at)
      // What the renewal cost is given back: the account's balance stays as the tests after this one expect.
      const cost = Number((await charge(`block-renew:${block.id}:${block.expires_at!.toISOString().slice(0, 10)}`)).amount_minor)
      const back = await platform.call('POST', `/groups/${staffHome}/billing-entities/${await entityOf(acme)}/payments`, {
        token: tokens['staff@example.com']!,
        body: { kind: 'adjustment', currency: 'USD', amount: (cost / 100).toFixed(2), reason: 'Test: the renewal given back' },
      })
      expect(back.status).toBe(201)
      expect(await runBlockExpiryNotices({ ...soon, now: at(next, -5) })).toEqual({ blocks: 1, mails: 1 })
      expect(sent[1]!.text).toContain('(あと 5 日)')
      expect(await eventsOf('block.expiring', block.id)).toHaveLength(2)
      // Its term ended unrenewed: the sweep stores it expired with its event, and there is nothing more to notice.
      expect(await sweepExpiredBlocks({ ...platform.deps, now: at(next, 1) })).toEqual({ expired: 1 })
      expect(await sweepExpiredBlocks({ ...platform.deps, now: at(next, 1) })).toEqual({ expired: 0 })
      expect((await platform.db.selectFrom('blocks').select('status').where('id', '=', block.id).executeTakeFirstOrThrow()).status).toBe('expired')
      expect(await eventsOf('block.expired', block.id)).toEqual([{ with_change: true, data: expect.objectContaining({ label: 'xn--mnchen-3ya', expires_at: next.toISOString() }) }])
      expect(await deliveredOf('block.expired', block.id)).toHaveLength(1)
      expect(await runBlockExpiryNotices({ ...soon, now: at(next, 1) })).toEqual({ blocks: 0, mails: 0 })
    } finally {
      await platform.db.updateTable('users').set({ language: 'en' }).where('email', '=', 'admin@acme.example').execute()
    }
  })

  it("the block events are in the API document's webhooks section with their data, and in the reference", async () => {
    const doc = (await platform.call('GET', '/openapi.json')).json as OpenApiDocument & { components: { schemas: Record<string, { properties: Record<string, unknown> }> } }
    const events = ['block.placed', 'block.failed', 'block.renewed', 'block.expiring', 'block.expired', 'block.cancelled']
    expect(Object.keys(doc.webhooks ?? {})).toEqual(expect.arrayContaining(events))
    const envelope = doc.components.schemas.WebhookEvent_block_failed!.properties as { data: { properties: Record<string, unknown> } }
    expect(Object.keys(envelope)).toEqual(['type', 'timestamp', 'data'])
    expect(Object.keys(envelope.data.properties)).toEqual(expect.arrayContaining(['id', 'label', 'product_code', 'covered_tlds', 'expires_at', 'reason']))
    expect(referenceView(doc, 'block').webhooks.map((hook) => hook.event)).toEqual(expect.arrayContaining(events))
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

  it('takes twenty orders in a row: the label check holds once the database plans the insert generically (after its fifth run)', async () => {
    const entity = await entityOf(acme)
    expect((await platform.call('PUT', `/groups/${staffHome}/billing-entities/${entity}/balances/USD`, { token: tokens['staff@example.com']!, body: { credit_limit: '100000' } })).status).toBe(200)
    const statuses: number[] = []
    for (let i = 1; i <= 20; i++) statuses.push((await order(`rowshield${i}`)).status)
    expect(statuses).toEqual(Array(20).fill(201))
    // The partial unique index still refuses a second live block of a label after that many runs.
    expect((await order('rowshield1')).json).toMatchObject({ code: 'block.already-blocked' })
    const rows = await platform.db.selectFrom('blocks').select('id').where('label', 'like', 'rowshield%').execute()
    expect(rows).toHaveLength(20)
    for (const row of rows) expect((await settled(row.id)).status).toBe('active')
  })
})
