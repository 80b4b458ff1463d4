import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createJobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import type { RegistryConnection } from '#server/integrations/registry/index.ts'
import { reconcileDomains } from '#server/platform/domains/jobs.ts'
import { pollRegistries } from '#server/platform/domains/poll.ts'
import { registerOrderJobs } from '#server/platform/orders/jobs.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// The real local registry over TLS (frames validated against the RFC schemas) serves com, net
// and jp; "other" is a second registrar at the same registry, used to hold names we transfer in
// and to cause and fix registry-side failures.

const US = { id: 'registrar-portal', password: 'portal-secret-1' }
const OTHER = { id: 'registrar-other', password: 'other-secret-1' }
const TEN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
const YEARS = { createYears: TEN, renewYears: TEN, transferYears: [1] }

let local: LocalRegistryConnection
let ours: RegistryConnection
let other: RegistryConnection
let platform: Awaited<ReturnType<typeof createTestPlatform>>
let admin: string
let viewer: string
let globex: string
let acmeId: string
let globexId: string
// Contacts of the demo seed: Olivia Carter and Jonas Becker in Acme, Olivia Carter in Globex.
let olivia: string
let jonas: string
let globexContact: string

beforeAll(async () => {
  local = await localRegistryConnection({
    client: US,
    others: [OTHER],
    // No add grace (so names can be transferred at once) and transfers approved by the registry at the next command.
    policy: { tlds: { com: YEARS, net: YEARS, jp: YEARS }, addGraceDays: 0, transferAutoApproveSeconds: 0 },
    sessions: 1,
  })
  ours = local.connection
  other = local.connect(OTHER)
  platform = await createTestPlatform({ registries: local.registries }, { seed: { domainsPerAccount: [3, 2] } })
  await platform.deps.jobs.start({ work: true })
  admin = await login('admin@acme.example')
  viewer = await login('viewer@acme.example')
  globex = await login('admin@globex.example')
  acmeId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globexId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  const contactIn = async (accountId: string, name: string) =>
    (await platform.db.selectFrom('contacts').select('id').where('account_id', '=', accountId).where('name', '=', name).executeTakeFirstOrThrow()).id
  olivia = await contactIn(acmeId, 'Olivia Carter')
  jonas = await contactIn(acmeId, 'Jonas Becker')
  globexContact = await contactIn(globexId, 'Olivia Carter')
})

afterAll(async () => {
  await platform?.close()
  await local?.close()
})

async function login(username: string) {
  const res = await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })
  expect(res.status).toBe(200)
  return res.json.access_token as string
}

const acme = (path: string) => `/groups/${acmeId}${path}`

/** Waits until the order's items have all left pending/processing (the jobs run for real). */
async function settled(orderId: string, token = admin, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const res = await platform.call('GET', acme(`/orders/${orderId}`), { token })
    expect(res.status).toBe(200)
    // The order's own state follows its last item a moment later (the item's job settles it).
    const running = (state: string) => ['pending', 'processing'].includes(state)
    if (!running(res.json.state) && res.json.items.every((i: { state: string }) => !running(i.state))) return res.json
    if (Date.now() > deadline) throw new Error(`order ${orderId} still running: ${JSON.stringify(res.json.items.map((i: { state: string; log: unknown }) => [i.state, i.log]))}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const domainCount = async () =>
  (
    await platform.db
      .selectFrom('domains')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n

describe('cart', () => {
  it("adds names across TLDs and periods, prices them in the account's currency and totals per currency", async () => {
    // Acme is billed in USD, on the Retail price list (server/seed/pricing.ts); .com and .net cost us EUR, .jp JPY
    // (demo seed rates: 1 EUR = 1.08 USD, 1 JPY = 0.0067 USD). Prices are the pricing engine's quotes (decision 300).
    const a = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'cart-one.com', period: 2 } })
    expect(a.status).toBe(201)
    // Retail's fixed 12.99 EUR × 1.08 = 14.03 USD, rounded up to 14.99 (charm-pricing); two years 29.98.
    expect(a.json).toMatchObject({ name: 'cart-one.com', type: 'register', period: 2, price_minor: 2998, currency: 'USD', has_auth_code: false })
    const b = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'cart-two.net' } })
    // Cost 10.49 EUR = 11.33 USD, 40 % margin 15.86, rounded up to 15.99.
    expect(b.json).toMatchObject({ period: 1, price_minor: 1599, currency: 'USD' })
    // Cost 2730 JPY × 0.0067 = 18.29 USD (a currency without decimals into one with two), 40 % margin 25.61, 25.99.
    const c = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'cart-three.jp' } })
    expect(c.json).toMatchObject({ price_minor: 2599, currency: 'USD' })
    // The cart item keeps the quote it was priced at: the chain of rules and the rate.
    const quote = (await platform.db.selectFrom('cart_items').select('quote').where('id', '=', c.json.id).executeTakeFirstOrThrow()).quote
    expect(quote).toMatchObject({ currency: 'USD', unit_minor: 2599, rates: [{ from: 'JPY', to: 'USD', rate: 0.0067 }] })
    expect(quote!.chain.map((s) => s.rule_name)).toEqual(['standard-margin', 'margin-floor', 'charm-pricing'])

    const cart = await platform.call('GET', acme('/cart'), { token: admin })
    expect(cart.json.items.map((i: { name: string }) => i.name)).toEqual(['cart-one.com', 'cart-two.net', 'cart-three.jp'])
    expect(cart.json.totals).toEqual([{ currency: 'USD', minor: 2998 + 1599 + 2599 }])

    // Re-priced for 5 years: 5 × 14.99.
    const changed = await platform.call('PATCH', acme(`/cart/items/${a.json.id}`), { token: admin, body: { period: 5 } })
    expect(changed.json).toMatchObject({ period: 5, price_minor: 7495, currency: 'USD' })

    // Someone else's cart is their own: the viewer sees an empty one and cannot add.
    expect((await platform.call('GET', acme('/cart'), { token: viewer })).json.items).toEqual([])
    expect((await platform.call('POST', acme('/cart/items'), { token: viewer, body: { name: 'viewer-try.com' } })).status).toBe(403)

    for (const id of [a.json.id, b.json.id, c.json.id]) expect((await platform.call('DELETE', acme(`/cart/items/${id}`), { token: admin })).status).toBe(204)
    expect((await platform.call('GET', acme('/cart'), { token: admin })).json).toEqual({ items: [], totals: [] })
  })

  it("an account in the currency of the cost pays its list's price unconverted; without a rate the name is refused until staff set one", async () => {
    const globexCart = (path: string) => `/groups/${globexId}${path}`
    // Globex is on the Corporate list: 25 % over the 9.09 EUR cost, 11.36, rounded up to 11.99.
    const com = await platform.call('POST', globexCart('/cart/items'), { token: globex, body: { name: 'cart-euro.com' } })
    expect(com.json).toMatchObject({ price_minor: 1199, currency: 'EUR' })
    await platform.db.deleteFrom('currency_rates').where('from_currency', '=', 'JPY').where('to_currency', '=', 'EUR').execute()
    const refused = await platform.call('POST', globexCart('/cart/items'), { token: globex, body: { name: 'cart-euro.jp' } })
    expect(refused.status).toBe(409)
    expect(refused.json).toMatchObject({ reason: 'no-exchange-rate', from_currency: 'JPY', to_currency: 'EUR' })
    expect(refused.json.errors).toEqual([{ field: 'name', message: expect.stringContaining('no JPY to EUR exchange rate') }])

    // Only staff set rates.
    expect((await platform.call('PUT', '/currency_rates/JPY/EUR', { token: globex, body: { rate: 0.0062 } })).status).toBe(403)
    const staff = await login('staff@example.com')
    expect((await platform.call('PUT', '/currency_rates/JPY/JPY', { token: staff, body: { rate: 1 } })).status).toBe(400)
    const set = await platform.call('PUT', '/currency_rates/JPY/EUR', { token: staff, body: { rate: 0.0062 } })
    expect(set.json).toMatchObject({ from_currency: 'JPY', to_currency: 'EUR', rate: 0.0062 })
    expect((await platform.call('GET', '/currency_rates', { token: staff })).json.data).toContainEqual(expect.objectContaining({ from_currency: 'JPY', to_currency: 'EUR', rate: 0.0062 }))
    const jp = await platform.call('POST', globexCart('/cart/items'), { token: globex, body: { name: 'cart-euro.jp' } })
    // 2730 JPY × 0.0062 = 16.93 EUR, 25 % over it 21.16, 21.99.
    expect(jp.json).toMatchObject({ price_minor: 2199, currency: 'EUR' })
    for (const id of [com.json.id, jp.json.id]) expect((await platform.call('DELETE', globexCart(`/cart/items/${id}`), { token: globex })).status).toBe(204)
  })

  it('refuses a period the TLD does not allow, a transfer without auth code, bad names and taken names', async () => {
    // .jp is sold for one year only (the registry itself would accept more): refused at cart time.
    const period = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'two-years.jp', period: 2 } })
    expect(period.status).toBe(400)
    expect(period.json.reason).toBe('period-not-allowed')
    expect(period.json.errors[0]).toMatchObject({ field: 'period', allowed: ['1'] })
    const item = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'one-year.jp' } })
    const patched = await platform.call('PATCH', acme(`/cart/items/${item.json.id}`), { token: admin, body: { period: 2 } })
    expect(patched.status).toBe(400)
    expect(patched.json.reason).toBe('period-not-allowed')
    expect((await platform.call('DELETE', acme(`/cart/items/${item.json.id}`), { token: admin })).status).toBe(204)

    const noCode = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'some-name.com', type: 'transfer' } })
    expect(noCode.status).toBe(400)
    expect(noCode.json.reason).toBe('auth-code-required')
    expect(noCode.json.errors[0].field).toBe('auth_code')

    for (const name of ['ab--cd.com', '-lead.com', 'nothing.notatld', 'xn--zz.com']) {
      const bad = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name } })
      expect(bad.status, name).toBe(400)
      expect(bad.json.reason, name).toBe('invalid-name')
    }

    await other.createDomain({ name: 'taken-already.com', authInfo: 'other-pw-1#a' })
    const taken = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'taken-already.com' } })
    expect(taken.status).toBe(409)
    expect(taken.json.reason).toBe('unavailable')

    const notServed = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'no-registry.org' } })
    expect(notServed.status).toBe(422)
    expect(notServed.json.reason).toBe('no-registry')

    expect((await platform.call('GET', acme('/cart'), { token: admin })).json.items).toEqual([])
  })
})

describe('orders', () => {
  it('registers and transfers in through the cart: items complete and the domains are recorded', async () => {
    await other.createDomain({ name: 'moving-in.net', years: 1, authInfo: 'move-me-1#a' })
    expect((await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'fresh-order.com', period: 2 } })).status).toBe(201)
    expect((await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'moving-in.net', type: 'transfer', auth_code: 'move-me-1#a' } })).status).toBe(201)

    const order = await platform.call('POST', acme('/cart/checkout'), { token: admin, body: { contacts: { registrant: olivia } } })
    expect(order.status).toBe(201)
    expect(order.json.items).toHaveLength(2)
    // The engine's quotes: .com registration (2 × 14.99) and a .net transfer (its own product, 15.99).
    expect(order.json.totals).toEqual([{ currency: 'USD', minor: 2998 + 1599 }])
    // Each item keeps the quote it was placed at (what invoicing charges).
    const quotes = await platform.db.selectFrom('order_items').select(['type', 'quote']).where('order_id', '=', order.json.id).orderBy('position').execute()
    expect(quotes.map((q) => [q.type, q.quote?.product_code, q.quote?.total_minor])).toEqual([
      ['register', 'domain:com:register', 2998],
      ['transfer', 'domain:net:transfer', 1599],
    ])
    expect(JSON.stringify(order.json)).not.toContain('move-me-1')
    expect((await platform.call('GET', acme('/cart'), { token: admin })).json.items).toEqual([])

    const done = await settled(order.json.id)
    expect(done.state).toBe('completed')
    expect(done.items.map((i: { state: string }) => i.state)).toEqual(['completed', 'completed'])
    const transfer = done.items[1]
    expect(transfer.log.map((e: { state: string }) => e.state)).toEqual(['pending', 'processing', 'processing', 'completed'])

    const recorded = await platform.db.selectFrom('domains').select(['name', 'account_id', 'status', 'expires_at']).where('name', 'in', ['fresh-order.com', 'moving-in.net']).orderBy('name').execute()
    expect(recorded.map((d) => [d.name, d.account_id, d.status])).toEqual([
      ['fresh-order.com', acmeId, 'active'],
      ['moving-in.net', acmeId, 'active'],
    ])
    expect(recorded[0]!.expires_at!.getUTCFullYear()).toBe(new Date().getUTCFullYear() + 2)
    const atRegistry = await ours.infoDomain('moving-in.net')
    expect(atRegistry.clientId).toBe(US.id)

    const audit = await platform.db.selectFrom('audit_entries').select(['action', 'entity_type']).where('account_id', '=', acmeId).where('area', '=', 'domains').execute()
    expect(audit.map((a) => `${a.entity_type}:${a.action}`)).toEqual(expect.arrayContaining(['order:create', 'domain:register', 'domain:transfer-in']))
    // The webhook events were written with each item's completion (issue 20's outbox).
    const events = await platform.db.selectFrom('webhook_events').select(['type', 'data']).where('account_id', '=', acmeId).execute()
    const named = (type: string) => events.filter((e) => e.type === type).map((e) => e.data.name)
    expect(named('order.completed')).toEqual(expect.arrayContaining(['fresh-order.com', 'moving-in.net']))
    expect(named('domain.registered')).toContain('fresh-order.com')
    expect(named('domain.transferred_in')).toContain('moving-in.net')
  })

  it('shows what checkout will charge after a pricing rule changes, flags the changed price, and checkout charges what the cart showed', async () => {
    const staff = await login('staff@example.com')
    const added = await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'rule-changed.net' } })
    expect(added.status).toBe(201)
    expect(added.json).toMatchObject({ price_minor: 1599, added_price_minor: 1599, price_changed: false })
    // Staff raise Retail's margin on .net registrations after the name went into the cart.
    const retail = (await platform.db.selectFrom('pricing_entities').select('id').where('name', '=', 'Retail').executeTakeFirstOrThrow()).id
    const rule = await platform.call('POST', '/pricing-rules/entity', {
      token: staff,
      body: { rule_name: 'net-cart-margin', pricing_entity_id: retail, selector: { tlds: ['net'], actions: ['register'] }, kind: 'margin', percent: 80 },
    })
    expect(rule.status).toBe(201)
    try {
      const cart = await platform.call('GET', acme('/cart'), { token: admin })
      const [item] = cart.json.items
      // Cost 10.49 EUR = 11.33 USD, 80 % margin 20.39, rounded up to 20.99: the price now, beside the price when added.
      expect(item).toMatchObject({ name: 'rule-changed.net', price_minor: 2099, currency: 'USD', added_price_minor: 1599, added_currency: 'USD', price_changed: true })
      expect(cart.json.totals).toEqual([{ currency: 'USD', minor: 2099 }])
      // A page that showed the old total is refused (409 price-changed) and nothing is ordered: the cart stays.
      const orders = await platform.db.selectFrom('orders').select('id').where('account_id', '=', acmeId).execute()
      const stale = await platform.call('POST', acme('/cart/checkout'), { token: admin, body: { contacts: { registrant: olivia }, expected_totals: [{ currency: 'USD', minor: 1599 }] } })
      expect(stale.status).toBe(409)
      expect(stale.json).toMatchObject({ reason: 'price-changed', totals: [{ currency: 'USD', minor: 2099 }] })
      expect(await platform.db.selectFrom('orders').select('id').where('account_id', '=', acmeId).execute()).toHaveLength(orders.length)
      expect((await platform.call('GET', acme('/cart'), { token: admin })).json.items).toHaveLength(1)
      const order = await platform.call('POST', acme('/cart/checkout'), { token: admin, body: { contacts: { registrant: olivia }, expected_totals: cart.json.totals } })
      expect(order.status).toBe(201)
      expect(order.json.totals).toEqual(cart.json.totals)
      expect(order.json.items.map((i: { price_minor: number }) => i.price_minor)).toEqual([2099])
      const charged = await platform.db.selectFrom('transactions').select(['amount_minor', 'currency']).where('order_id', '=', order.json.id).execute()
      expect(charged.map((t) => [Number(t.amount_minor), t.currency.trim()])).toEqual([[2099, 'USD']])
      await settled(order.json.id)
    } finally {
      expect((await platform.call('DELETE', `/pricing-rules/${rule.json.rule.id}`, { token: staff })).status).toBe(204)
    }
  })

  it('a transfer with a wrong auth code fails with the registry message; retry succeeds once the code is right', async () => {
    await other.createDomain({ name: 'guarded.com', authInfo: 'right-code-1#a' })
    const noCode = await platform.call('POST', acme('/orders'), { token: admin, body: { items: [{ type: 'transfer', name: 'guarded.com', period: 1 }] } })
    expect(noCode.status).toBe(400)
    expect(noCode.json.errors[0].field).toBe('items.0.auth_code')

    const order = await platform.call('POST', acme('/orders'), { token: admin, body: { items: [{ type: 'transfer', name: 'guarded.com', period: 1, auth_code: 'given-code-1#a' }] } })
    expect(order.status).toBe(201)
    const done = await settled(order.json.id)
    const item = done.items[0]
    expect(item).toMatchObject({ state: 'failed', last_error: 'Invalid authorization information', registry_code: 2202, retryable: true })
    expect(done.state).toBe('failed')
    expect((await other.infoDomain('guarded.com')).clientId).toBe(OTHER.id)

    // A viewer may read but not retry.
    expect((await platform.call('POST', acme(`/orders/${order.json.id}/items/${item.id}/retry`), { token: viewer })).status).toBe(403)

    // The cause is fixed at the registry (the holder sets the code we were given); the retry completes.
    await other.updateDomain({ name: 'guarded.com', authInfo: 'given-code-1#a' })
    expect((await platform.call('POST', acme(`/orders/${order.json.id}/items/${item.id}/retry`), { token: admin })).status).toBe(200)
    const again = await settled(order.json.id)
    expect(again.items[0]).toMatchObject({ state: 'completed', last_error: null, attempts: 2 })
    expect(again.state).toBe('completed')
    expect(again.items[0].log.map((e: { message: string }) => e.message)).toContain('Retry requested')
    expect((await ours.infoDomain('guarded.com')).clientId).toBe(US.id)
    expect((await platform.call('POST', acme(`/orders/${order.json.id}/items/${item.id}/retry`), { token: admin })).status).toBe(409)
  })

  it('a registry failure fails the item with its message and changes nothing else', async () => {
    expect((await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'race-lost.com' } })).status).toBe(201)
    expect((await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'race-won.com' } })).status).toBe(201)
    // Between the cart's availability check and the order, another registrar takes the name.
    await other.createDomain({ name: 'race-lost.com', authInfo: 'other-pw-2#a' })
    const domainsBefore = await domainCount()

    const order = await platform.call('POST', acme('/cart/checkout'), { token: admin, body: { contacts: { registrant: olivia } } })
    const done = await settled(order.json.id)
    const [lost, won] = done.items
    expect(lost).toMatchObject({ name: 'race-lost.com', state: 'failed', last_error: 'Object exists', registry_code: 2302 })
    expect(lost.log.at(-1)).toMatchObject({ state: 'failed', message: 'Object exists', registry_code: 2302 })
    expect(won.state).toBe('completed')
    expect(done.state).toBe('partial')
    expect(await domainCount()).toBe(domainsBefore + 1)
    expect(await platform.db.selectFrom('domains').select('id').where('name', '=', 'race-lost.com').executeTakeFirst()).toBeUndefined()

    const audit = await platform.db.selectFrom('audit_entries').select('action').where('entity_id', '=', lost.id).execute()
    expect(audit.map((a) => a.action)).toEqual(['fail'])
    const failed = await platform.db.selectFrom('webhook_events').select('data').where('type', '=', 'order.failed').execute()
    expect(failed.map((e) => e.data.item_id)).toContain(lost.id)
  })

  it('registers with the contacts chosen at checkout: each is created at the registry once, and the domain has its four', async () => {
    const amelia = (await platform.db.selectFrom('contacts').select('id').where('account_id', '=', acmeId).where('name', '=', 'Amelia Hughes').executeTakeFirstOrThrow()).id
    const handlesBefore = await platform.db.selectFrom('registry_handles').select(['contact_id', 'handle']).where('registry', '=', 'local').execute()
    expect(handlesBefore.filter((h) => h.contact_id === amelia || h.contact_id === jonas)).toEqual([])
    for (const name of ['with-contacts.com', 'with-contacts.net']) expect((await platform.call('POST', acme('/cart/items'), { token: admin, body: { name } })).status).toBe(201)
    const order = await platform.call('POST', acme('/cart/checkout'), { token: admin, body: { contacts: { registrant: amelia, tech: jonas } } })
    expect(order.status).toBe(201)
    expect(order.json.contacts).toEqual({ registrant: amelia, admin: amelia, tech: jonas, billing: amelia })
    const done = await settled(order.json.id)
    expect(done.items.map((i: { state: string }) => i.state)).toEqual(['completed', 'completed'])

    // Both items used the same two new handles: one contact:create each at the registry.
    const handles = await platform.db.selectFrom('registry_handles').select(['contact_id', 'handle', 'sync_state']).where('registry', '=', 'local').where('contact_id', 'in', [amelia, jonas]).execute()
    expect(handles).toHaveLength(2)
    expect(handles.every((h) => h.sync_state === 'synced' && /^RP[0-9A-Z]{10}$/.test(h.handle))).toBe(true)
    const handleOf = (id: string) => handles.find((h) => h.contact_id === id)!.handle
    for (const name of ['with-contacts.com', 'with-contacts.net']) {
      const info = await ours.infoDomain(name)
      expect(info.registrant).toBe(handleOf(amelia))
      expect(info.contacts.map((c) => `${c.type}:${c.id}`).sort()).toEqual([`admin:${handleOf(amelia)}`, `billing:${handleOf(amelia)}`, `tech:${handleOf(jonas)}`])
    }
    const atRegistry = await ours.infoContact(handleOf(jonas))
    expect(atRegistry).toMatchObject({ email: 'jonas.becker@acme-corp.example', voice: '+49.301234567', fax: '+49.301234568' })
    expect(atRegistry.postalInfo.find((p) => p.type === 'loc')).toMatchObject({ name: 'Jonas Becker', city: 'Berlin', cc: 'DE', street: ['Friedrichstraße 68'] })

    // Recorded as the registry holds it: the reconciliation finds nothing to report.
    const domain = await platform.db
      .selectFrom('domains')
      .select(['id', 'registry', 'registry_roid', 'registry_statuses', 'registered_at'])
      .where('name', '=', 'with-contacts.com')
      .executeTakeFirstOrThrow()
    const held = await ours.infoDomain('with-contacts.com')
    expect(domain).toMatchObject({ registry: 'local', registry_roid: held.roid, registry_statuses: [...held.statuses].sort() })
    expect(domain.registered_at?.toISOString()).toBe(held.createdAt?.toISOString())
    await reconcileDomains(platform.deps, { domainIds: [domain.id] })
    expect(await platform.db.selectFrom('domain_differences').select('field').where('domain_id', '=', domain.id).execute()).toEqual([])
    const roles = await platform.db.selectFrom('domain_contacts').select(['role', 'contact_id']).where('domain_id', '=', domain.id).orderBy('role').execute()
    expect(roles).toEqual([
      { role: 'admin', contact_id: amelia },
      { role: 'billing', contact_id: amelia },
      { role: 'registrant', contact_id: amelia },
      { role: 'tech', contact_id: jonas },
    ])
    const audit = await platform.db
      .selectFrom('audit_entries')
      .select(['entity_id', 'action'])
      .where('entity_type', '=', 'contact')
      .where('action', '=', 'registry-handle')
      .where('entity_id', 'in', [amelia, jonas])
      .where(sql<string>`changes->'after'->>'registry'`, '=', 'local')
      .execute()
    expect(audit).toHaveLength(2)
  })

  it('a contact change to a contact new to the registry creates it there before the domain update', async () => {
    const lucia = (await platform.db.selectFrom('contacts').select('id').where('account_id', '=', acmeId).where('name', '=', 'Lucía Fernández').executeTakeFirstOrThrow()).id
    const domain = await platform.call('GET', acme(`/domains?pql=${encodeURIComponent("name equals 'with-contacts.net'")}&fields=id`), { token: admin })
    const id = domain.json.data[0].id
    const detail = await platform.call('GET', acme(`/domains/${id}`), { token: admin })
    const changed = await platform.call('PATCH', acme(`/domains/${id}`), { token: admin, body: { version: detail.json.version, contacts: { admin: lucia } } })
    expect(changed.status).toBe(200)
    const handle = (await platform.db.selectFrom('registry_handles').select('handle').where('contact_id', '=', lucia).where('registry', '=', 'local').executeTakeFirstOrThrow()).handle
    const info = await ours.infoDomain('with-contacts.net')
    expect(info.contacts.find((c) => c.type === 'admin')?.id).toBe(handle)
    // The int form is ASCII: the accent is folded.
    expect((await ours.infoContact(handle)).postalInfo.find((p) => p.type === 'int')).toMatchObject({ name: 'Lucia Fernandez', city: 'Madrid' })
  })

  it("refuses a registration without registrant or with another account's contact: nothing is ordered, the cart stays", async () => {
    expect((await platform.call('POST', acme('/cart/items'), { token: admin, body: { name: 'needs-a-registrant.com' } })).status).toBe(201)
    const ordersBefore = (
      await platform.db
        .selectFrom('orders')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n
    const none = await platform.call('POST', acme('/cart/checkout'), { token: admin })
    expect(none.status).toBe(400)
    expect(none.json).toMatchObject({ reason: 'registrant-required', errors: [{ field: 'contacts.registrant', message: 'A registration needs a registrant contact' }] })
    const foreign = await platform.call('POST', acme('/cart/checkout'), { token: admin, body: { contacts: { registrant: olivia, billing: globexContact } } })
    expect(foreign.status).toBe(400)
    expect(foreign.json).toMatchObject({ reason: 'unknown-contact', errors: [{ field: 'contacts.billing', message: 'Unknown contact' }] })
    const malformed = await platform.call('POST', acme('/cart/checkout'), { token: admin, body: { contacts: { registrant: 'olivia' } } })
    expect(malformed.status).toBe(400)
    expect(
      (
        await platform.db
          .selectFrom('orders')
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ).toBe(ordersBefore)
    expect((await platform.call('GET', acme('/cart'), { token: admin })).json.items.map((i: { name: string }) => i.name)).toEqual(['needs-a-registrant.com'])
    // Transfers and renewals need none.
    await platform.call('DELETE', acme(`/cart/items/${(await platform.call('GET', acme('/cart'), { token: admin })).json.items[0].id}`), { token: admin })
  })

  it('lists orders through the list engine, reads for viewers, and hides other accounts', async () => {
    const list = await platform.call('GET', acme('/orders?sort=-created_at&limit=2'), { token: viewer })
    expect(list.status).toBe(200)
    expect(list.json.meta).toMatchObject({ page: 1, limit: 2 })
    expect(list.json.meta.total).toBeGreaterThanOrEqual(3)
    expect(list.json.data[0]).toHaveProperty('state')

    const filtered = await platform.call('GET', acme(`/orders?pql=${encodeURIComponent("names contains 'race-won' and state equals 'partial'")}`), { token: admin })
    expect(filtered.json.data).toHaveLength(1)
    const bad = await platform.call('GET', acme('/orders?filter[state]=exploded'), { token: admin })
    expect(bad.status).toBe(400)

    const someOrder = filtered.json.data[0].id
    expect((await platform.call('GET', `/groups/${acmeId}/orders/${someOrder}`, { token: globex })).status).toBe(404)
    expect((await platform.call('GET', `/groups/${globexId}/orders/${someOrder}`, { token: globex })).status).toBe(404)
    expect((await platform.call('GET', `/groups/${globexId}/orders`, { token: globex })).json.data).toEqual([])
    expect((await platform.call('POST', `/groups/${acmeId}/orders`, { token: globex, body: { items: [{ type: 'register', name: 'x-globex.com', period: 1 }] } })).status).toBe(404)

    // Staff in their own group read every account's orders, each naming its account; in an account's context, that account's.
    const staff = await login('staff@example.com')
    const staffHome = (await platform.call('GET', '/me', { token: staff })).json.group_id as string
    const all = await platform.call('GET', `/groups/${staffHome}/orders?limit=100`, { token: staff })
    expect(all.json.data.find((o: { id: string }) => o.id === someOrder)).toMatchObject({ group_id: acmeId, account: { name: 'Acme Corp' } })
    expect((await platform.call('GET', `/groups/${acmeId}/orders`, { token: staff })).json.meta.total).toBe(list.json.meta.total)
  })
})

describe('jobs', () => {
  it('a pending item survives a restart of the job engine, and pending items can be cancelled', async () => {
    // Stop working: the order is accepted and its items wait in the job tables.
    await platform.deps.jobs.stop()
    const idle = createJobs(platform.database, createLogger('silent'))
    registerOrderJobs({ ...platform.deps, jobs: idle })
    await idle.start({ work: false })
    const deps = { ...platform.deps, jobs: idle }
    const { createOrder, cancelOrder } = await import('#server/platform/orders/service.ts')
    const user = await platform.db.selectFrom('users').select(['id']).where('email', '=', 'admin@acme.example').executeTakeFirstOrThrow()
    const scope = { actor: { userId: user.id, label: 'admin@acme.example', homeAccountId: acmeId, roles: ['domain-admin'], abilities: [] }, accountId: acmeId, requestId: null }
    const order = await createOrder(
      deps,
      scope,
      [
        { type: 'register', name: 'after-restart.com', period: 1 },
        { type: 'register', name: 'never-mind.com', period: 1 },
      ],
      { registrant: olivia },
    )
    expect(order.items.map((i) => i.state)).toEqual(['pending', 'pending'])
    const cancelled = await cancelOrder(platform.db, scope, order.id, [order.items[1]!.id])
    expect(cancelled.items.map((i) => i.state)).toEqual(['pending', 'cancelled'])
    await idle.stop()

    // A new engine over the same database picks the job up.
    const restarted = createJobs(platform.database, createLogger('silent'))
    registerOrderJobs({ ...platform.deps, jobs: restarted })
    await restarted.start({ work: true })
    try {
      const done = await settled(order.id)
      expect(done.items.map((i: { state: string }) => i.state)).toEqual(['completed', 'cancelled'])
      expect(done.state).toBe('completed')
      expect((await ours.checkDomains(['never-mind.com']))[0]!.available).toBe(true)
      expect((await platform.call('POST', acme(`/orders/${order.id}/cancel`), { token: admin, body: {} })).status).toBe(409)
    } finally {
      await restarted.stop()
    }
  }, 60_000)

  it('a registry message that our transfer was approved completes its order item at once, not at the next check', async () => {
    // Nothing works the job queue here: only the registry's message can move the item on.
    const idle = createJobs(platform.database, createLogger('silent'))
    registerOrderJobs({ ...platform.deps, jobs: idle })
    await idle.start({ work: false })
    const deps = { ...platform.deps, jobs: idle }
    const { createOrder } = await import('#server/platform/orders/service.ts')
    const { runItem } = await import('#server/platform/orders/jobs.ts')
    const user = await platform.db.selectFrom('users').select(['id']).where('email', '=', 'admin@acme.example').executeTakeFirstOrThrow()
    const scope = { actor: { userId: user.id, label: 'admin@acme.example', homeAccountId: acmeId, roles: ['domain-admin'], abilities: [] }, accountId: acmeId, requestId: null }
    try {
      await other.createDomain({ name: 'by-message.net', years: 1, authInfo: 'move-me-2#a' })
      const order = await createOrder(deps, scope, [{ type: 'transfer', name: 'by-message.net', period: 1, auth_code: 'move-me-2#a' }])
      const itemId = order.items[0]!.id
      await runItem(deps, itemId)
      const stateOf = async () => (await platform.db.selectFrom('order_items').select('state').where('id', '=', itemId).executeTakeFirstOrThrow()).state
      expect(await stateOf()).toBe('processing')

      const outcomes = await pollRegistries(deps)
      expect(outcomes).toEqual(expect.arrayContaining([expect.objectContaining({ domain: 'by-message.net', outcome: 'order-checked' })]))
      expect(await stateOf()).toBe('completed')
      const recorded = await platform.db.selectFrom('domains').select(['account_id', 'status', 'registry']).where('name', '=', 'by-message.net').executeTakeFirstOrThrow()
      expect(recorded).toEqual({ account_id: acmeId, status: 'active', registry: 'local' })
    } finally {
      await idle.stop()
    }
  }, 60_000)
})
