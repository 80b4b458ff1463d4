import type { Logger } from '#server/lib/logger.ts'
import { orderBlock } from '#server/platform/blocks/service.ts'
import type { Scope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

/**
 * Demo blocks (decision 302), ordered through the service the API uses: charged, then placed with
 * the embedded registry by the job like any order — two DPML blocks that become active, and one of
 * Acme's own registered label the registry refuses (failed with its reason, the charge released).
 */
export async function seedDemoBlocks(deps: PlatformDeps, logger: Logger): Promise<void> {
  if (!deps.registries?.blocks) return
  const accounts = await deps.db.selectFrom('accounts').select(['id', 'name']).where('name', 'in', ['Acme Corp', 'Globex']).execute()
  const product = await deps.db.selectFrom('products').select('code').where('code', '=', 'block:dpml:order').executeTakeFirst()
  if (!product) return
  const orders: [account: string, label: string, mark: string][] = [
    ['Acme Corp', 'acmewidgets', 'TMCH-ACME-0001'],
    ['Acme Corp', 'acme', 'TMCH-ACME-0002'],
    ['Globex', 'globexfoods', 'TMCH-GLOBEX-0001'],
  ]
  for (const [name, label, mark] of orders) {
    const account = accounts.find((a) => a.name === name)
    if (!account) continue
    const scope: Scope = { actor: { userId: null, label: 'demo seed', homeAccountId: null, roles: ['staff'], abilities: [] }, accountId: account.id, requestId: null }
    try {
      await orderBlock(deps, scope, { label, product_code: product.code, period_years: 1, trademark_ref: mark })
    } catch (error) {
      logger.warn('demo block not ordered', { label, error: (error as Error).message })
    }
  }
  logger.info('demo blocks ordered', { count: orders.length })
}
