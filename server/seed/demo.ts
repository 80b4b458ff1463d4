import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { Logger } from '#server/lib/logger.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { addManagedDomains } from '#server/platform/domains/service.ts'
import { setRate } from '#server/platform/orders/pricing.ts'
import { importIanaTlds, offerTld } from '#server/platform/tlds/service.ts'
import { createUser } from '#server/platform/users/service.ts'
import { seedDirectory } from './directory.ts'
import { seedPricing } from './pricing.ts'

export const DEMO_PASSWORD = 'portal-demo-2026'

export const DEMO_ROLES = {
  staff: ['staff'],
  clientAdmin: ['account-admin', 'user-admin', 'domain-admin', 'dns-admin', 'ssl-admin', 'contact-admin', 'invoice-viewer'],
  clientViewer: ['account-viewer', 'user-viewer', 'domain-viewer', 'dns-viewer', 'ssl-viewer', 'contact-viewer', 'invoice-viewer'],
} as const

const OFFERED = [
  { name: 'com', list_price_minor: 1299, registry_operator: 'VeriSign' },
  { name: 'net', list_price_minor: 1499, registry_operator: 'VeriSign' },
  { name: 'org', list_price_minor: 1399, registry_operator: 'Public Interest Registry' },
  { name: 'io', list_price_minor: 4900, registry_operator: 'Identity Digital' },
  { name: 'de', list_price_minor: 899, registry_operator: 'DENIC' },
  { name: 'es', list_price_minor: 999, registry_operator: 'Red.es' },
  { name: 'jp', list_price_minor: 3900, registry_operator: 'JPRS' },
  { name: 'eu', list_price_minor: 899, registry_operator: 'EURid' },
  { name: 'shop', list_price_minor: 2999, registry_operator: 'GMO Registry' },
  { name: 'xn--p1ai', list_price_minor: 1200, registry_operator: 'Coordination Center for TLD RU' },
] as const

const WORDS = ['acme', 'rocket', 'anvil', 'falcon', 'harbor', 'summit', 'cedar', 'orbit', 'pixel', 'quartz', 'nova', 'delta', 'ember', 'lumen', 'atlas', 'vertex', 'meadow', 'cobalt', 'zephyr', 'granite']
const SUFFIXES = ['', '-shop', '-labs', '-cloud', '-group', '-online', '-store', '-direct', '-global', '-mail']

/** True when the database has no account yet (a fresh install). */
export async function isEmpty(db: Kysely<DB>): Promise<boolean> {
  return !(await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst())
}

/**
 * The demo world, made through the same services the API uses: a registrar with its staff user,
 * Acme Corp (admin and viewer) and Globex (admin), all with the demo password, the TLD catalogue
 * and a few hundred domains per client account.
 */
export async function seedDemo(db: Kysely<DB>, logger: Logger, options: { domainsPerAccount?: [number, number] } = {}) {
  const [acmeCount, globexCount] = options.domainsPerAccount ?? [320, 180]
  const scope = systemScope('demo-seed')
  await importIanaTlds(db, scope)
  for (const offer of OFFERED) await offerTld(db, scope, { ...offer, currency: offer.name === 'jp' ? 'JPY' : 'EUR', ...(offer.name === 'jp' ? { list_price_minor: 3900 } : {}) })
  // Acme is billed in USD, the TLDs are priced in EUR and JPY: the rates that convert them (staff keep them, PUT /v1/currency_rates).
  const rates: [string, string, number][] = [['EUR', 'USD', 1.08], ['JPY', 'USD', 0.0067], ['JPY', 'EUR', 0.0062], ['EUR', 'JPY', 162], ['USD', 'EUR', 0.93], ['USD', 'JPY', 150]]
  for (const [from, to, rate] of rates) await setRate(db, scope, from, to, rate)

  const registrar = await createAccount(db, scope, { name: 'Registrar Operations', is_registrar: true })
  const acme = await createAccount(db, scope, { name: 'Acme Corp', currency: 'USD' })
  const globex = await createAccount(db, scope, { name: 'Globex', currency: 'EUR', language: 'es' })

  await createUser(db, scope, { account_id: registrar.id, email: 'staff@example.com', name: 'Sam Staff', password: DEMO_PASSWORD, roles: [...DEMO_ROLES.staff] })
  await createUser(db, scope, { account_id: acme.id, email: 'admin@acme.example', name: 'Ada Admin', password: DEMO_PASSWORD, roles: [...DEMO_ROLES.clientAdmin] })
  await createUser(db, scope, { account_id: acme.id, email: 'viewer@acme.example', name: 'Vic Viewer', password: DEMO_PASSWORD, roles: [...DEMO_ROLES.clientViewer] })
  await createUser(db, scope, { account_id: globex.id, email: 'admin@globex.example', name: 'Gil Admin', password: DEMO_PASSWORD, roles: [...DEMO_ROLES.clientAdmin], language: 'es' })

  await addManagedDomains(db, systemScope('demo-seed', acme.id), demoDomains('acme', acmeCount))
  await addManagedDomains(db, systemScope('demo-seed', globex.id), demoDomains('globex', globexCount))
  await seedDirectory(db)
  await seedPricing(db, { corporate: [globex.id] })
  logger.info('demo data seeded', { accounts: 3, users: 4, domains: acmeCount + globexCount })
}

// Deterministic, so two seeds of the same size give the same portfolio.
function demoDomains(prefix: string, count: number) {
  const tlds = OFFERED.map((o) => o.name)
  const day = 86_400_000
  const base = Date.UTC(2026, 0, 1)
  return Array.from({ length: count }, (_, i) => {
    const word = WORDS[i % WORDS.length]!
    const suffix = SUFFIXES[Math.floor(i / WORDS.length) % SUFFIXES.length]!
    const tld = tlds[Math.floor(i / (WORDS.length * SUFFIXES.length)) % tlds.length]!
    const label = tld === 'xn--p1ai' ? `${prefix}-${word}${suffix}` : `${prefix}-${word}${suffix}`
    return {
      name: `${label}.${tld}`,
      expires_at: new Date(base + ((i * 37) % 730) * day),
      // At least a year before the expiry: the registry holds the same dates (server/seed/registry.ts).
      created_at: new Date(base - (365 + ((i * 53) % 1500)) * day),
      auto_renew: i % 4 !== 0,
      registry_lock: i % 9 === 0,
      dnssec: i % 3 === 0,
      tags: i % 5 === 0 ? ['brand'] : i % 7 === 0 ? ['campaign'] : [],
    }
  })
}
