import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createProduct, uploadCosts } from '#server/platform/products/service.ts'
import { createOrganisation, markCheck } from '#server/platform/ssl/organisations.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

/**
 * Demo SSL beyond DV (issue 19), through the services the API uses: OV and EV products with what
 * they cost us (priced by the global products margin), Acme's organisation validated by staff
 * (its OV orders go straight to the CA) and Globex's waiting, its documents needing attention.
 */
export async function seedSsl(db: Kysely<DB>, accounts: { acme: string; globex: string }) {
  const scope = systemScope('demo-seed')
  const now = new Date()
  const since = `${now.getUTCFullYear() - 1}-01-01`
  const products: [code: string, name: string, cost: string][] = [
    ['ssl:ov-single:order', 'OV certificate, one name', '35.00'],
    ['ssl:ov-multi:order', 'OV certificate, up to 10 names', '90.00'],
    ['ssl:ev-single:order', 'EV certificate, one name', '120.00'],
  ]
  for (const [code, name] of products) await createProduct(db, scope, { code, name, kind: 'ssl', action: 'order', tags: ['ssl', code.split(':')[1]!.slice(0, 2)], periods: [1, 2] })
  await uploadCosts(db, scope, ['code,currency,amount,effective_from', ...products.map(([code, , cost]) => `${code},EUR,${cost},${since}`)].join('\n'), true, now)

  // Only the database and the clock: the organisations' service needs nothing else here (no order waits on them yet).
  const deps = { db, now: () => new Date() } as unknown as PlatformDeps
  const acme = await createOrganisation(deps, systemScope('demo-seed', accounts.acme), {
    legal_name: 'Acme Corporation',
    registration_number: 'C0806592',
    street1: '100 Market Street',
    city: 'San Francisco',
    region: 'California',
    postcode: '94105',
    country: 'US',
    phone: '+1 415 555 0100',
    approver_name: 'Ada Admin',
    approver_email: 'admin@acme.example',
    // EV details: incorporated in California (decision 401).
    jurisdiction_country: 'US',
    jurisdiction_state: 'California',
    business_category: 'private_organization',
    incorporation_date: '1998-03-12',
  })
  for (const check of ['organisation', 'agreement', 'documents', 'callback', 'approver'] as const)
    await markCheck(deps, systemScope('demo-seed'), acme.id, check, { state: 'validated', note: check === 'callback' ? 'Called +1 415 555 0100 (listed number)' : '' })
  const globex = await createOrganisation(deps, systemScope('demo-seed', accounts.globex), {
    legal_name: 'Globex Ibérica S.L.',
    registration_number: 'B12345678',
    street1: 'Calle de Alcalá 42',
    city: 'Madrid',
    postcode: '28014',
    country: 'ES',
    phone: '+34 910 000 000',
    approver_name: 'Gil Admin',
    approver_email: 'admin@globex.example',
  })
  await markCheck(deps, systemScope('demo-seed'), globex.id, 'organisation', { state: 'validated', note: 'Registro Mercantil de Madrid' })
  await markCheck(deps, systemScope('demo-seed'), globex.id, 'documents', { state: 'attention', note: 'Upload the deed of incorporation (escritura de constitución)' })
}
