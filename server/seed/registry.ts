import { createHash, randomBytes } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '#server/db/schema.ts'
import type { DomainInfo } from '#server/integrations/registry/types.ts'
import type { PreloadDomain } from '#server/integrations/registry/local-registry.ts'
import type { Logger } from '#server/lib/logger.ts'
import { DEFAULT_NAMESERVERS } from '#server/platform/dns/service.ts'
import { registryColumns } from '#server/platform/domains/lifecycle.ts'
import { OTHER_LOCAL_REGISTRAR, type StartedRegistries } from '#server/platform/registries/registries.ts'

/** What a registry lock is at the registry: the server statuses only the registry can lift. */
export const REGISTRY_LOCK_STATUSES = ['serverDeleteProhibited', 'serverTransferProhibited', 'serverUpdateProhibited']

/**
 * The demo portfolio's registrations, put into the embedded registry's own data (preload, not
 * EPP), as a registry test environment comes pre-loaded: same creation and expiry dates as the
 * seed, our client id as sponsor, the seed's lock as server statuses, a DS record where the seed
 * says DNSSEC, our default name servers. Our rows then record what the registry holds, so
 * reconciliation finds no difference and nothing is rewritten later. Only rows the seed made
 * (no registry yet) on TLDs the local registry serves; a no-op for any other registry mode.
 */
export async function preloadDemoRegistry(db: Kysely<DB>, registries: StartedRegistries, logger: Logger, now: () => Date = () => new Date()) {
  const local = registries.local
  const clientId = registries.clientId
  if (!local || !clientId) return { preloaded: 0 }
  const rows = await db
    .selectFrom('domains')
    .select(['id', 'name', 'tld', 'created_at', 'expires_at', 'registry_lock', 'dnssec'])
    .where('registry', 'is', null)
    .where('status', '<>', 'deleted')
    .orderBy('name')
    .execute()
  const served = rows.filter((row) => row.expires_at && registries.forTld(row.tld))
  if (!served.length) return { preloaded: 0 }
  const input: PreloadDomain[] = served.map((row) => ({
    name: row.name,
    clientId,
    createdAt: row.created_at,
    expiresAt: row.expires_at!,
    authInfo: `${randomBytes(9).toString('base64url')}-A1`,
    statuses: row.registry_lock ? REGISTRY_LOCK_STATUSES : [],
    nameservers: DEFAULT_NAMESERVERS,
    ds: row.dnssec ? [demoDs(row.name)] : [],
  }))
  const held = local.registry.preload(input)
  const at = now()
  await db.transaction().execute(async (tx) => {
    for (const [i, row] of served.entries()) {
      const domain = held[i]!
      const registry = registries.forTld(row.tld)!
      const info: DomainInfo = {
        name: domain.name,
        roid: domain.roid,
        statuses: domain.statuses,
        contacts: [],
        nameservers: domain.nameservers,
        hosts: [],
        clientId: domain.clientId,
        createdAt: domain.createdAt,
        expiresAt: domain.expiresAt,
        dsData: domain.ds,
        rgpStatuses: [],
      }
      await tx
        .updateTable('domains')
        .set({ ...registryColumns(info, registry.registry, at), registered_at: domain.createdAt })
        .where('id', '=', row.id)
        .execute()
    }
  })
  const transferable = preloadTransferable(registries, now())
  logger.info('demo domains preloaded at the local registry', { domains: held.length, ...(transferable ? { another_registrars: transferable } : {}) })
  return { preloaded: held.length }
}

/** A name another registrar holds at the embedded registry, whose auth code the demo gives (README, "Transfer a name in"). */
export const DEMO_TRANSFER = { name: 'acme-rockets.com', authCode: 'Rocket-Transfer-2026' } as const

/**
 * The other registrar's name, with its known auth code: registered three years ago, renewing in
 * eight months, on that registrar's name servers. Its transfer in completes a few seconds after it
 * is asked (OTHER_LOCAL_REGISTRAR approves it). Only when the embedded registry serves .com.
 */
function preloadTransferable(registries: StartedRegistries, at: Date): string | null {
  if (!registries.local || !registries.forTld('com')) return null
  const created = new Date(at)
  created.setUTCFullYear(created.getUTCFullYear() - 3)
  const expires = new Date(at)
  expires.setUTCMonth(expires.getUTCMonth() + 8)
  registries.local.registry.preload([
    {
      name: DEMO_TRANSFER.name,
      clientId: OTHER_LOCAL_REGISTRAR.id,
      createdAt: created,
      expiresAt: expires,
      authInfo: DEMO_TRANSFER.authCode,
      nameservers: ['ns1.rival-registrar.example', 'ns2.rival-registrar.example'],
    },
  ])
  return DEMO_TRANSFER.name
}

// A syntactically right DS (ECDSA P-256, SHA-256 digest) that stays the same for a name.
function demoDs(name: string) {
  const digest = createHash('sha256').update(`demo-ds:${name}`).digest('hex').toUpperCase()
  return { keyTag: Number.parseInt(digest.slice(0, 4), 16), alg: 13, digestType: 2, digest }
}
