import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { Logger } from '#server/lib/logger.ts'
import { registryColumns } from '#server/platform/domains/lifecycle.ts'
import type { Registries } from '#server/platform/deps.ts'

/**
 * Puts the domains we hold but never registered (the demo seed writes records only) at the
 * embedded registry through the real EPP client, then records what the registry answered: its
 * expiry and statuses become ours, so reconciliation starts clean and every later operation in the
 * demo runs against real registry state. A name the registry already has (its state survived a
 * database reset) is adopted from `info` when it is ours. Idempotent: only rows without a registry.
 */
export async function provisionAtRegistry(db: Kysely<DB>, registries: Registries, logger: Logger, now: () => Date = () => new Date()) {
  const pending = await db.selectFrom('domains').select(['id', 'name', 'tld']).where('registry', 'is', null).where('status', '=', 'active').orderBy('name').execute()
  let created = 0
  let adopted = 0
  let failed = 0
  // One at a time: each frame is schema-checked by an xmllint process; bursts of them overload a
  // small machine and the demo does not need the speed (this runs after the server listens).
  const CONCURRENCY = 1
  for (let i = 0; i < pending.length; i += CONCURRENCY) {
    await Promise.all(
      pending.slice(i, i + CONCURRENCY).map(async (domain, j) => {
        const registry = registries.forTld(domain.tld)
        if (!registry) return
        try {
          const [check] = await registry.checkDomains([domain.name])
          if (check?.available) {
            // 1–3 years, so the demo portfolio has a spread of expiry dates.
            await registry.createDomain({ name: domain.name, years: ((i + j) % 3) + 1, authInfo: `demo-${domain.id.slice(0, 8)}-A1` })
            created++
          } else adopted++
          const info = await registry.infoDomain(domain.name)
          const ours = registries.clientIdFor?.(domain.tld)
          if (ours && info.clientId !== ours) throw new Error(`sponsored by ${info.clientId}`)
          await db.updateTable('domains').set({ ...registryColumns(info, registry.registry, now()), registered_at: info.createdAt ?? null }).where('id', '=', domain.id).execute()
        } catch (error) {
          failed++
          logger.warn('demo domain not provisioned at the registry', { domain: domain.name, error: error instanceof Error ? error.message : String(error) })
        }
      }),
    )
  }
  if (pending.length) logger.info('domains provisioned at the registry', { created, adopted, failed })
  return { created, adopted, failed }
}
