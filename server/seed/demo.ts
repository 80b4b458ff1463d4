import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { Logger } from '#server/lib/logger.ts'
import { createAccount } from '#server/platform/accounts/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { applyChangeSet, createZone, type Change } from '#server/platform/dns/service.ts'
import { addManagedDomains } from '#server/platform/domains/service.ts'
import type { LifecycleDeps } from '#server/platform/domains/lifecycle.ts'
import { setRate } from '#server/platform/pricing/rates.ts'
import { importIanaTlds, offerTld } from '#server/platform/tlds/service.ts'
import { createUser } from '#server/platform/users/service.ts'
import { seedDirectory } from './directory.ts'
import { seedPricing } from './pricing.ts'
import { seedBilling, seedDemoRenewals } from './billing.ts'
import { seedSsl } from './ssl.ts'

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

/** True when the database has no account yet (a fresh install). */
export async function isEmpty(db: Kysely<DB>): Promise<boolean> {
  return !(await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst())
}

/**
 * The demo world, made through the same services the API uses: a registrar with its staff user,
 * Acme Corp (admin and viewer) and Globex (admin), all with the demo password, the TLD catalogue
 * and a few hundred domains per client account.
 */
export async function seedDemo(db: Kysely<DB>, logger: Logger, options: { domainsPerAccount?: [number, number]; now?: Date } = {}) {
  const [acmeCount, globexCount] = options.domainsPerAccount ?? [320, 180]
  const now = options.now ?? new Date()
  const scope = systemScope('demo-seed')
  await importIanaTlds(db, scope)
  for (const offer of OFFERED) await offerTld(db, scope, { ...offer, currency: offer.name === 'jp' ? 'JPY' : 'EUR', ...(offer.name === 'jp' ? { list_price_minor: 3900 } : {}) })
  // Acme is billed in USD, the TLDs are priced in EUR and JPY: the rates that convert them (staff keep them, PUT /v1/currency_rates).
  const rates: [string, string, number][] = [
    ['EUR', 'USD', 1.08],
    ['JPY', 'USD', 0.0067],
    ['JPY', 'EUR', 0.0062],
    ['EUR', 'JPY', 162],
    ['USD', 'EUR', 0.93],
    ['USD', 'JPY', 150],
  ]
  for (const [from, to, rate] of rates) await setRate(db, scope, from, to, rate)

  const registrar = await createAccount(db, scope, { name: 'Registrar Operations', is_registrar: true })
  const acme = await createAccount(db, scope, { name: 'Acme Corp', currency: 'USD' })
  const globex = await createAccount(db, scope, { name: 'Globex', currency: 'EUR', language: 'es' })

  await createUser(db, scope, { account_id: registrar.id, email: 'staff@example.com', name: 'Sam Staff', password: DEMO_PASSWORD, roles: [...DEMO_ROLES.staff] })
  await createUser(db, scope, { account_id: acme.id, email: 'admin@acme.example', name: 'Ada Admin', password: DEMO_PASSWORD, roles: [...DEMO_ROLES.clientAdmin] })
  await createUser(db, scope, { account_id: acme.id, email: 'viewer@acme.example', name: 'Vic Viewer', password: DEMO_PASSWORD, roles: [...DEMO_ROLES.clientViewer] })
  await createUser(db, scope, { account_id: globex.id, email: 'admin@globex.example', name: 'Gil Admin', password: DEMO_PASSWORD, roles: [...DEMO_ROLES.clientAdmin], language: 'es' })

  await addManagedDomains(db, systemScope('demo-seed', acme.id), demoDomains('acme', acmeCount, now))
  await addManagedDomains(db, systemScope('demo-seed', globex.id), demoDomains('globex', globexCount, now))
  await seedDirectory(db)
  await seedPricing(db, { corporate: [globex.id] })
  await seedBilling(db, { acme: acme.id, globex: globex.id })
  await seedSsl(db, { acme: acme.id, globex: globex.id })
  logger.info('demo data seeded', { accounts: 3, users: 4, domains: acmeCount + globexCount })
}

/**
 * The demo's charges, from real renewals at the registry (once it holds the seeded domains:
 * `preloadDemoRegistry`), leaving the quiet domains alone.
 */
export const seedDemoRenewalCharges = (deps: LifecycleDeps) => seedDemoRenewals(deps, Object.values(QUIET_DEMO_DOMAINS).flat())

/**
 * Demo domains these specs and a person can rely on being left alone by the seed's variety: active
 * .com registrations of years ago, expiring months from now, auto-renew off, no zone, no tags.
 */
export const QUIET_DEMO_DOMAINS = { acme: ['acme-archive.com', 'acme-legacy.com'], globex: ['globex-archive.com'] } as const

// Products, services and campaigns a corporate portfolio names. Deterministic: two seeds of one
// size give one portfolio.
const WORDS = [
  '',
  'corp',
  'cloud',
  'labs',
  'store',
  'pay',
  'mail',
  'careers',
  'events',
  'news',
  'support',
  'dev',
  'app',
  'hq',
  'group',
  'global',
  'direct',
  'online',
  'shop',
  'tools',
  'health',
  'energy',
  'travel',
  'foods',
  'media',
  'security',
  'insights',
  'ventures',
  'studio',
  'academy',
  'rewards',
  'partners',
]
const CAMPAIGN = new Set(['events', 'rewards', 'news', 'shop'])
// Labels under .рф are Cyrillic: the stem spelled in Cyrillic letters.
const CYRILLIC: Record<string, string> = {
  a: 'а',
  b: 'б',
  c: 'к',
  d: 'д',
  e: 'е',
  f: 'ф',
  g: 'г',
  h: 'х',
  i: 'и',
  j: 'ж',
  k: 'к',
  l: 'л',
  m: 'м',
  n: 'н',
  o: 'о',
  p: 'п',
  q: 'к',
  r: 'р',
  s: 'с',
  t: 'т',
  u: 'у',
  v: 'в',
  w: 'в',
  x: 'кс',
  y: 'й',
  z: 'з',
  '-': '-',
}
const cyrillic = (label: string) => [...label].map((ch) => CYRILLIC[ch] ?? ch).join('')

/** A small deterministic hash in [0, 1) of a text (FNV-1a), for the seed's variety. */
function unit(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  // MurmurHash3's finaliser: near names (acme-pay.com, acme-pay.net) land far apart.
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32
}

/** The stems of a portfolio in order: the brand, its products, then more forms of both. */
function* demoStems(brand: string): Generator<{ stem: string; core: boolean }> {
  for (let round = 0; ; round++) {
    for (const [w, word] of WORDS.entries()) {
      if (word === '') yield { stem: [brand, `${brand}inc`, `my${brand}`, `go${brand}`, `the${brand}`][round % 5]! + (round >= 5 ? String(round) : ''), core: round === 0 }
      else
        yield {
          stem:
            round === 0
              ? w % 2
                ? `${brand}-${word}`
                : `${brand}${word}`
              : round === 1
                ? w % 2
                  ? `${brand}${word}`
                  : `${brand}-${word}`
                : round === 2
                  ? `get${brand}${word}`
                  : `${brand}${word}${round}`,
          core: false,
        }
    }
  }
}

/**
 * The portfolio's names in order. A small one (a test's) is .com names, which every test registry
 * serves. A demo-sized one is what a corporate portfolio holds: the brand in every offered TLD (in
 * Cyrillic under .рф), the quiet names, then each product in .com and in a few other TLDs.
 */
function demoNames(brand: string, count: number): string[] {
  const names: string[] = []
  const stems = demoStems(brand)
  if (count <= 20) {
    while (names.length < count) names.push(`${stems.next().value!.stem}.com`)
    return names
  }
  const tlds = OFFERED.map((o) => o.name)
  const quiet: string[] = [...(QUIET_DEMO_DOMAINS[brand as keyof typeof QUIET_DEMO_DOMAINS] ?? [])]
  const room = count - quiet.length
  while (names.length < room) {
    const { stem, core } = stems.next().value!
    for (const tld of tlds) {
      const keep = core || tld === 'com' || (tld !== 'xn--p1ai' && unit(`${stem}.${tld}`) < 0.3)
      const name = tld === 'xn--p1ai' ? `${cyrillic(stem)}.рф` : `${stem}.${tld}`
      if (keep && !quiet.includes(name) && names.length < room) names.push(name)
    }
  }
  names.splice(Math.min(tlds.length, names.length), 0, ...quiet)
  return names
}

const DAY = 86_400_000

/**
 * The demo portfolio as of `now`: most registrations renew months to years ahead; some expire in
 * the next 30/60/90 days (a few with auto-renew off), a few expired days ago and wait in their grace
 * period. Created a whole number of years before the expiry, at least a year ago.
 */
export function demoDomains(brand: string, count: number, now: Date) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const quiet = new Set<string>(QUIET_DEMO_DOMAINS[brand as keyof typeof QUIET_DEMO_DOMAINS] ?? [])
  return demoNames(brand, count).map((name, i) => {
    const r = unit(`${name}:expiry`)
    const quietOne = quiet.has(name)
    // Days to the expiry: 4 % expired up to 25 days ago, 5 % within 30 days, 5 % in 31–60, 5 % in 61–90, the rest 91 days to 3 years.
    const days = quietOne
      ? 200 + i * 60
      : r < 0.04
        ? -1 - Math.floor((r / 0.04) * 25)
        : r < 0.09
          ? 1 + Math.floor(((r - 0.04) / 0.05) * 29)
          : r < 0.14
            ? 31 + Math.floor(((r - 0.09) / 0.05) * 29)
            : r < 0.19
              ? 61 + Math.floor(((r - 0.14) / 0.05) * 29)
              : 91 + Math.floor(((r - 0.19) / 0.81) * 1000)
    const expires = today + days * DAY
    const years = Math.max(1, Math.ceil((expires - today) / (365 * DAY))) + Math.floor(unit(`${name}:age`) * 6)
    const created = new Date(expires)
    created.setUTCFullYear(created.getUTCFullYear() - years)
    const core = name.startsWith(`${brand}.`) || name.startsWith(`${cyrillic(brand)}.`)
    const stem = name.split('.')[0]!
    return {
      name,
      expires_at: new Date(expires),
      created_at: created,
      auto_renew: quietOne ? false : core || unit(`${name}:renew`) > 0.22,
      registry_lock: !quietOne && core && ['com', 'net', 'org'].includes(name.split('.').pop()!),
      dnssec: !quietOne && unit(`${name}:dnssec`) < 0.3,
      tags: quietOne ? [] : core ? ['brand'] : [...CAMPAIGN].some((word) => stem.endsWith(word)) ? ['campaign'] : unit(`${name}:tag`) < 0.15 ? ['defensive'] : [],
    }
  })
}

/** How each demo account runs its mail and web: Acme on Google Workspace, Globex on Microsoft 365. */
const HOSTING: Record<string, { v4: string; v6: string; mail: (zone: string) => Change[] }> = {
  'Acme Corp': {
    v4: '192.0.2.',
    v6: '2001:db8:ac::',
    mail: () => [
      ...['1 aspmx.l.google.com.', '5 alt1.aspmx.l.google.com.', '5 alt2.aspmx.l.google.com.'].map((content) => ({ action: 'add' as const, name: '@', type: 'MX', content })),
      { action: 'add', name: '@', type: 'TXT', content: '"v=spf1 include:_spf.google.com ~all"' },
    ],
  },
  Globex: {
    v4: '198.51.100.',
    v6: '2001:db8:610::',
    mail: (zone) => [
      { action: 'add', name: '@', type: 'MX', content: `0 ${zone.replace(/\./g, '-')}.mail.protection.outlook.com.` },
      { action: 'add', name: '@', type: 'TXT', content: '"v=spf1 include:spf.protection.outlook.com -all"' },
      { action: 'add', name: 'autodiscover', type: 'CNAME', content: 'autodiscover.outlook.com.' },
    ],
  },
}

/**
 * Zones for most demo domains, made through the DNS service as a person would make them (the zone,
 * then one change set of records), each queued for publishing: with a PowerDNS configured, the demo
 * serves them. Left without a zone: the quiet domains, the defensive registrations and those
 * expired, as a portfolio's parked names are.
 */
export async function seedDemoZones(deps: PlatformDeps, logger: Logger = deps.logger) {
  const quiet = new Set<string>(Object.values(QUIET_DEMO_DOMAINS).flat())
  const domains = await deps.db
    .selectFrom('domains')
    .innerJoin('accounts', 'accounts.id', 'domains.account_id')
    .leftJoin('dns_zones', 'dns_zones.domain_id', 'domains.id')
    .select(['domains.id', 'domains.name', 'domains.account_id', 'domains.tags', 'domains.expires_at', 'accounts.name as account'])
    .where('dns_zones.id', 'is', null)
    .where('domains.status', '<>', 'deleted')
    .orderBy('domains.name')
    .execute()
  const now = deps.now().getTime()
  let zones = 0
  for (const domain of domains) {
    const hosting = HOSTING[domain.account]
    if (!hosting || quiet.has(domain.name) || domain.tags.includes('defensive') || (domain.expires_at && domain.expires_at.getTime() < now)) continue
    const scope = systemScope('demo-seed', domain.account_id)
    const zone = await createZone(deps, scope, { domain_id: domain.id })
    const host = 10 + Math.floor(unit(`${domain.name}:web`) * 200)
    const changes: Change[] = [
      { action: 'add', name: '@', type: 'A', content: `${hosting.v4}${host}` },
      { action: 'add', name: 'www', type: 'CNAME', content: `${zone.name}.` },
      ...hosting.mail(zone.name),
      { action: 'add', name: '_dmarc', type: 'TXT', content: `"v=DMARC1; p=quarantine; rua=mailto:dmarc@${zone.name}"` },
      { action: 'add', name: '@', type: 'CAA', content: '0 issue "letsencrypt.org"' },
    ]
    if (unit(`${domain.name}:v6`) < 0.5) changes.push({ action: 'add', name: '@', type: 'AAAA', content: `${hosting.v6}${host.toString(16)}` })
    if (domain.tags.includes('brand'))
      changes.push({ action: 'add', name: 'shop', type: 'CNAME', content: 'shops.myshopify.com.' }, { action: 'add', name: 'status', type: 'CNAME', content: 'stats.uptimerobot.com.' })
    await applyChangeSet(deps, scope, zone.id, { changes })
    zones++
  }
  logger.info('demo zones created', { zones })
  return { zones }
}
