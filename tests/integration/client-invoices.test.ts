import { execFileSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '#server/lib/logger.ts'
import type { LocalRegistryServer } from '#server/integrations/registry/index.ts'
import { loadConfig } from '#server/config.ts'
import { DEMO_SELLER, ibanValid, sellerOf } from '#server/platform/billing/seller.ts'
import { seedDemoInvoices } from '#server/seed/billing.ts'
import { DEMO_PASSWORD, seedDemo, seedDemoRenewalCharges } from '#server/seed/demo.ts'
import { preloadDemoRegistry } from '#server/seed/registry.ts'
import { en16931Failures } from '#tests/support/en16931.ts'
import { localRegistryConnection, type LocalRegistryConnection } from '#tests/support/local-registry.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

/**
 * A client's invoices (issue 28): the demo seeds last month's run over its renewals of last month,
 * so each client has issued invoices; a client lists the documents of the entity paying for its
 * account (the list engine's), downloads each as PDF and XML, never another account's; an invoice
 * says how to pay it (the seller's bank account from configuration, on the PDF and in the UBL).
 */
const US = { id: 'registrar-portal', password: 'portal-secret-1' }
let local: LocalRegistryConnection
let registry: LocalRegistryServer
let platform: Awaited<ReturnType<typeof createTestPlatform>>
const tokens: Record<string, string> = {}
let acmeId = ''
let globexId = ''
let staffHome = ''
const lastMonth = () => {
  const now = new Date()
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7)
}
type Row = { id: string; number: string; kind: string; period: string; total_text: string; due_at: string | null; status: string; billing_entity_id: string }

beforeAll(async () => {
  local = await localRegistryConnection({ client: US, policy: { tlds: { com: { createYears: [1, 2], renewYears: [1, 2], transferYears: [1] } }, addGraceDays: 0 }, sessions: 1 })
  registry = local.registry
  const registries = local.registries
  platform = await createTestPlatform({ registries })
  // As the server seeds on its first start: the demo, its registry, its renewals, then the jobs and last month's run.
  await seedDemo(platform.db, createLogger('silent'), { domainsPerAccount: [3, 2] })
  await preloadDemoRegistry(platform.db, { ...registries, local: registry, clientId: US.id }, createLogger('silent'))
  expect(await seedDemoRenewalCharges(platform.deps)).toEqual({ renewed: 2, refused: 1 })
  await platform.deps.jobs.start({ work: true })
  expect(await seedDemoInvoices(platform.deps)).toBe(2)
  for (const email of ['staff@example.com', 'admin@acme.example', 'admin@globex.example']) {
    tokens[email] = (await platform.call('POST', '/login', { body: { username: email, password: DEMO_PASSWORD } })).json.access_token
  }
  acmeId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  globexId = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Globex').executeTakeFirstOrThrow()).id
  staffHome = (await platform.call('GET', '/me', { token: tokens['staff@example.com']! })).json.group_id
}, 120_000)
afterAll(async () => {
  await platform?.close()
  await local?.close()
})

const acme = () => tokens['admin@acme.example']!
const globex = () => tokens['admin@globex.example']!
const entityOf = async (accountId: string) => (await platform.db.selectFrom('accounts').select('billing_entity_id').where('id', '=', accountId).executeTakeFirstOrThrow()).billing_entity_id!
const list = async (context: string, token: string, query = '') => {
  const answer = await platform.call('GET', `/groups/${context}/invoices${query}`, { token })
  expect(answer.status).toBe(200)
  return answer.json.data as Row[]
}
const pdfText = (bytes: ArrayBuffer) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-invoice-'))
  writeFileSync(path.join(dir, 'invoice.pdf'), Buffer.from(bytes))
  return execFileSync('pdftotext', ['-layout', path.join(dir, 'invoice.pdf'), '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ')
}

describe("a client's invoices", () => {
  it("the demo's run of last month issued each client an invoice of its renewals of last month, recorded as staff's run is", async () => {
    const run = await platform.db.selectFrom('invoice_runs').selectAll().where('period', '=', `${lastMonth()}-01`).executeTakeFirstOrThrow()
    expect(run.state).toBe('completed')
    for (const [context, token] of [
      [acmeId, acme()],
      [globexId, globex()],
    ] as const) {
      const rows = await list(context, token)
      expect(rows.filter((r) => r.kind === 'invoice' && r.period === lastMonth())).toHaveLength(1)
    }
    // The month cannot be run again by staff (the seed ran it as they do).
    const again = await platform.call('POST', `/groups/${staffHome}/invoice-runs`, { token: tokens['staff@example.com']!, body: { period: lastMonth() } })
    expect(again.json.code).toBe('billing.run_done')
  })

  it("lists the documents of the entity paying for its account only, whatever the filter; staff in their own group see every entity's", async () => {
    const [acmeEntity, globexEntity] = [await entityOf(acmeId), await entityOf(globexId)]
    const own = await list(acmeId, acme())
    expect(own.length).toBeGreaterThan(0)
    expect(new Set(own.map((r) => r.billing_entity_id))).toEqual(new Set([acmeEntity]))
    expect(own[0]).toMatchObject({ kind: 'invoice', status: expect.stringMatching(/^(issued|sent)$/), total_text: expect.stringMatching(/^USD \d+\.\d{2}$/) })
    expect(own[0]!.due_at).not.toBeNull()
    // Tenancy: Globex's entity named in Acme's list finds nothing, in the filter or the query language.
    expect(await list(acmeId, acme(), `?pql=${encodeURIComponent(`billing_entity_id equals '${globexEntity}'`)}`)).toEqual([])
    expect(await list(acmeId, acme(), `?pql=${encodeURIComponent(`billing_entity.name contains 'Globex'`)}`)).toEqual([])
    expect((await list(acmeId, acme(), `?pql=${encodeURIComponent(`billing_entity_id equals '${acmeEntity}'`)}`)).length).toBe(own.length)
    // Another account's context is not the client's.
    expect((await platform.call('GET', `/groups/${globexId}/invoices`, { token: acme() })).status).toBe(404)
    const all = await list(staffHome, tokens['staff@example.com']!)
    expect(new Set(all.map((r) => r.billing_entity_id))).toEqual(new Set([acmeEntity, globexEntity]))
  })

  it("downloads its own invoice's PDF, which says how to pay it (the seller's IBAN and BIC); another account's invoice is 404", async () => {
    const [invoice] = (await list(acmeId, acme())).filter((r) => r.kind === 'invoice')
    const pdf = await platform.api.fetch(new Request(`http://platform.test/v1/groups/${acmeId}/invoices/${invoice!.id}/pdf`, { headers: { authorization: `Bearer ${acme()}` } }))
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    const bytes = await pdf.arrayBuffer()
    expect(Buffer.from(bytes).subarray(0, 5).toString()).toBe('%PDF-')
    const text = pdfText(bytes)
    expect(text).toContain(`Please pay by bank transfer by ${invoice!.due_at!.slice(0, 10)}, quoting ${invoice!.number}.`)
    expect(text).toContain('Account holder: Registrar Operations B.V. · IBAN: NL91 ABNA 0417 1643 00 · BIC: ABNANL2A · ABN AMRO Bank N.V.')
    // In the entity's language: Globex's invoice in Spanish.
    const [theirs] = (await list(globexId, globex())).filter((r) => r.kind === 'invoice')
    const spanish = await platform.api.fetch(new Request(`http://platform.test/v1/groups/${globexId}/invoices/${theirs!.id}/pdf`, { headers: { authorization: `Bearer ${globex()}` } }))
    expect(pdfText(await spanish.arrayBuffer())).toContain(`Pague por transferencia bancaria antes del ${theirs!.due_at!.slice(0, 10)}, indicando ${theirs!.number}.`)
    // Another account's document, in either format: not found.
    for (const format of ['pdf', 'xml']) expect((await platform.call('GET', `/groups/${acmeId}/invoices/${theirs!.id}/${format}`, { token: acme() })).status).toBe(404)
  })

  it('names the payment account in the e-invoice (BG-16/BG-17: credit transfer, IBAN, BIC), and EN 16931 holds', async () => {
    const [own] = (await list(acmeId, acme())).filter((r) => r.kind === 'invoice')
    const [theirs] = (await list(globexId, globex())).filter((r) => r.kind === 'invoice')
    const usd = (await platform.call('GET', `/groups/${acmeId}/invoices/${own!.id}/xml`, { token: acme() })).text
    const eur = (await platform.call('GET', `/groups/${globexId}/invoices/${theirs!.id}/xml`, { token: globex() })).text
    const means = (xml: string) => new XMLParser({ ignoreAttributes: false }).parse(xml).Invoice['cac:PaymentMeans']
    expect(means(usd)).toEqual({
      'cbc:PaymentMeansCode': 30,
      'cbc:PaymentID': own!.number,
      'cac:PayeeFinancialAccount': { 'cbc:ID': 'NL91ABNA0417164300', 'cbc:Name': 'Registrar Operations B.V.', 'cac:FinancialInstitutionBranch': { 'cbc:ID': 'ABNANL2A' } },
    })
    // In euros, a SEPA credit transfer.
    expect(means(eur)['cbc:PaymentMeansCode']).toBe(58)
    expect(en16931Failures({ usd, eur })).toEqual({ usd: [], eur: [] })
  })
})

describe("the seller's bank account", () => {
  it('is configuration: an IBAN whose check digits fail or a BIC not of its shape stops the server at start; unset, the demo account', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'seller-bank-'))
    const base = { DATA_DIR: dir, SESSION_SECRET: 'k3y-0f-the-b1lling-t3st-s3ss10ns-XYZqwv', SSL_KEY_SECRET: 'k3y-0f-the-b1lling-t3st-s3al1ng-XYZqwv' }
    expect(() => loadConfig({ ...base, SELLER_IBAN: 'NL91ABNA0417164301' })).toThrow(/SELLER_IBAN: NL91ABNA0417164301 is not an IBAN/)
    expect(() => loadConfig({ ...base, SELLER_BIC: 'ABN-NL2A' })).toThrow(/SELLER_BIC: ABN-NL2A is not a BIC/)
    expect(sellerOf(loadConfig(base))).toMatchObject({ iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', bank_name: 'ABN AMRO Bank N.V.' })
    expect(sellerOf(loadConfig({ ...base, SELLER_IBAN: 'de89 3704 0044 0532 0130 00', SELLER_BIC: 'cobadeffxxx', SELLER_BANK_NAME: 'Commerzbank' }))).toEqual({
      ...DEMO_SELLER,
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      bank_name: 'Commerzbank',
    })
    expect([ibanValid('GB82 WEST 1234 5698 7654 32'), ibanValid('GB82 WEST 1234 5698 7654 33'), ibanValid('NL91')]).toEqual([true, false, false])
  })
})
