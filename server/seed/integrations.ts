import type { Logger } from '#server/lib/logger.ts'
import { createServiceUser, createToken } from '#server/platform/api-tokens/service.ts'
import { systemScope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { createEndpoint } from '#server/platform/webhooks/service.ts'

/**
 * Demo API access (issue 20), made through the services the API uses: Acme's "Acme CI" service user
 * with a read-only token limited to an address range (its secret is not kept: nobody can use it),
 * and a webhook endpoint for failed orders and renewals at an address that does not resolve, so
 * its delivery log shows what a failing endpoint looks like once something happens.
 */
export async function seedDemoIntegrations(deps: Pick<PlatformDeps, 'db' | 'now' | 'webhooks'>, logger: Logger): Promise<void> {
  const acme = await deps.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirst()
  if (!acme) return
  const scope = systemScope('demo seed', acme.id)
  const service = await createServiceUser(deps.db, scope, { name: 'Acme CI', roles: ['domain-viewer', 'dns-viewer'] })
  await createToken(deps.db, scope, service, { name: 'Deploy checks', permissions: ['domain-viewer', 'dns-viewer'], cidrs: ['203.0.113.0/24'], expires_in_days: 30 }, deps.now())
  await createEndpoint({ ...deps, webhooks: { allowPrivateAddresses: false } }, scope, {
    url: 'https://hooks.acme.example/registrar',
    description: 'Ops alerts',
    events: ['order.failed', 'domain.renewed'],
  })
  logger.info('demo API access seeded', { service_user: service.email })
}
