import type { TFunction } from 'i18next'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { runPriceRiseNotices } from '#server/platform/pricing/notices.ts'
import { rateSchema, ruleBody, ruleSchema } from '#app/routes/invoicing/pricing-forms.ts'

let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
let acmeId = ''
let globexId = ''

beforeAll(async () => {
  // A registry that answers every name available: the availability check's price is the subject here.
  const registries = { forTld: () => ({ registry: 'test', checkDomains: async (names: string[]) => names.map((name) => ({ name, available: true })) }) as never, close: async () => {} }
  platform = await createTestPlatform({ registries }, { seed: { domainsPerAccount: [1, 1] } })
  for (const email of ['staff@example.com', 'admin@acme.example', 'viewer@acme.example', 'admin@globex.example']) {
    tokens[email] = (await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })).json.access_token
  }
  acmeId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globexId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
}, 120_000)
afterAll(() => platform?.close())

const staff = () => tokens['staff@example.com']!
const entityId = async (name: string) => (await platform.db.selectFrom('pricing_entities').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id
const productId = async (code: string) => (await platform.db.selectFrom('products').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id

describe('products', () => {
  it('makes six domain products per offered TLD from the catalogue, and keeps them in step', async () => {
    const list = await platform.call('GET', `/products?pql=${encodeURIComponent("tld equals 'com'")}&fields=code,action,is_active&limit=10`, { token: staff() })
    expect(list.status).toBe(200)
    expect(list.json.data.map((p: { action: string }) => p.action).sort()).toEqual(['register', 'registry-lock', 'renew', 'restore', 'trade', 'transfer'])
    const dev = (await platform.call('GET', '/tlds/dev', { token: staff() })).json
    await platform.call('PATCH', `/tlds/${dev.id}`, { token: staff(), body: { is_offered: true, list_price_minor: 1500, version: dev.version } })
    const made = await platform.db.selectFrom('products').select(['code', 'is_active']).where('tld', '=', 'dev').execute()
    expect(made).toHaveLength(6)
    const again = (await platform.call('GET', '/tlds/dev', { token: staff() })).json
    await platform.call('PATCH', `/tlds/${again.id}`, { token: staff(), body: { is_offered: false, version: again.version } })
    expect((await platform.db.selectFrom('products').select('is_active').where('tld', '=', 'dev').execute()).every((p) => !p.is_active)).toBe(true)
  })

  it('is staff work: a client is refused products and costs', async () => {
    expect((await platform.call('GET', '/products', { token: tokens['admin@acme.example']! })).status).toBe(403)
    const id = await productId('domain:com:register')
    expect((await platform.call('GET', `/products/${id}/costs`, { token: tokens['admin@acme.example']! })).status).toBe(403)
    expect((await platform.call('POST', '/product-costs/upload', { token: tokens['admin@acme.example']!, body: { csv: 'code,currency,amount,effective_from' } })).status).toBe(403)
  })

  it('previews a cost upload (new, changed, unchanged, refused, at a loss) and stores it only when clean', async () => {
    const csv = [
      'code,currency,amount,effective_from',
      'domain:net:register,EUR,10.49,2026-01-01', // the seed's cost: unchanged
      'domain:shop:register,EUR,"1,000.00",2026-01-01', // changed, and Retail's launch promotion sells at a loss
      'domain:org:register,USD,11.00,2030-01-01', // new
      'domain:nope:register,EUR,1.00,2026-01-01', // no such product
      'domain:jp:register,JPY,12.5,2026-01-01', // JPY has no decimals
    ].join('\n')
    const preview = await platform.call('POST', '/product-costs/upload', { token: staff(), body: { csv } })
    expect(preview.status).toBe(200)
    expect(preview.json.rows.map((r: { status: string }) => r.status)).toEqual(['unchanged', 'changed', 'new', 'error', 'error'])
    expect(preview.json.rows[1]).toMatchObject({ amount_minor: 100000, previous_minor: 2099, at_loss: true })
    expect(preview.json.rows[0]).toMatchObject({ at_loss: false })
    expect(preview.json.rows[3].errors[0]).toMatchObject({ field: 'code', code: 'costs.unknown_product' })
    expect(preview.json.rows[4].errors[0]).toMatchObject({ field: 'amount', code: 'invalidMonetaryValue' })
    const refused = await platform.call('POST', '/product-costs/upload', { token: staff(), body: { csv, commit: true } })
    expect(refused.json.committed).toBe(false)
    const clean = csv.split('\n').slice(0, 4).join('\n')
    const stored = await platform.call('POST', '/product-costs/upload', { token: staff(), body: { csv: clean, commit: true } })
    expect(stored.json).toMatchObject({ committed: true, counts: { new: 1, changed: 1, unchanged: 1, error: 0 } })
    const costs = await platform.call('GET', `/products/${await productId('domain:shop:register')}/costs`, { token: staff() })
    expect(costs.json.data[0]).toMatchObject({ currency: 'EUR', amount_minor: 100000, in_force: true })
    const audit = await platform.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('area', '=', 'products')
      .where('action', '=', 'cost')
      .where('entity_id', '=', await productId('domain:shop:register'))
      .execute()
    const mine = audit.filter((a) => a.actor_label !== 'demo-seed')
    expect(mine).toHaveLength(1)
    expect(mine[0]!.changes).toMatchObject({ before: { amount_minor: 2099 }, after: { amount_minor: 100000 } })
  })
})

describe('pricing', () => {
  it('explains every price of a list: the chain of rules, the cost and the rate', async () => {
    const retail = await entityId('Retail')
    const page = await platform.call('GET', `/pricing-entities/${retail}/applicable-rules?q=domain:com:register&limit=5`, { token: staff() })
    expect(page.status).toBe(200)
    const eur = page.json.data.find((r: { product_code: string; currency: string }) => r.product_code === 'domain:com:register' && r.currency === 'EUR')
    // Retail's own fixed price (entity per-product) over the global custom margin over the global fixed price.
    expect(eur).toMatchObject({ cost_minor: 909, price_minor: 1299 })
    expect(eur.chain.map((s: { rule_name: string; effect: string }) => `${s.rule_name}:${s.effect}`)).toEqual([
      'com-retail:applied',
      'standard-margin:overridden',
      'com-price:overridden',
      'margin-floor:applied',
      'charm-pricing:applied',
    ])
    const usd = page.json.data.find((r: { product_code: string; currency: string }) => r.product_code === 'domain:com:register' && r.currency === 'USD')
    expect(usd.rates).toEqual([expect.objectContaining({ from: 'EUR', to: 'USD', rate: 1.08 })])
    const corporate = await platform.call('GET', `/pricing-entities/${await entityId('Corporate')}/applicable-rules?q=domain:com:register&currency=EUR`, { token: staff() })
    const row = corporate.json.data.find((r: { product_code: string }) => r.product_code === 'domain:com:register')
    expect(row.chain[0]).toMatchObject({ rule_name: 'corporate-margin', level: 'entity-custom', effect: 'applied' })
  })

  it('shows a client its own prices only, in its currency, without costs or rules', async () => {
    const acme = await platform.call('GET', `/groups/${acmeId}/prices?q=domain:com:register`, { token: tokens['admin@acme.example']! })
    expect(acme.status).toBe(200)
    expect(acme.json.currency).toBe('USD')
    expect(acme.json.data[0]).toEqual(expect.objectContaining({ product_code: 'domain:com:register', currency: 'USD' }))
    expect(Object.keys(acme.json.data[0])).not.toContain('cost_minor')
    expect(Object.keys(acme.json.data[0])).not.toContain('chain')
    // Another account's prices: 404, as every other account's data.
    expect((await platform.call('GET', `/groups/${globexId}/prices`, { token: tokens['admin@acme.example']! })).status).toBe(404)
    expect((await platform.call('GET', `/pricing-entities/${await entityId('Retail')}/applicable-rules`, { token: tokens['admin@acme.example']! })).status).toBe(403)
  })

  it("prices a name in the availability check on the account's list, in its currency, not the TLD list price", async () => {
    const listed = (await platform.call('GET', `/groups/${acmeId}/prices?q=domain:com:register`, { token: tokens['admin@acme.example']! })).json.data[0]
    const check = await platform.call('POST', `/groups/${acmeId}/domains/availability`, { token: tokens['admin@acme.example']!, body: { names: ['price-check-17.com'] } })
    expect(check.status).toBe(200)
    expect(check.json.results[0]).toMatchObject({ available: true, price: { minor: listed.price_minor, currency: 'USD' } })
    const tld = await platform.db.selectFrom('tlds').select(['list_price_minor', 'currency']).where('name', '=', 'com').executeTakeFirstOrThrow()
    expect({ minor: Number(tld.list_price_minor), currency: tld.currency.trim() }).not.toEqual(check.json.results[0].price)
  })

  it('previews a rule (old → new, margin), refuses below cost without a reason, overlapping windows and empty selectors', async () => {
    const partner = await entityId('Partner')
    const body = {
      rule_name: 'partner-io',
      pricing_entity_id: partner,
      selector: { tlds: ['io'], actions: ['register'] },
      kind: 'promotion',
      amount: '20.00',
      currency: 'EUR',
      starts_at: '2026-01-01',
      ends_at: '2099-01-01',
    }
    const preview = await platform.call('POST', '/pricing-rules/entity/preview', { token: staff(), body })
    expect(preview.status).toBe(200)
    expect(preview.json).toMatchObject({ changed: 1, below_cost: 1 })
    expect(preview.json.changes[0]).toMatchObject({ product_code: 'domain:io:register', pricing_entity_name: 'Partner', currency: 'EUR', cost_minor: 3430, new_minor: 2099, below_cost: true })
    const refused = await platform.call('POST', '/pricing-rules/entity', { token: staff(), body })
    expect(refused.status).toBe(409)
    expect(refused.json.errors[0]).toMatchObject({ field: 'below_cost_reason', code: 'pricing_rule.below_cost' })
    expect(await platform.db.selectFrom('pricing_rules').select('id').where('rule_name', '=', 'partner-io').execute()).toHaveLength(0)
    const saved = await platform.call('POST', '/pricing-rules/entity', { token: staff(), body: { ...body, below_cost_reason: 'Partner launch' } })
    expect(saved.status).toBe(201)
    const overlap = await platform.call('POST', '/pricing-rules/entity', { token: staff(), body: { ...body, starts_at: '2030-01-01', ends_at: '2100-01-01', below_cost_reason: 'x' } })
    expect(overlap.status).toBe(409)
    expect(overlap.json.errors[0]).toMatchObject({ field: 'starts_at', code: 'pricing_rule.overlap' })
    const nothing = await platform.call('POST', '/pricing-rules/global/preview', { token: staff(), body: { rule_name: 'nothing', selector: { tlds: ['no-such-tld'] }, kind: 'margin', percent: 10 } })
    expect(nothing.status).toBe(400)
    expect(nothing.json.errors[0]).toMatchObject({ field: 'selector', code: 'pricing_rule.selector_matches_nothing' })
    const badMoney = await platform.call('POST', '/pricing-rules/global/preview', {
      token: staff(),
      body: { rule_name: 'bad', selector: { tlds: ['com'] }, kind: 'fixed', amount: '12.999', currency: 'EUR' },
    })
    expect(badMoney.json.errors[0]).toMatchObject({ field: 'amount', code: 'invalidMonetaryValue' })
    const rule = await platform.call('GET', `/pricing-rules/entity/custom/partner-io`, { token: staff() })
    expect(rule.json.data).toHaveLength(1)
    const audit = await platform.db.selectFrom('audit_entries').selectAll().where('area', '=', 'invoicing').where('entity_id', '=', 'entity/custom/partner-io').execute()
    expect(audit.map((a) => a.action)).toEqual(['create'])
  })

  it("the portal's rule and rate forms refuse what the API refuses, beside the same field, and pass what it takes", async () => {
    // The forms' schemas (app/routes/invoicing/pricing-forms.ts) with the words' keys for words: each
    // bad input as posted, and the body the API would be sent without the form's check.
    const t = ((key: string) => key) as unknown as TFunction
    const refusedOn = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => (result.success ? [] : result.error!.issues.map((i) => String(i.path[0])))
    const form = { rule_name: 'agree', tlds: 'es', actions: 'register' }
    const body = { rule_name: 'agree', selector: { tlds: ['es'], actions: ['register'] } }
    const cases: { field: string; typed: Record<string, string>; sent: Record<string, unknown> }[] = [
      { field: 'percent', typed: { kind: 'margin' }, sent: { kind: 'margin', percent: null } },
      { field: 'percent', typed: { kind: 'margin', percent: '-100' }, sent: { kind: 'margin', percent: -100 } },
      { field: 'mode', typed: { kind: 'rounding', mode: 'ends-42' }, sent: { kind: 'rounding', mode: 'ends-42' } },
      { field: 'tiers', typed: { kind: 'volume', tiers: '1:150' }, sent: { kind: 'volume', tiers: [{ min_quantity: 1, percent_off: 150 }] } },
      { field: 'currency', typed: { kind: 'fixed', amount: '9.99', currency: 'XYZ' }, sent: { kind: 'fixed', amount: '9.99', currency: 'XYZ' } },
      { field: 'amount', typed: { kind: 'fixed', amount: '-9.99', currency: 'EUR' }, sent: { kind: 'fixed', amount: '-9.99', currency: 'EUR' } },
      { field: 'ends_at', typed: { kind: 'promotion', amount: '1.00', currency: 'EUR' }, sent: { kind: 'promotion', amount: '1.00', currency: 'EUR' } },
      {
        field: 'ends_at',
        typed: { kind: 'margin', percent: '10', starts_at: '2091-02-01', ends_at: '2091-01-01' },
        sent: { kind: 'margin', percent: 10, starts_at: '2091-02-01', ends_at: '2091-01-01' },
      },
    ]
    const schema = ruleSchema(t, { custom: true, entity: false })
    for (const { field, typed, sent } of cases) {
      expect(refusedOn(schema.safeParse({ ...form, ...typed })), JSON.stringify(typed)).toEqual([field])
      const api = await platform.call('POST', '/pricing-rules/global/preview', { token: staff(), body: { ...body, ...sent } })
      expect(api.status, JSON.stringify(sent)).toBe(400)
      expect(api.json.errors.map((e: { field: string }) => e.field)).toEqual([field])
    }
    const good = schema.safeParse({ ...form, kind: 'margin', percent: '25', starts_at: '2091-01-01', ends_at: '2091-02-01' })
    expect(good.success).toBe(true)
    expect((await platform.call('POST', '/pricing-rules/global/preview', { token: staff(), body: ruleBody(good.data!) })).status).toBe(200)

    const rate = rateSchema(t, 'EUR')
    for (const [to, typed, sent, field] of [
      ['XYZ', '1.1', 1.1, 'to'],
      ['EUR', '1', 1, 'to'],
      ['CHF', '0', 0, 'rate'],
      ['CHF', '1000000000', 1e9, 'rate'],
    ] as const) {
      expect(refusedOn(rate.safeParse({ to, rate: typed }))).toEqual([field])
      const api = await platform.call('PUT', `/currency_rates/EUR/${to}`, { token: staff(), body: { rate: sent } })
      expect(api.status).toBe(400)
      expect(api.json.errors.map((e: { field: string }) => e.field)).toEqual([field])
    }
    expect(rate.safeParse({ to: 'chf', rate: '0,94' })).toMatchObject({ success: true, data: { to: 'CHF', rate: 0.94 } })
  })

  it('changes a window with its version and shows the move; a viewer changes nothing', async () => {
    const com = await productId('domain:com:register')
    const windows = (await platform.call('GET', `/pricing-rules/global/${com}/com-price`, { token: staff() })).json.data
    const patched = await platform.call('PATCH', `/pricing-rules/${windows[0].id}`, {
      token: staff(),
      body: { rule_name: 'com-price', kind: 'fixed', amount: '13.49', currency: 'EUR', version: windows[0].version },
    })
    expect(patched.status).toBe(200)
    expect(patched.json.rule).toMatchObject({ params: { amount_minor: 1349 }, version: windows[0].version + 1 })
    const stale = await platform.call('PATCH', `/pricing-rules/${windows[0].id}`, {
      token: staff(),
      body: { rule_name: 'com-price', kind: 'fixed', amount: '13.99', currency: 'EUR', version: windows[0].version },
    })
    expect(stale.status).toBe(409)
    const viewer = tokens['viewer@acme.example']!
    expect((await platform.call('POST', '/pricing-rules/global', { token: viewer, body: { rule_name: 'v', selector: { tlds: ['com'] }, kind: 'margin', percent: 1 } })).status).toBe(403)
    expect((await platform.call('PATCH', `/pricing-rules/${windows[0].id}`, { token: viewer, body: { rule_name: 'com-price', kind: 'fixed', amount: '1', currency: 'EUR', version: 2 } })).status).toBe(
      403,
    )
    expect((await platform.call('DELETE', `/pricing-rules/${windows[0].id}`, { token: viewer })).status).toBe(403)
    expect((await platform.call('POST', '/pricing-entities', { token: viewer, body: { name: 'x', currencies: ['EUR'] } })).status).toBe(403)
  })

  it("sets EUR rates from the ECB's daily file with its date (previewed first), and refuses a file that is not it", async () => {
    const ecb = (cubes: string, time = '2026-11-20') =>
      `<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><gesmes:subject>Reference rates</gesmes:subject><Cube><Cube time="${time}">${cubes}</Cube></Cube></gesmes:Envelope>`
    const xml = ecb('<Cube currency="USD" rate="1.0823"/><Cube currency="JPY" rate="162.5"/>')
    const preview = await platform.call('POST', '/currency_rates/ecb', { token: staff(), body: { xml } })
    expect(preview.status).toBe(200)
    expect(preview.json).toMatchObject({ date: '2026-11-20', committed: false })
    expect(preview.json.rows.find((r: { to_currency: string }) => r.to_currency === 'USD')).toMatchObject({ rate: 1.0823, previous: 1.08, status: 'changed' })
    const usdBefore = await platform.db.selectFrom('currency_rates').select('rate').where('from_currency', '=', 'EUR').where('to_currency', '=', 'USD').executeTakeFirstOrThrow()
    expect(Number(usdBefore.rate)).toBe(1.08)
    for (const [bad, code] of [
      ['<html/>', 'rates.ecb_not_ecb'],
      ['<gesmes:Envelope', 'rates.ecb_not_xml'],
      [ecb('<Cube currency="USD" rate="-1"/>'), 'rates.ecb_rate'],
      [ecb('<Cube currency="XYZ" rate="1"/>'), 'rates.ecb_currency'],
      [ecb('<Cube currency="USD" rate="1"/>', '2026-13-01'), 'rates.ecb_date'],
    ] as const) {
      const refused = await platform.call('POST', '/currency_rates/ecb', { token: staff(), body: { xml: bad, commit: true } })
      expect(refused.status).toBe(400)
      expect(refused.json.errors[0]).toMatchObject({ field: 'file', code })
    }
    expect((await platform.call('POST', '/currency_rates/ecb', { token: tokens['admin@acme.example']!, body: { xml } })).status).toBe(403)
    const applied = await platform.call('POST', '/currency_rates/ecb', { token: staff(), body: { xml, commit: true } })
    expect(applied.json.committed).toBe(true)
    const page = await platform.call('GET', `/pricing-entities/${await entityId('Retail')}/applicable-rules?q=domain:com:register&limit=5`, { token: staff() })
    const usd = page.json.data.find((r: { product_code: string; currency: string }) => r.product_code === 'domain:com:register' && r.currency === 'USD')
    expect(usd.rates).toEqual([expect.objectContaining({ from: 'EUR', to: 'USD', rate: 1.0823, date: '2026-11-20' })])
    const listed = (await platform.call('GET', '/currency_rates', { token: staff() })).json.data
    expect(listed.find((r: { from_currency: string; to_currency: string }) => r.from_currency === 'EUR' && r.to_currency === 'USD')).toMatchObject({ rate: 1.0823, rate_date: '2026-11-20' })
    const reset = await platform.call('PUT', '/currency_rates/EUR/USD', { token: staff(), body: { rate: 1.08 } }) // as the seed left it
    expect(reset.json).toMatchObject({ rate: 1.08, rate_date: null }) // a rate typed by hand dates itself
    const audit = await platform.db.selectFrom('audit_entries').select('action').where('area', '=', 'invoicing').where('entity_id', '=', 'EUR-ecb-2026-11-20').execute()
    expect(audit.map((a) => a.action)).toEqual(['ecb-upload'])
  })

  it('mails the accounts whose price rises a notice before the window starts, once per change', async () => {
    const retail = await entityId('Retail')
    const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
    // Retail's notice is 30 days: a rise in 40 days is not due yet, one in 10 days is.
    const body = {
      rule_name: 'com-rise-17',
      pricing_entity_id: retail,
      selector: { tlds: ['com'], actions: ['register'] },
      kind: 'fixed',
      amount: '99.00',
      currency: 'EUR',
      starts_at: day(40),
      ends_at: day(400),
    }
    const made = await platform.call('POST', '/pricing-rules/entity', { token: staff(), body })
    expect(made.status).toBe(201)
    const mails: { to: string; subject: string; text: string }[] = []
    const deps = { db: platform.db, logger: createLogger('silent'), now: () => new Date(), mailer: { send: async (m: { to: string; subject: string; text: string }) => void mails.push(m) } }
    expect(await runPriceRiseNotices(deps)).toBe(0)
    const moved = await platform.call('PATCH', `/pricing-rules/${made.json.rule.id}`, {
      token: staff(),
      body: { ...body, pricing_entity_id: undefined, selector: undefined, starts_at: day(10), version: made.json.rule.version },
    })
    expect(moved.status).toBe(200)
    const sent = await runPriceRiseNotices(deps)
    expect(sent).toBeGreaterThan(0)
    const acme = mails.find((m) => m.subject.includes('Acme Corp'))
    expect(acme?.text).toMatch(/domain:com:register\): \$14\.99 → \$/)
    expect(await runPriceRiseNotices(deps)).toBe(0) // once per change
    expect((await platform.call('DELETE', `/pricing-rules/${made.json.rule.id}`, { token: staff() })).status).toBe(204)
  })

  it('says which price list an account is on — the one it names, else the default — to staff only', async () => {
    const before = (await platform.db.selectFrom('accounts').select('pricing_entity_id').where('id', '=', acmeId).executeTakeFirstOrThrow()).pricing_entity_id
    const on = async () => (await platform.call('GET', `/accounts/${acmeId}/pricing-entity`, { token: staff() })).json
    const partner = await entityId('Partner')
    expect((await platform.call('PUT', `/accounts/${acmeId}/pricing-entity`, { token: staff(), body: { pricing_entity_id: partner } })).status).toBe(204)
    expect(await on()).toEqual({ pricing_entity: { id: partner, name: 'Partner', is_default: false }, assigned: true })
    expect((await platform.call('PUT', `/accounts/${acmeId}/pricing-entity`, { token: staff(), body: { pricing_entity_id: null } })).status).toBe(204)
    expect(await on()).toEqual({ pricing_entity: { id: await entityId('Retail'), name: 'Retail', is_default: true }, assigned: false })
    expect((await platform.call('GET', `/accounts/${acmeId}/pricing-entity`, { token: tokens['admin@acme.example']! })).status).toBe(403)
    await platform.call('PUT', `/accounts/${acmeId}/pricing-entity`, { token: staff(), body: { pricing_entity_id: before } })
  })

  it('refuses a price list with a currency that is not one', async () => {
    const bad = await platform.call('POST', '/pricing-entities', { token: staff(), body: { name: 'Odd', currencies: ['XYZ'] } })
    expect(bad.status).toBe(400)
    expect(bad.json.errors[0]).toMatchObject({ field: 'currencies', code: 'currency.invalid' })
  })
})

describe('registrar templates', () => {
  const schema = {
    type: 'object',
    required: ['citizenship'],
    properties: {
      citizenship: { type: 'string', enum: ['AT', 'BE', 'ES'], ui: { widget: 'select', label: { en: 'Citizenship' } } },
      company_number: { type: ['string', 'null'], maxLength: 40, ui: { help: 'For organisations' } },
    },
  }

  it('keeps a JSON Schema with ui keys, refuses one that is not JSON Schema, and is staff work', async () => {
    const made = await platform.call('POST', '/registrar-templates', { token: staff(), body: { name: 'eu-citizenship-test', schema } })
    expect(made.status).toBe(201)
    expect(made.json.schema.properties.citizenship.ui).toEqual({ widget: 'select', label: { en: 'Citizenship' } })
    const bad = await platform.call('POST', '/registrar-templates', { token: staff(), body: { name: 'broken', schema: { type: 'strin' } } })
    expect(bad.status).toBe(400)
    expect(bad.json.errors[0]).toMatchObject({ field: 'schema', code: 'template.schema_invalid' })
    expect(await platform.db.selectFrom('registrar_templates').select('id').where('name', '=', 'broken').execute()).toHaveLength(0)
    expect((await platform.call('GET', '/registrar-templates', { token: tokens['admin@acme.example']! })).status).toBe(403)
    expect((await platform.call('POST', '/registrar-templates', { token: tokens['viewer@acme.example']!, body: { name: 'x', schema } })).status).toBe(403)

    const eu = (await platform.call('GET', `/products/${await productId('domain:eu:register')}`, { token: staff() })).json
    const linked = await platform.call('PATCH', `/products/${eu.id}`, { token: staff(), body: { registrar_template_id: made.json.id, version: eu.version } })
    expect(linked.json.registrar_template_id).toBe(made.json.id)
    const list = await platform.call('GET', `/registrar-templates?pql=${encodeURIComponent("name equals 'eu-citizenship-test'")}`, { token: staff() })
    expect(list.json.data[0]).toMatchObject({ name: 'eu-citizenship-test', products: 1 })
    const changed = await platform.call('PATCH', `/registrar-templates/${made.json.id}`, { token: staff(), body: { schema: { ...schema, required: [] }, version: made.json.version } })
    expect(changed.json.version).toBe(made.json.version + 1)
    const audit = await platform.db.selectFrom('audit_entries').select('action').where('area', '=', 'products').where('entity_id', '=', made.json.id).orderBy('created_at').execute()
    expect(audit.map((a) => a.action)).toEqual(['create', 'update'])
  })
  it('asks the cart for the template of an item, refuses an order whose values do not fit it and keeps them on the order item', async () => {
    await platform.deps.jobs.start({ work: false }) // the order's item jobs are queued, not run
    const acme = tokens['admin@acme.example']!
    const made = (await platform.call('POST', '/registrar-templates', { token: staff(), body: { name: 'eu-cart-test', schema } })).json
    const eu = (await platform.call('GET', `/products/${await productId('domain:eu:register')}`, { token: staff() })).json
    expect((await platform.call('PATCH', `/products/${eu.id}`, { token: staff(), body: { registrar_template_id: made.id, version: eu.version } })).status).toBe(200)
    const asked = await platform.call('GET', `/groups/${acmeId}/registrar-templates/of-products?codes=domain:eu:register,domain:com:register`, { token: acme })
    expect(asked.json.data).toEqual([expect.objectContaining({ product_code: 'domain:eu:register', name: 'eu-cart-test' })])
    const item = await platform.call('POST', `/groups/${acmeId}/cart/items`, { token: acme, body: { name: 'template-test-17.eu', type: 'register', period: 1 } })
    expect(item.status).toBe(201)
    const registrant = (await platform.db.selectFrom('contacts').select('id').where('account_id', '=', acmeId).executeTakeFirstOrThrow()).id
    const checkout = (template_values: Record<string, unknown>) =>
      platform.call('POST', `/groups/${acmeId}/cart/checkout`, { token: acme, body: { contacts: { registrant }, template_values: { [item.json.id]: template_values } } })
    const refused = await checkout({ citizenship: 'FR', extra: 'x' })
    expect(refused.status).toBe(400)
    expect(refused.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([`template_values.${item.json.id}.citizenship`, `template_values.${item.json.id}.extra`])
    expect((await checkout({})).json.errors[0]).toMatchObject({ field: `template_values.${item.json.id}.citizenship`, code: 'template.value_invalid' })
    // The API without the cart checks the same.
    const direct = await platform.call('POST', `/groups/${acmeId}/orders`, { token: acme, body: { items: [{ type: 'register', name: 'template-direct-17.eu', period: 1 }], contacts: { registrant } } })
    expect(direct.status).toBe(400)
    expect(direct.json.errors[0]).toMatchObject({ field: 'items.0.template_values.citizenship', code: 'template.value_invalid' })
    const ordered = await checkout({ citizenship: 'ES', company_number: null })
    expect(ordered.status).toBe(201)
    const kept = await platform.db.selectFrom('order_items').select('template_values').where('order_id', '=', ordered.json.id).executeTakeFirstOrThrow()
    expect(kept.template_values).toEqual({ citizenship: 'ES', company_number: null })
    expect(ordered.json.items[0].template_values).toEqual({ citizenship: 'ES', company_number: null })
  })
})
