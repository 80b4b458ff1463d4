import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { Config } from '#server/config.ts'
import {
  EppBlockProvider,
  EppRegistryConnection,
  startLocalRegistry,
  type LocalRegistryServer,
  type RegistrarProfile,
  type RegistryConnection,
  type TldPolicy,
} from '#server/integrations/registry/index.ts'
import type { RdapBases } from '#server/integrations/rdap/index.ts'
import type { Logger } from '#server/lib/logger.ts'
import type { PlatformDeps, Registries } from '#server/platform/deps.ts'
import { tldNames } from '#server/platform/tlds/reads.ts'

export type RegistryConfig = Pick<
  Config,
  'REGISTRY_MODE' | 'REGISTRY_HOST' | 'REGISTRY_PORT' | 'REGISTRY_CLIENT_ID' | 'REGISTRY_PASSWORD' | 'REGISTRY_TLDS' | 'REGISTRY_CA_FILE' | 'REGISTRY_TIMEOUT_MS'
> & { dataDir?: string; REGISTRY_LOCAL_DELAY_MS?: number }

/** A TLD the local registry serves, with the periods (years) it accepts. */
export type OfferedTld = { name: string; periods: number[] }

export type StartedRegistries = Registries & {
  /** The embedded registry server when running in local mode (for the demo seed and tests). */
  local: LocalRegistryServer | null
  /** The client id we log in with (our registrar's id at the registry). */
  clientId: string | null
  /** The embedded registry's RDAP service for each TLD it serves (local mode), else null: RDAP_BASE_URL's default. */
  rdapBases?: RdapBases | null
}

export const LOCAL_CLIENT_ID = 'portal'
/**
 * Another registrar at the embedded registry, holding names of its own (the demo's: a name with a
 * known auth code to transfer in, seed/registry.ts). It approves a transfer of its names a few
 * seconds after the request, so a transfer in completes while one watches.
 */
export const OTHER_LOCAL_REGISTRAR = { id: 'rival-registrar', approvesTransfersAfterSeconds: 3 } as const

/**
 * What the embedded registry's RDAP publishes of its two registrars: ours, and the other one whose
 * registrations are a third party's (a lookalike registered elsewhere shows its registrar and abuse
 * contact). IANA ids 9998 and 9999 are reserved by IANA (never a real registrar's), so neither is mistaken for one.
 */
export const LOCAL_REGISTRARS: Record<string, RegistrarProfile> = {
  [LOCAL_CLIENT_ID]: { name: 'Registrar Portal (local)', ianaId: '9998', abuseEmail: 'abuse@registrar.example', abusePhone: '+31.201234567', url: 'https://registrar.example' },
  [OTHER_LOCAL_REGISTRAR.id]: { name: 'Rival Registrar Ltd.', ianaId: '9999', abuseEmail: 'abuse@rival-registrar.example', abusePhone: '+44.2071234567', url: 'https://rival-registrar.example' },
}

/**
 * Builds the registry connections. `local`: starts the embedded EPP registry on loopback serving
 * the offered TLDs with their periods, and one pooled connection to it for all of them. `epp`:
 * one connection to the configured registry for REGISTRY_TLDS. `none`: no registry at all.
 */
export async function createRegistries(
  config: RegistryConfig,
  logger: Logger,
  options: { tlds?: OfferedTld[]; localPort?: number; now?: () => Date; requireSchemas?: boolean; rateLimit?: { perSecond: number; burst: number } } = {},
): Promise<StartedRegistries> {
  if (config.REGISTRY_MODE === 'none') {
    return { local: null, clientId: null, rdapBases: null, forTld: () => null, clientIdFor: () => null, close: async () => {} }
  }
  if (config.REGISTRY_MODE === 'epp') {
    if (!config.REGISTRY_HOST || !config.REGISTRY_CLIENT_ID || !config.REGISTRY_PASSWORD || !config.REGISTRY_TLDS) {
      throw new Error('REGISTRY_MODE=epp needs REGISTRY_HOST, REGISTRY_CLIENT_ID, REGISTRY_PASSWORD and REGISTRY_TLDS')
    }
    const tlds = new Set(
      config.REGISTRY_TLDS.split(',')
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    )
    const connection = new EppRegistryConnection({
      registry: config.REGISTRY_HOST,
      client: {
        host: config.REGISTRY_HOST,
        port: config.REGISTRY_PORT,
        timeoutMs: config.REGISTRY_TIMEOUT_MS,
        keepAliveMs: 60_000,
        tls: config.REGISTRY_CA_FILE ? { ca: readFileSync(config.REGISTRY_CA_FILE, 'utf8') } : {},
      },
      clientId: config.REGISTRY_CLIENT_ID,
      password: config.REGISTRY_PASSWORD,
    })
    logger.info('registry configured', { host: config.REGISTRY_HOST, tlds: [...tlds] })
    return {
      local: null,
      clientId: config.REGISTRY_CLIENT_ID,
      rdapBases: null,
      forTld: (tld) => (tlds.has(tld.toLowerCase()) ? connection : null),
      clientIdFor: (tld) => (tlds.has(tld.toLowerCase()) ? (config.REGISTRY_CLIENT_ID ?? null) : null),
      close: () => connection.close(),
    }
  }

  const offered = options.tlds ?? []
  const policyTlds: Record<string, TldPolicy> = {}
  for (const tld of offered) policyTlds[tld.name] = { createYears: tld.periods, renewYears: tld.periods, transferYears: [1] }
  const password = config.REGISTRY_PASSWORD ?? localPassword(config.dataDir)
  const local = await startLocalRegistry({
    port: options.localPort ?? 0,
    host: '127.0.0.1',
    ...(config.dataDir ? { dataDir: config.dataDir } : {}),
    clients: [{ id: LOCAL_CLIENT_ID, password }],
    policy: { tlds: policyTlds, transferApprovers: { [OTHER_LOCAL_REGISTRAR.id]: OTHER_LOCAL_REGISTRAR.approvesTransfersAfterSeconds } },
    ...(options.now ? { now: options.now } : {}),
    ...(options.requireSchemas === false ? { requireSchemas: false } : {}),
    ...(config.REGISTRY_LOCAL_DELAY_MS ? { answerDelayMs: config.REGISTRY_LOCAL_DELAY_MS } : {}),
    registrars: LOCAL_REGISTRARS,
    logger,
  })
  const connection = new EppRegistryConnection({
    registry: 'local',
    client: { host: local.host, port: local.port, timeoutMs: config.REGISTRY_TIMEOUT_MS, keepAliveMs: 60_000, tls: { ca: local.certificate, servername: 'localhost' } },
    clientId: LOCAL_CLIENT_ID,
    password,
    sessions: 4,
    // Loopback: the limit only guards against runaway loops, not a registry's quota.
    rateLimit: options.rateLimit ?? { perSecond: 500, burst: 1000 },
  })
  // Blocks (decision 302): the same registry sells them (DPML over every TLD it serves), through a session logged in with the block object.
  const blocks = new EppBlockProvider({
    provider: 'local',
    client: { host: local.host, port: local.port, timeoutMs: config.REGISTRY_TIMEOUT_MS, keepAliveMs: 60_000, tls: { ca: local.certificate, servername: 'localhost' } },
    clientId: LOCAL_CLIENT_ID,
    password,
    rateLimit: options.rateLimit ?? { perSecond: 500, burst: 1000 },
  })
  const served = new Set(offered.map((t) => t.name))
  logger.info('local registry listening', { port: local.port, tlds: [...served] })
  return {
    local,
    clientId: LOCAL_CLIENT_ID,
    rdapBases: local.rdapUrl ? new Map(offered.map((t) => [t.name, local.rdapUrl!])) : null,
    forTld: (tld) => (served.has(tld.toLowerCase()) ? connection : null),
    clientIdFor: (tld) => (served.has(tld.toLowerCase()) ? LOCAL_CLIENT_ID : null),
    blocks,
    async close() {
      await blocks.close()
      await connection.close()
      await local.close()
    },
  }
}

// Our login at the embedded registry: made once and kept, so the registry's saved state and we agree.
function localPassword(dataDir: string | undefined): string {
  if (!dataDir) return randomBytes(6).toString('hex')
  const file = path.join(dataDir, 'registry', 'client-password')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(path.dirname(file), { recursive: true })
  const password = randomBytes(6).toString('hex')
  writeFileSync(file, password, { mode: 0o600 })
  return password
}

/**
 * Each registry connection serving one of our TLDs, once (a connection usually serves many), by
 * the registry's name, with our client id there: what the jobs that talk to every registry walk.
 */
export async function servedRegistries(deps: {
  db: Pick<PlatformDeps['db'], 'selectFrom'>
  registries?: Registries
}): Promise<Map<string, { connection: RegistryConnection; clientId: string | null }>> {
  const served = new Map<string, { connection: RegistryConnection; clientId: string | null }>()
  for (const name of await tldNames(deps.db)) {
    const connection = deps.registries?.forTld(name)
    if (connection && !served.has(connection.registry)) served.set(connection.registry, { connection, clientId: deps.registries?.clientIdFor?.(name) ?? null })
  }
  return served
}
