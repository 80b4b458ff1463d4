import { sql, type Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import { makeCertificate, makeIssuer, type LocalCtLog } from '#server/integrations/ct/index.ts'
import { runCtMonitor } from '#server/platform/brand/feeds.ts'
import { checkCandidates, createBrand } from '#server/platform/brand/service.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { createUser } from '#server/platform/users/service.ts'
import { DEMO_PASSWORD } from './demo.ts'

/**
 * The demo's brand protection (issue 30), made through the brand area's services on the first start
 * (not by the tests' `seedDemo`): Acme's brand manager, brand@acme.example, and the brand `acme`
 * protecting acme.com, its lookalikes made by every fuzzer over the TLDs on sale and the 40 closest
 * checked with its TLD swaps — Acme's own names among them are "ours", the rest available at Acme's price.
 */
export async function seedDemoBrands(db: Kysely<DB>, now = new Date()) {
  const acme = await db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirst()
  if (!acme) return
  const scope = systemScope('demo-seed', acme.id)
  await createUser(db, scope, { account_id: acme.id, email: 'brand@acme.example', name: 'Bea Brand', password: DEMO_PASSWORD, roles: ['brand-admin', 'domain-manager'] })
  const brand = await createBrand({ db, now: () => now }, scope, { label: 'acme', domains: ['acme.com'] })
  const closest = await db.selectFrom('brand_candidates').select('id').where('brand_id', '=', brand.id).orderBy('score', 'desc').orderBy('name').limit(40).execute()
  const swapped = await db
    .selectFrom('brand_candidates')
    .select('id')
    .where('brand_id', '=', brand.id)
    .where(sql<boolean>`${'tld-swap'} = ANY(fuzzers)`)
    .limit(40)
    .execute()
  const ids = [...new Set([...closest, ...swapped].map((c) => c.id))]
  await checkCandidates({ db, now: () => now }, scope, ids, null)
}

/**
 * The demo's Certificate Transparency (issue 30): a few certificates for lookalikes of Acme's brand
 * (and one for its own name) logged in the local CT log by a CA of its own, then one run of the
 * monitor, so the candidates it found show their certificates and are flagged new.
 */
export async function seedDemoCertificates(deps: Pick<PlatformDeps, 'db' | 'now' | 'logger' | 'brandFeeds'>, log: LocalCtLog) {
  const ca = makeIssuer('Demo Issuing CA')
  const logged: [string[], boolean][] = [
    [['acme-login.com', 'www.acme-login.com'], false],
    [['secure-acme.net'], true],
    [['acmee.com'], false],
    [['*.acrne.com', 'acrne.com'], false],
    [['acme.com', 'www.acme.com'], false],
    [['unrelated-shop.net'], false],
  ]
  for (const [names, precertificate] of logged) log.add([makeCertificate(ca, names, { precertificate }), ca.certificate], { precertificate })
  await runCtMonitor(deps)
}
