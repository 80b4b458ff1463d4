import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fontkit from '@pdf-lib/fontkit'
import { XMLParser } from 'fast-xml-parser'
import { sql } from 'kysely'
import { PDFDict, PDFDocument, PDFName, type PDFRawStream, decodePDFRawStream } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import type { LocalRegistryServer, RegistryConnection } from '#server/integrations/registry/index.ts'
import { loadConfig } from '#server/config.ts'
import { invoicePdf, invoiceUbl } from '#server/platform/billing/documents.ts'
import { DEMO_SELLER, sellerOf } from '#server/platform/billing/seller.ts'
import { runInvoices } from '#server/platform/billing/invoices.ts'
import { runLowBalanceWarnings } from '#server/platform/billing/jobs.ts'
import { registerOrderJobs } from '#server/platform/orders/jobs.ts'
import { accountPricing } from '#server/platform/pricing/service.ts'
import { DEMO_PASSWORD, seedDemoRenewalCharges } from '#server/seed/demo.ts'
import { preloadDemoRegistry } from '#server/seed/registry.ts'
import { en16931Failures } from '#tests/support/en16931.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

/**
 * Billing (issue 18): billing entities and their money, and one transaction per order item in the
 * order's own database transaction — reserved, settled by the registry's answer, released when it
 * fails or is cancelled, never charged twice; an order past the limit refused before any job runs.
 */
type FontkitFont = {
  unitsPerEm: number
  glyphForCodePoint(codePoint: number): { id: number; path: { commands: unknown[] } }
  layout(text: string): { glyphs: { advanceWidth: number }[] }
}
const US = { id: 'registrar-portal', password: 'portal-secret-1' }
let local: LocalRegistryConnection
let registry: LocalRegistryServer
let ours: RegistryConnection
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
let acmeId = ''
let globexId = ''
let staffHome = ''
let olivia = ''

beforeAll(async () => {
  local = await localRegistryConnection({ client: US, policy: { tlds: { com: { createYears: [1, 2], renewYears: [1, 2], transferYears: [1] } }, addGraceDays: 0 }, sessions: 1 })
  registry = local.registry
  ours = local.connection
  const registries = local.registries
  platform = await createTestPlatform({ registries }, { seed: { domainsPerAccount: [3, 2] } })
  // As the server seeds: the registry holds the demo's domains, and the demo's charges are real renewals there.
  await preloadDemoRegistry(platform.db, { ...registries, local: registry, clientId: US.id }, createLogger('silent'))
  expect(await seedDemoRenewalCharges(platform.deps)).toEqual({ renewed: 2, refused: 1 })
  await platform.deps.jobs.start({ work: true })
  for (const email of ['staff@example.com', 'admin@acme.example', 'viewer@acme.example', 'admin@globex.example']) {
    tokens[email] = (await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })).json.access_token
  }
  acmeId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globexId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  staffHome = (await platform.call('GET', '/me', { token: tokens['staff@example.com']! })).json.group_id
  olivia = (await platform.db.selectFrom('contacts').select('id').where('account_id', '=', acmeId).where('name', '=', 'Olivia Carter').executeTakeFirstOrThrow()).id
})
afterAll(async () => {
  await platform?.close()
  await local?.close()
})
void registerOrderJobs

const staff = () => tokens['staff@example.com']!
const acmeAdmin = () => tokens['admin@acme.example']!
const entityOf = async (accountId: string) => (await platform.db.selectFrom('accounts').select('billing_entity_id').where('id', '=', accountId).executeTakeFirstOrThrow()).billing_entity_id!
const balance = async (entityId: string, currency: string) =>
  Number((await platform.db.selectFrom('billing_balances').select('balance_minor').where('billing_entity_id', '=', entityId).where('currency', '=', currency).executeTakeFirstOrThrow()).balance_minor)
const count = async (table: string) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(platform.db)).rows[0]!.n
const order = (name: string, token = acmeAdmin()) =>
  platform.call('POST', `/groups/${acmeId}/orders`, { token, body: { items: [{ type: 'register', name, period: 1 }], contacts: { registrant: olivia } } })

async function finished(orderId: string) {
  const deadline = Date.now() + 30_000
  for (;;) {
    const res = await platform.call('GET', `/groups/${acmeId}/orders/${orderId}`, { token: acmeAdmin() })
    if (!['pending', 'processing'].includes(res.json.state)) return res.json
    if (Date.now() > deadline) throw new Error(`order ${orderId} still running`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('the demo seed', () => {
  it('charges real renewals: each settled demo charge is a renewal the registry made, the refused one released, the quiet domains untouched', async () => {
    const charges = await platform.db
      .selectFrom('transactions')
      .innerJoin('domains', 'domains.id', 'transactions.domain_id')
      .select(['transactions.state', 'transactions.period', 'transactions.actor_label', 'domains.name', 'domains.expires_at'])
      .where('transactions.action', '=', 'renew')
      .orderBy('domains.name')
      .execute()
    expect(charges.map((c) => c.state).sort()).toEqual(['released', 'settled', 'settled'])
    for (const charge of charges.filter((c) => c.state === 'settled')) {
      // What the registry holds is the renewed expiry we record (read through EPP).
      expect((await ours.infoDomain(charge.name)).expiresAt?.toISOString()).toBe(charge.expires_at?.toISOString())
      expect(charge.period).toBe(1)
    }
    expect(charges.find((c) => c.state === 'released')!.period).toBe(10)
    expect(charges.some((c) => ['acme-archive.com', 'acme-legacy.com', 'globex-archive.com'].includes(c.name))).toBe(false)
  })
})

describe('billing entities', () => {
  it('staff make one with its VAT id checked per country, and refuse bad payments with nothing written', async () => {
    const base = { name: 'Initech GmbH', country: 'DE', currency: 'EUR', billing_email: 'rechnung@initech.example', invoice_language: 'en' }
    const bad = await platform.call('POST', `/groups/${staffHome}/billing-entities`, { token: staff(), body: { ...base, vat_id: 'DE12345' } })
    expect(bad.status).toBe(400)
    expect(bad.json.errors).toEqual([expect.objectContaining({ field: 'vat_id', code: 'billing.vat_id_shape' })])
    const made = await platform.call('POST', `/groups/${staffHome}/billing-entities`, { token: staff(), body: { ...base, vat_id: 'de 123 456 789' } })
    expect(made.status).toBe(201)
    expect(made.json).toMatchObject({ vat_id: 'DE123456789', balances: [{ currency: 'EUR', balance_minor: 0, credit_limit_minor: 0 }] })
    const id = made.json.id as string

    const before = { payments: await count('billing_payments'), audit: await count('audit_entries') }
    const pay = (body: Record<string, unknown>) => platform.call('POST', `/groups/${staffHome}/billing-entities/${id}/payments`, { token: staff(), body })
    expect((await pay({ kind: 'payment', currency: 'USD', amount: '10.00' })).json.errors[0]).toMatchObject({ field: 'currency', code: 'billing.wrong_currency' })
    expect((await pay({ kind: 'adjustment', currency: 'EUR', amount: '-10.00' })).json.errors[0]).toMatchObject({ field: 'reason', code: 'billing.reason_required' })
    expect((await pay({ kind: 'payment', currency: 'EUR', amount: '10.001' })).json.errors[0]).toMatchObject({ field: 'amount', code: 'invalidMonetaryValue' })
    expect((await pay({ kind: 'payment', currency: 'EUR', amount: '10.00' })).status).toBe(201)
    expect(await count('billing_payments')).toBe(before.payments + 1)
    expect(await balance(id, 'EUR')).toBe(1000)
    // A client's admin may not record payments, nor see an entity that does not pay for its account.
    expect((await platform.call('POST', `/groups/${acmeId}/billing-entities/${id}/payments`, { token: acmeAdmin(), body: { kind: 'payment', currency: 'EUR', amount: '1' } })).status).toBe(403)
    expect((await platform.call('GET', `/groups/${acmeId}/billing-entities/${id}`, { token: acmeAdmin() })).status).toBe(404)
  })

  it('a client sees its own entity only, reads and never changes it; staff see all', async () => {
    const acmeEntity = await entityOf(acmeId)
    const globexEntity = await entityOf(globexId)
    const list = await platform.call('GET', `/groups/${acmeId}/billing-entities`, { token: acmeAdmin() })
    expect(list.json.data.map((e: { id: string }) => e.id)).toEqual([acmeEntity])
    const own = await platform.call('GET', `/groups/${acmeId}/billing-entities/${acmeEntity}`, { token: tokens['viewer@acme.example']! })
    expect(own.status).toBe(200)
    expect(own.json.accounts.map((a: { id: string }) => a.id)).toEqual([acmeId])
    const globexTransaction = (await platform.db.selectFrom('transactions').select('id').where('account_id', '=', globexId).where('state', '=', 'settled').executeTakeFirstOrThrow()).id
    const before = await count('audit_entries')
    for (const [method, path, body] of [
      ['GET', `/groups/${acmeId}/billing-entities/${globexEntity}`, undefined],
      ['GET', `/groups/${globexId}/billing-entities`, undefined],
      ['GET', `/groups/${globexId}/transactions`, undefined],
      ['GET', `/groups/${globexId}/billing-entities/${globexEntity}`, undefined],
      ['GET', `/groups/${acmeId}/transactions/${globexTransaction}`, undefined],
      ['GET', `/groups/${globexId}/transactions/${globexTransaction}`, undefined],
      ['GET', `/groups/${acmeId}/billing-entities/${globexEntity}/invoices`, undefined],
    ] as const) {
      const res = await platform.call(method, path, { token: acmeAdmin(), body })
      expect({ path, status: res.status }).toEqual({ path, status: 404 })
    }
    // Staff work is refused before any id is looked at (403 names the permission, never whose the id is).
    for (const [method, path, body] of [
      ['PATCH', `/groups/${acmeId}/billing-entities/${globexEntity}`, { name: 'x', version: 1 }],
      ['PUT', `/groups/${acmeId}/billing-entities/${globexEntity}/accounts/${acmeId}`, undefined],
      ['POST', `/groups/${acmeId}/billing-entities/${globexEntity}/payments`, { kind: 'payment', currency: 'EUR', amount: '1' }],
      ['PUT', `/groups/${acmeId}/billing-entities/${globexEntity}/balances/EUR`, { credit_limit: '1' }],
      ['DELETE', `/groups/${acmeId}/billing-entities/${globexEntity}/accounts/${globexId}`, undefined],
      ['POST', `/groups/${acmeId}/transactions/${globexTransaction}/refund`, { reason: 'probe' }],
      ['PATCH', `/groups/${acmeId}/billing-entities/${acmeEntity}`, { name: 'x', version: 1 }],
      ['POST', `/groups/${acmeId}/billing-entities/${acmeEntity}/payments`, { kind: 'payment', currency: 'USD', amount: '1' }],
      ['PUT', `/groups/${acmeId}/billing-entities/${acmeEntity}/balances/USD`, { credit_limit: '99999' }],
      ['POST', `/groups/${acmeId}/billing-entities`, { name: 'x', country: 'US', currency: 'USD', billing_email: 'a@b.example' }],
    ] as const) {
      const res = await platform.call(method, path, { token: acmeAdmin(), body })
      expect({ path, status: res.status }).toEqual({ path, status: 403 })
    }
    expect(await count('audit_entries')).toBe(before)
    // B's rows never appear in A's lists, whatever the filter.
    const probe = await platform.call('GET', `/groups/${acmeId}/transactions?limit=1000&pql=${encodeURIComponent(`account_id equals '${globexId}'`)}`, { token: acmeAdmin() })
    expect(probe.json.meta.total).toBe(0)
    const all = await platform.call('GET', `/groups/${staffHome}/billing-entities?limit=100`, { token: staff() })
    expect(all.json.data.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining([acmeEntity, globexEntity]))
    const globexTx = await platform.call('GET', `/groups/${globexId}/transactions?fields=id,account_id`, { token: tokens['admin@globex.example']! })
    expect(globexTx.json.data.length).toBeGreaterThan(0)
    expect(globexTx.json.data.every((t: { account_id: string }) => t.account_id === globexId)).toBe(true)
  })
})

describe('transactions', () => {
  it('charges an order item in its own transaction at its quote, settles it when the registry confirms, and refunds once', async () => {
    const entity = await entityOf(acmeId)
    const start = await balance(entity, 'USD')
    const placed = await order('billing-settle.com')
    expect(placed.status).toBe(201)
    const item = placed.json.items[0]
    const reserved = await platform.db.selectFrom('transactions').selectAll().where('order_item_id', '=', item.id).executeTakeFirstOrThrow()
    expect(reserved).toMatchObject({ state: 'reserved', idempotency_key: `order-item:${item.id}`, product_code: 'domain:com:register', billing_entity_id: entity })
    expect(Number(reserved.amount_minor)).toBe(item.price_minor)
    expect(reserved.quote).toMatchObject({ total_minor: item.price_minor, currency: 'USD' })
    expect(await balance(entity, 'USD')).toBe(start - item.price_minor)

    expect((await finished(placed.json.id)).state).toBe('completed')
    const detail = await platform.call('GET', `/groups/${acmeId}/transactions/${reserved.id}`, { token: acmeAdmin() })
    expect(detail.json).toMatchObject({ state: 'settled', object_name: 'billing-settle.com', amount_minor: item.price_minor })
    // A client sees its price, never the chain of rules, cost or rates.
    expect(detail.json.quote.chain).toBeUndefined()
    expect((await platform.call('GET', `/groups/${staffHome}/transactions/${reserved.id}`, { token: staff() })).json.quote.chain.length).toBeGreaterThan(0)
    const domainTab = await platform.call('GET', `/groups/${acmeId}/transactions?pql=${encodeURIComponent(`domain_id equals '${detail.json.domain_id}'`)}`, { token: acmeAdmin() })
    expect(domainTab.json.data.map((t: { id: string }) => t.id)).toEqual([reserved.id])
    // The list names the product a person reads beside the code a script filters by (issue 28).
    const productName = (await platform.db.selectFrom('products').select('name').where('code', '=', 'domain:com:register').executeTakeFirstOrThrow()).name
    expect(domainTab.json.data[0]).toMatchObject({ product_code: 'domain:com:register', product: { name: productName } })
    expect(detail.json).toMatchObject({ product_code: 'domain:com:register', product_name: productName })

    const refund = (reason: string) => platform.call('POST', `/groups/${staffHome}/transactions/${reserved.id}/refund`, { token: staff(), body: { reason } })
    expect((await refund(' ')).json.errors[0]).toMatchObject({ field: 'reason', code: 'billing.reason_required' })
    expect((await refund('Deleted within the add grace period')).json.state).toBe('refunded')
    expect((await refund('again')).status).toBe(409)
    expect(await balance(entity, 'USD')).toBe(start)
    const log = await platform.db.selectFrom('audit_entries').select('action').where('entity_id', '=', reserved.id).orderBy('occurred_at').execute()
    expect(log.map((l) => l.action)).toEqual(['reserve', 'settle', 'refund'])
  })

  it('refuses an order past the limit with the shortfall, before any job; a cancelled item gives its money back', async () => {
    const entity = await entityOf(acmeId)
    const terms = await platform.call('PUT', `/groups/${staffHome}/billing-entities/${entity}/balances/USD`, { token: staff(), body: { credit_limit: '0' } })
    const available = terms.json.available_minor as number
    expect(available).toBeGreaterThan(0)
    // Take the balance down to 5.00 with an adjustment, so one .com (14.99) is too much.
    await platform.call('POST', `/groups/${staffHome}/billing-entities/${entity}/payments`, {
      token: staff(),
      body: { kind: 'adjustment', currency: 'USD', amount: ((500 - available) / 100).toFixed(2), reason: 'Test: leave 5.00' },
    })
    const before = { tx: await count('transactions'), jobs: await count('orders'), items: await count('order_items') }
    const refused = await order('billing-too-much.com')
    expect(refused.status).toBe(409)
    expect(refused.json).toMatchObject({ code: 'billing.insufficient_funds', shortfall: 'USD 9.99', available: 'USD 5.00' })
    expect({ tx: await count('transactions'), jobs: await count('orders'), items: await count('order_items') }).toEqual(before)

    await platform.call('PUT', `/groups/${staffHome}/billing-entities/${entity}/balances/USD`, { token: staff(), body: { credit_limit: '100' } })
    // Stop the jobs picking it up: cancel straight away is a race, so place it with the worker stopped.
    const placed = await order('billing-cancel.com')
    expect(placed.status).toBe(201)
    const cancel = await platform.call('POST', `/groups/${acmeId}/orders/${placed.json.id}/cancel`, { token: acmeAdmin(), body: {} })
    const tx = await platform.db.selectFrom('transactions').select(['state']).where('order_id', '=', placed.json.id).executeTakeFirstOrThrow()
    if (cancel.status === 200) expect(tx.state).toBe('released')
    else expect(['reserved', 'settled']).toContain(tx.state)
  })

  it('warns the billing address once when the balance falls below its threshold', async () => {
    const entity = await entityOf(acmeId)
    const sent: { to: string; subject: string }[] = []
    const deps = { ...platform.deps, mailer: { send: async (m: { to: string; subject: string }) => void sent.push(m) } }
    const position = (await platform.call('GET', `/groups/${staffHome}/billing-entities/${entity}`, { token: staff() })).json.balances[0]
    await platform.call('PUT', `/groups/${staffHome}/billing-entities/${entity}/balances/USD`, {
      token: staff(),
      body: { credit_limit: String(position.credit_limit_minor / 100), low_balance: String(position.balance_minor / 100 + 1) },
    })
    expect(await runLowBalanceWarnings(deps)).toBe(1)
    expect(await runLowBalanceWarnings(deps)).toBe(0)
    expect(sent).toEqual([expect.objectContaining({ to: 'billing@acme.example', subject: 'Low balance: Acme Corp Billing (USD)' })])
  })

  it("charges a renewal from the domain's page before the registry is asked: settled when it renews, released when it refuses", async () => {
    const entity = await entityOf(acmeId)
    await platform.call('PUT', `/groups/${staffHome}/billing-entities/${entity}/balances/USD`, { token: staff(), body: { credit_limit: '1000' } })
    const registered = await platform.db.selectFrom('domains').select(['id']).where('name', '=', 'billing-settle.com').executeTakeFirstOrThrow()
    expect((await platform.call('POST', `/groups/${acmeId}/domains/${registered.id}/renew`, { token: acmeAdmin(), body: { period: 1 } })).status).toBe(200)
    const renewal = await platform.db.selectFrom('transactions').selectAll().where('domain_id', '=', registered.id).where('action', '=', 'renew').executeTakeFirstOrThrow()
    expect(renewal).toMatchObject({ state: 'settled', product_code: 'domain:com:renew' })
    // A period this registry does not renew for (it takes 1 or 2 years): refused there, so its charge is released.
    const unknown = await platform.db
      .selectFrom('domains')
      .select(['id'])
      .where('account_id', '=', acmeId)
      .where('tld', '=', 'com')
      .where('status', '=', 'active')
      .where('name', '<>', 'billing-settle.com')
      .executeTakeFirstOrThrow()
    const before = await balance(entity, 'USD')
    expect((await platform.call('POST', `/groups/${acmeId}/domains/${unknown.id}/renew`, { token: acmeAdmin(), body: { period: 5 } })).status).toBeGreaterThanOrEqual(400)
    expect(
      (
        await platform.db
          .selectFrom('transactions')
          .select('state')
          .where('domain_id', '=', unknown.id)
          .where('idempotency_key', 'like', 'renew:%')
          .orderBy('created_at', 'desc')
          .limit(1)
          .executeTakeFirstOrThrow()
      ).state,
    ).toBe('released')
    expect(await balance(entity, 'USD')).toBe(before)
  })

  it('a renewal refused for ten years and then made for one is charged the one-year price: the ten-year charge stays released', async () => {
    const domain = await platform.db
      .selectFrom('domains')
      .select(['id', 'name'])
      .where('account_id', '=', acmeId)
      .where('tld', '=', 'com')
      .where('status', '=', 'active')
      .where('registry', 'is not', null)
      .where('name', 'not in', ['acme-archive.com', 'acme-legacy.com'])
      .where((eb) => eb.not(eb.exists(eb.selectFrom('transactions').select('id').whereRef('transactions.domain_id', '=', 'domains.id'))))
      .orderBy('name')
      .executeTakeFirstOrThrow()
    const entity = await entityOf(acmeId)
    const before = await balance(entity, 'USD')
    // The registry renews .com for 1 or 2 years (this test's policy): ten is refused there (2004), not here.
    const refused = await platform.call('POST', `/groups/${acmeId}/domains/${domain.id}/renew`, { token: acmeAdmin(), body: { period: 10 } })
    expect(refused.status).toBeGreaterThanOrEqual(400)
    expect(await balance(entity, 'USD')).toBe(before)
    expect((await platform.call('POST', `/groups/${acmeId}/domains/${domain.id}/renew`, { token: acmeAdmin(), body: { period: 1 } })).status).toBe(200)
    const oneYear = await (await accountPricing(platform.db, acmeId)).price({ name: 'com', list_price_minor: null, currency: '' }, 1, 'period', 'renew')
    expect(before - (await balance(entity, 'USD'))).toBe(oneYear.price_minor)
    // The domain's transactions as the API lists them: the ten-year charge released, never settled; the one-year one settled at its price.
    const list = await platform.call('GET', `/groups/${acmeId}/transactions?fields=state,period,amount_minor,action&pql=${encodeURIComponent(`domain_id equals '${domain.id}'`)}`, {
      token: acmeAdmin(),
    })
    expect(list.status).toBe(200)
    const rows = (list.json.data as { state: string; period: number; amount_minor: number; action: string }[]).map((r) => ({ ...r, amount_minor: Number(r.amount_minor) }))
    expect(rows.sort((a, b) => a.period - b.period)).toEqual([
      { state: 'settled', period: 1, amount_minor: oneYear.price_minor, action: 'renew' },
      { state: 'released', period: 10, amount_minor: expect.any(Number), action: 'renew' },
    ])
    expect(rows[1]!.amount_minor).toBeGreaterThan(oneYear.price_minor)
    const audit = await platform.db
      .selectFrom('audit_entries')
      .select('action')
      .where('entity_type', '=', 'transaction')
      .where(
        'entity_id',
        'in',
        platform.db
          .selectFrom('transactions')
          .select(sql<string>`id::text`.as('id'))
          .where('domain_id', '=', domain.id)
          .where('period', '=', 10),
      )
      .orderBy('occurred_at')
      .execute()
    expect(audit.map((a) => a.action)).toEqual(['reserve', 'release'])
  })

  it('a renewal confirmed at a price that is no longer the quote is refused (409 billing.quote_changed) and charges nothing; confirmed at the quote it charges exactly that (issue 28)', async () => {
    const domain = await platform.db
      .selectFrom('domains')
      .select(['id', 'name', 'expires_at'])
      .where('account_id', '=', acmeId)
      .where('tld', '=', 'com')
      .where('status', '=', 'active')
      .where('registry', 'is not', null)
      .where('name', 'not in', ['acme-archive.com', 'acme-legacy.com'])
      .orderBy('name', 'desc')
      .executeTakeFirstOrThrow()
    const entity = await entityOf(acmeId)
    const before = await balance(entity, 'USD')
    const earlier = (await platform.db.selectFrom('transactions').select('id').where('domain_id', '=', domain.id).execute()).map((t) => t.id)
    const charges = () =>
      platform.db
        .selectFrom('transactions')
        .select('state')
        .where('domain_id', '=', domain.id)
        .$if(earlier.length > 0, (q) => q.where('id', 'not in', earlier))
        .execute()
    // The quote the confirmation shows: the engine's price for exactly this renewal, nothing reserved.
    const quote = await platform.call('GET', `/groups/${acmeId}/domains/${domain.id}/renew/quote?period=1`, { token: acmeAdmin() })
    expect(quote.status).toBe(200)
    const oneYear = await (await accountPricing(platform.db, acmeId)).price({ name: 'com', list_price_minor: null, currency: '' }, 1, 'period', 'renew')
    expect(quote.json).toMatchObject({ action: 'renew', period: 1, price: { amount_minor: oneYear.price_minor, currency: 'USD' }, quote: { product_code: 'domain:com:renew' } })
    expect(await charges()).toEqual([])
    // The viewer may not ask for it, another account's domain is not found.
    expect((await platform.call('GET', `/groups/${acmeId}/domains/${domain.id}/renew/quote?period=1`, { token: tokens['viewer@acme.example']! })).status).toBe(403)
    expect((await platform.call('GET', `/groups/${globexId}/domains/${domain.id}/renew/quote?period=1`, { token: tokens['admin@globex.example']! })).status).toBe(404)
    // Confirmed at a price the quote no longer is (a rule changed in between): refused, nothing charged, nothing renewed.
    const stale = await platform.call('POST', `/groups/${acmeId}/domains/${domain.id}/renew`, {
      token: acmeAdmin(),
      body: { period: 1, expected: { amount_minor: oneYear.price_minor - 100, currency: 'USD' } },
    })
    expect(stale.status).toBe(409)
    expect(stale.json).toMatchObject({ code: 'billing.quote_changed', amount_minor: oneYear.price_minor, currency: 'USD' })
    expect(stale.json.detail).toContain(`USD ${(oneYear.price_minor / 100).toFixed(2)}`)
    const stillNoCharge = await platform.call('POST', `/groups/${acmeId}/domains/${domain.id}/renew`, { token: acmeAdmin(), body: { period: 1, expected: null } })
    expect(stillNoCharge.status).toBe(409)
    expect(await charges()).toEqual([])
    expect(await balance(entity, 'USD')).toBe(before)
    expect((await platform.db.selectFrom('domains').select('expires_at').where('id', '=', domain.id).executeTakeFirstOrThrow()).expires_at).toEqual(domain.expires_at)
    // Confirmed at the quote: charged exactly what was shown.
    const renewed = await platform.call('POST', `/groups/${acmeId}/domains/${domain.id}/renew`, { token: acmeAdmin(), body: { period: 1, expected: quote.json.price } })
    expect(renewed.status).toBe(200)
    expect(before - (await balance(entity, 'USD'))).toBe(quote.json.price.amount_minor)
    expect(await charges()).toEqual([{ state: 'settled' }])
    // A restore is quoted only for a domain in redemption.
    expect((await platform.call('GET', `/groups/${acmeId}/domains/${domain.id}/restore/quote`, { token: acmeAdmin() })).status).toBe(409)
  })

  it('charges a registry lock its fee, each time it is set, through the same reserve and settle', async () => {
    const domain = await platform.db.selectFrom('domains').select(['id', 'version']).where('name', '=', 'billing-settle.com').executeTakeFirstOrThrow()
    const patch = async (body: Record<string, unknown>) => {
      const version = (await platform.db.selectFrom('domains').select('version').where('id', '=', domain.id).executeTakeFirstOrThrow()).version
      return platform.call('PATCH', `/groups/${acmeId}/domains/${domain.id}`, { token: acmeAdmin(), body: { ...body, version } })
    }
    const fees = () =>
      platform.db.selectFrom('transactions').select(['state', 'product_code', 'amount_minor', 'idempotency_key']).where('domain_id', '=', domain.id).where('action', '=', 'registry-lock').execute()
    // Asked once at the engine's fee (issue 28): a price other than its quote changes and charges nothing; the quote's is charged.
    const quote = await platform.call('GET', `/groups/${acmeId}/domains/${domain.id}/registry-lock/quote`, { token: acmeAdmin() })
    expect(quote.status).toBe(200)
    expect(quote.json).toMatchObject({ action: 'registry-lock', domain_id: domain.id, name: 'billing-settle.com' })
    const stale = await patch({ registry_lock: true, expected: { amount_minor: quote.json.price.amount_minor + 1, currency: quote.json.price.currency } })
    expect(stale.status).toBe(409)
    expect(stale.json).toMatchObject({ code: 'billing.quote_changed' })
    expect(await fees()).toEqual([])
    expect((await platform.db.selectFrom('domains').select('registry_lock').where('id', '=', domain.id).executeTakeFirstOrThrow()).registry_lock).toBe(false)
    expect((await patch({ registry_lock: true, expected: quote.json.price })).status).toBe(200)
    const [fee] = await fees()
    expect(fee).toMatchObject({ state: 'settled', product_code: 'domain:com:registry-lock' })
    expect(Number(fee!.amount_minor)).toBe(quote.json.price.amount_minor)
    // Unlocking is free; locking again is a new fee.
    expect((await patch({ registry_lock: false })).status).toBe(200)
    expect(await fees()).toHaveLength(1)
    expect((await patch({ registry_lock: true })).status).toBe(200)
    expect((await fees()).map((f) => f.state)).toEqual(['settled', 'settled'])
    expect((await patch({ registry_lock: false })).status).toBe(200)
  })

  it('two orders at the same moment cannot together overdraw a balance', async () => {
    const entity = await entityOf(acmeId)
    const adjust = async (minor: number, reason: string) => {
      if (minor)
        expect(
          (
            await platform.call('POST', `/groups/${staffHome}/billing-entities/${entity}/payments`, {
              token: staff(),
              body: { kind: 'adjustment', currency: 'USD', amount: (minor / 100).toFixed(2), reason },
            })
          ).status,
        ).toBe(201)
    }
    // Room for exactly one .com (14.99): the balance to zero, prepaid, then 24.99 in.
    await adjust(-(await balance(entity, 'USD')), 'Test: back to zero')
    expect((await platform.call('PUT', `/groups/${staffHome}/billing-entities/${entity}/balances/USD`, { token: staff(), body: { credit_limit: '0' } })).status).toBe(200)
    await adjust(2499, 'Test: room for one')
    const results = await Promise.all(['billing-race-1.com', 'billing-race-2.com', 'billing-race-3.com'].map((name) => order(name)))
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409])
    expect(await balance(entity, 'USD')).toBe(2499 - 1499)
  })
})

describe('invoices', () => {
  it('runs a closed month once: gapless numbers, one line per settled charge, totals that add up, reverse charge, PDF and UBL', async () => {
    const home = `/groups/${staffHome}`
    const thisMonth = new Date().toISOString().slice(0, 7)
    const open = await platform.call('POST', `${home}/invoice-runs`, { token: staff(), body: { period: thisMonth } })
    expect(open.json.errors[0]).toMatchObject({ field: 'period', code: 'billing.month_open' })
    expect((await platform.call('POST', `/groups/${acmeId}/invoice-runs`, { token: acmeAdmin(), body: { period: '2020-01' } })).status).toBe(403)
    await platform.call('PUT', `${home}/tax-rates/US`, { token: staff(), body: { rate_percent: 7.25, name: 'Sales tax' } })
    // Who invoices is configuration (SELLER_*): the run issues under the seller configured then.
    Object.assign(platform.deps.config, { SELLER_NAME: 'Registrar Test B.V.', SELLER_VAT_ID: 'nl 987654321 b02', SELLER_REGISTRATION: '87654321' })
    // The charges so far become last month's (the demo's renewals are last month's already: issue 28).
    await sql`UPDATE transactions SET settled_at = settled_at - interval '1 month' WHERE settled_at >= date_trunc('month', now())`.execute(platform.db)
    const last = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1)).toISOString().slice(0, 7)
    const started = await platform.call('POST', `${home}/invoice-runs`, { token: staff(), body: { period: last } })
    expect(started.status).toBe(202)
    const deadline = Date.now() + 20_000
    while ((await platform.db.selectFrom('invoice_runs').select('state').where('period', '=', `${last}-01`).executeTakeFirstOrThrow()).state !== 'completed') {
      if (Date.now() > deadline) throw new Error('the invoice run did not finish')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const twice = await platform.call('POST', `${home}/invoice-runs`, { token: staff(), body: { period: last } })
    expect(twice.status).toBe(409)
    expect(twice.json.code).toBe('billing.run_done')
    // The job again (a retry after a crash) adds nothing.
    expect(await runInvoices(platform.deps, `${last}-01`)).toBe(0)

    const acmeEntity = await entityOf(acmeId)
    const list = await platform.call('GET', `/groups/${acmeId}/billing-entities/${acmeEntity}/invoices`, { token: acmeAdmin() })
    const year = new Date().getUTCFullYear()
    // One series for the seller (issue 26): each entity's invoice a number of its own, 1…n in the order the run went (entity id).
    const run = await platform.db
      .selectFrom('invoices')
      .select(['number', 'billing_entity_id'])
      .where('run_period', '=', `${last}-01`)
      .where('kind', '=', 'invoice')
      .orderBy('billing_entity_id')
      .execute()
    expect(run.length).toBeGreaterThan(1)
    expect(run.map((i) => i.number)).toEqual(run.map((_, k) => `INV-${year}-${String(k + 1).padStart(6, '0')}`))
    expect(list.json.data.map((i: { number: string }) => i.number)).toEqual([run.find((i) => i.billing_entity_id === acmeEntity)!.number])
    const invoice = list.json.data[0]
    // Every account the entity bills hears of it by webhook (issue 20), once, written in the run's batch, in the API's form (the period YYYY-MM).
    const issued = await platform.db.selectFrom('webhook_events').select(['account_id', 'data']).where('type', '=', 'invoice.issued').execute()
    expect(issued.filter((e) => (e.data as { id?: string }).id === invoice.id)).toEqual([
      {
        account_id: acmeId,
        data: {
          id: invoice.id,
          number: invoice.number,
          kind: 'invoice',
          billing_entity_id: acmeEntity,
          period: last,
          currency: invoice.currency,
          total_minor: Number(invoice.total_minor),
          due_at: invoice.due_at,
          corrects: null,
        },
      },
    ])
    const lines = await platform.db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', invoice.id).orderBy('position').execute()
    // One line per charge the entity settled that month, each at its amount, grouped by what was done.
    const settled = await platform.db
      .selectFrom('transactions')
      .select(['id', 'amount_minor', 'action'])
      .where('billing_entity_id', '=', acmeEntity)
      .where('state', 'in', ['settled', 'refunded'])
      .where('settled_at', '>=', new Date(`${last}-01T00:00:00Z`))
      .where('settled_at', '<', new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)))
      .execute()
    expect(new Map(lines.map((l) => [l.transaction_id, Number(l.amount_minor)]))).toEqual(new Map(settled.map((t) => [t.id, Number(t.amount_minor)])))
    const order = ['register', 'transfer', 'renew', 'restore', 'trade', 'registry-lock']
    const actions = lines.map((l) => order.indexOf(settled.find((t) => t.id === l.transaction_id)!.action))
    expect(actions).toEqual([...actions].sort((a, b) => a - b))
    expect(invoice.subtotal_minor).toBe(lines.reduce((sum, l) => sum + Number(l.amount_minor), 0))
    expect(invoice.tax_minor).toBe(Math.round((invoice.subtotal_minor * 725) / 10_000))
    expect(invoice.total_minor).toBe(invoice.subtotal_minor + invoice.tax_minor)

    // Mailed when issued: the run queued the mail of what it issued.
    const mailedBy = Date.now() + 20_000
    while (!(await platform.db.selectFrom('invoices').select('mailed_at').where('id', '=', invoice.id).executeTakeFirstOrThrow()).mailed_at) {
      if (Date.now() > mailedBy) throw new Error('the invoice was not mailed')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    // Issued documents are kept as they are.
    await expect(sql`DELETE FROM invoices WHERE id = ${invoice.id}`.execute(platform.db)).rejects.toThrow(/never deleted/)
    await expect(sql`UPDATE invoice_lines SET amount_minor = 0 WHERE invoice_id = ${invoice.id}`.execute(platform.db)).rejects.toThrow(/never updated/)

    const globexEntity = await entityOf(globexId)
    const globexInvoice = (await platform.call('GET', `/groups/${globexId}/billing-entities/${globexEntity}/invoices`, { token: tokens['admin@globex.example']! })).json.data[0]
    expect(globexInvoice).toMatchObject({ reverse_charge: true, tax_minor: 0, language: 'es' })
    // Another account's invoice is not there.
    expect((await platform.call('GET', `/groups/${acmeId}/invoices/${globexInvoice.id}/pdf`, { token: acmeAdmin() })).status).toBe(404)

    const pdf = await platform.api.fetch(
      new Request(`http://platform.test/v1/groups/${globexId}/invoices/${globexInvoice.id}/pdf`, { headers: { authorization: `Bearer ${tokens['admin@globex.example']}` } }),
    )
    expect(pdf.status).toBe(200)
    const dir = mkdtempSync(path.join(tmpdir(), 'invoice-'))
    writeFileSync(path.join(dir, 'invoice.pdf'), Buffer.from(await pdf.arrayBuffer()))
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'invoice.pdf'), '-'], { encoding: 'utf8' })
    expect(text).toContain(globexInvoice.number)
    expect(text).toContain('Factura')
    expect(text).toContain('Renovación')
    expect(text).toContain('Inversión del sujeto pasivo')
    expect(text).toContain('Registrar Test B.V.')
    expect(text).toContain('NIF-IVA: NL987654321B02 · N.º de registro: 87654321')
    // The rate written as the amounts are, in Spanish (issue 26).
    expect(text.replace(/[ \t]+/g, ' ')).toContain('IVA 0,00 %')
    // The document keeps its seller: a later change of configuration does not rewrite it.
    Object.assign(platform.deps.config, { SELLER_NAME: 'Someone Else B.V.' })
    expect((await platform.call('GET', `/groups/${globexId}/invoices/${globexInvoice.id}/xml`, { token: tokens['admin@globex.example']! })).text).toContain(
      '<cac:AccountingSupplierParty><cac:Party><cac:PostalAddress><cbc:StreetName>Herengracht 100</cbc:StreetName>',
    )
    expect(text.replace(/\s+/g, ' ')).toMatch(new RegExp(`Total ${(globexInvoice.total_minor / 100).toFixed(2).replace('.', ',')}`))

    const ubl = await platform.call('GET', `/groups/${acmeId}/invoices/${invoice.id}/xml`, { token: acmeAdmin() })
    const doc = new XMLParser({ ignoreAttributes: false }).parse(ubl.text).Invoice
    expect(doc['cbc:CustomizationID']).toBe('urn:cen.eu:en16931:2017')
    expect(doc['cbc:ID']).toBe(invoice.number)
    expect(doc['cac:AccountingSupplierParty']['cac:Party']['cac:PartyLegalEntity']).toEqual({ 'cbc:RegistrationName': 'Registrar Test B.V.', 'cbc:CompanyID': 87654321 })
    expect(doc['cac:AccountingSupplierParty']['cac:Party']['cac:PartyTaxScheme']['cbc:CompanyID']).toBe('NL987654321B02')
    expect(String(doc['cac:LegalMonetaryTotal']['cbc:PayableAmount']['#text'])).toBe(String(invoice.total_minor / 100))
    expect([doc['cac:InvoiceLine']].flat()).toHaveLength(lines.length)
    // Every rule of EN 16931 (CEN's own validation artefact): standard rated, reverse charged, not
    // subject to VAT (a buyer outside the EU untaxed), and a credit note.
    const globexXml = (await platform.call('GET', `/groups/${globexId}/invoices/${globexInvoice.id}/xml`, { token: tokens['admin@globex.example']! })).text
    const row = await platform.db.selectFrom('invoices').selectAll().where('id', '=', invoice.id).executeTakeFirstOrThrow()
    const untaxed = { ...row, tax_rate_percent: 0, tax_minor: 0, total_minor: row.subtotal_minor }
    const credit = { ...row, kind: 'credit-note' as const, number: 'CN-TEST', due_at: null, subtotal_minor: -row.subtotal_minor, tax_minor: -row.tax_minor, total_minor: -row.total_minor }
    const negative = lines.map((l) => ({ ...l, unit_minor: -l.unit_minor, amount_minor: -l.amount_minor }))
    expect(en16931Failures({ standard: ubl.text, reverse: globexXml, untaxed: invoiceUbl(untaxed, lines), credit: invoiceUbl(credit, negative, row) })).toEqual({
      standard: [],
      reverse: [],
      untaxed: [],
      credit: [],
    })
  })

  it('prints a 500-line invoice in Japanese over its pages, every line there (its speed is bench/billing.ts)', async () => {
    const invoice = await platform.db.selectFrom('invoices').selectAll().where('reverse_charge', '=', true).limit(1).executeTakeFirstOrThrow()
    const lines = Array.from({ length: 500 }, (_, i) => ({
      invoice_id: invoice.id,
      position: i + 1,
      transaction_id: null,
      description: `更新 例-${i}.jp (1 年)`,
      quantity: 1,
      unit_minor: 1299,
      amount_minor: 1299,
    }))
    const dir = mkdtempSync(path.join(tmpdir(), 'invoice-'))
    writeFileSync(path.join(dir, 'long.pdf'), await invoicePdf({ ...invoice, language: 'ja' }, lines))
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'long.pdf'), '-'], { encoding: 'utf8' })
    for (const i of [0, 27, 28, 499]) expect(text).toContain(`更新 例-${i}.jp (1 年)`)
    // The labels, the buyer's country and the legal note in Japanese, in the embedded Noto Sans JP.
    for (const words of ['請求書', '請求先', '発行日', '支払期限', '単価', '小計', '合計', 'スペイン', 'リバースチャージ', 'ページ 13 / 13', 'VAT番号: NL987654321B02 · 登記番号: 87654321'])
      expect(text).toContain(words)
    expect(execFileSync('pdffonts', [path.join(dir, 'long.pdf')], { encoding: 'utf8' })).toMatch(/NotoSansJP/)
    // Text can be there for pdftotext with its glyphs missing from the embedded font: each font
    // embedded draws every character printed (an outline for each) and lays digits out narrow.
    const pdf = await PDFDocument.load(readFileSync(path.join(dir, 'long.pdf')))
    const embedded = pdf.context
      .enumerateIndirectObjects()
      .map(([, object]) => object)
      .filter((object): object is PDFDict => object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('FontDescriptor'))
      .map((descriptor) => fontkit.create(Buffer.from(decodePDFRawStream(pdf.context.lookup(descriptor.get(PDFName.of('FontFile2'))) as PDFRawStream).decode())) as unknown as FontkitFont)
    expect(embedded).toHaveLength(2)
    for (const font of embedded) {
      const blank = [...'請求書合計更新例jp0123456789'].filter((ch) => {
        const glyph = font.glyphForCodePoint(ch.codePointAt(0)!)
        return glyph.id === 0 || !glyph.path.commands.length
      })
      expect(blank).toEqual([])
      expect(font.layout('2026-000042').glyphs.every((g) => g.advanceWidth < font.unitsPerEm * 0.7)).toBe(true)
    }
  })
})

describe("the seller's identity", () => {
  it('is configuration: a VAT id of another shape than its country is refused at boot, each part unset is the demo registrar', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'seller-'))
    const base = { DATA_DIR: dir, SESSION_SECRET: 'k3y-0f-the-b1lling-t3st-s3ss10ns-XYZqwv', SSL_KEY_SECRET: 'k3y-0f-the-b1lling-t3st-s3al1ng-XYZqwv' }
    expect(() => loadConfig({ ...base, SELLER_COUNTRY: 'DE', SELLER_VAT_ID: 'NL123456789B01' })).toThrow(/SELLER_VAT_ID: NL123456789B01 is not a VAT id of DE/)
    expect(sellerOf(loadConfig({ ...base, SELLER_NAME: 'Registrar GmbH', SELLER_COUNTRY: 'de', SELLER_VAT_ID: 'DE 123 456 789' }))).toEqual({
      ...DEMO_SELLER,
      name: 'Registrar GmbH',
      country: 'DE',
      vat_id: 'DE123456789',
    })
  })
})

describe("a billing entity's log (issue 28, item 16)", () => {
  it('opens for whoever can open the entity: a client reads its own without the accounts put on it, another client’s is 404, staff read all', async () => {
    const acmeEntity = await entityOf(acmeId)
    const globexEntity = await entityOf(globexId)
    const actions = (answer: { json: { data: { action: string; entity_id: string }[] } }) => answer.json.data.map((e) => e.action)
    const client = await platform.call('GET', `/groups/${acmeId}/billing-entities/${acmeEntity}/log?limit=100`, { token: acmeAdmin() })
    expect(client.status).toBe(200)
    expect(actions(client)).toEqual(expect.arrayContaining(['create', 'payment']))
    expect(actions(client)).not.toContain('add-account')
    expect(client.json.data.every((e: { entity_id: string }) => e.entity_id === acmeEntity)).toBe(true)
    // The viewer holds invoice-viewer too: the same read.
    expect((await platform.call('GET', `/groups/${acmeId}/billing-entities/${acmeEntity}/log`, { token: tokens['viewer@acme.example']! })).status).toBe(200)
    expect((await platform.call('GET', `/groups/${acmeId}/billing-entities/${globexEntity}/log`, { token: acmeAdmin() })).status).toBe(404)
    const all = await platform.call('GET', `/groups/${staffHome}/billing-entities/${acmeEntity}/log?limit=100`, { token: staff() })
    expect(actions(all)).toEqual(expect.arrayContaining(['create', 'payment', 'add-account']))
  })
})
