import type { PlatformDeps } from '#server/platform/deps.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import { runNow } from '#server/platform/intelligence/gap.ts'
import { createItem } from '#server/platform/intelligence/service.ts'
import { createUser } from '#server/platform/users/service.ts'
import { DEMO_PASSWORD } from './demo.ts'

/**
 * The demo's intelligence (issue 32), made through the area's services on the first start: a sales
 * user of the registrar (sales@registrar.example, prospect-admin only: spec §2 sends them from / to
 * /intelligence), Acme's brand as a client item with a finished run against the local registry, and
 * a prospect's item (Initech) kept in the registrar's account, also run once.
 */
export async function seedDemoIntelligence(deps: PlatformDeps) {
  const accounts = await deps.db.selectFrom('accounts').select(['id', 'name', 'is_registrar']).execute()
  const acme = accounts.find((a) => a.name === 'Acme Corp')
  const registrar = accounts.find((a) => a.is_registrar)
  if (!acme || !registrar) return
  await createUser(deps.db, systemScope('demo-seed', registrar.id), {
    account_id: registrar.id,
    email: 'sales@registrar.example',
    name: 'Sam Sales',
    password: DEMO_PASSWORD,
    roles: ['prospect-admin'],
  })
  const acmeScope = systemScope('demo-seed', acme.id)
  const client = await createItem(deps, acmeScope, {
    kind: 'client',
    name: 'Acme Corp — acme',
    brand: 'acme',
    strings: ['acme-corp'],
    keywords: ['pay', 'shop'],
    priority_cctlds: ['de', 'es', 'eu', 'io', 'jp', 'uk', 'fr'],
    schedule: 'weekly',
  })
  await runNow(deps, acmeScope, client.id)
  const registrarScope = systemScope('demo-seed', registrar.id)
  const prospect = await createItem(deps, registrarScope, { kind: 'prospect', name: 'Initech (prospect)', brand: 'initech', known_domains: ['initech.com', 'initech.net'], keywords: ['pay'] })
  await runNow(deps, registrarScope, prospect.id)
}
