import { EppRegistryConnection, startLocalRegistry, type EppClientOptions, type LocalRegistryPolicy, type LocalRegistryServer, type RegistryConnection } from '#server/integrations/registry/index.ts'
import type { Registries } from '#server/platform/deps.ts'

/** A registrar's login at the local registry. */
export type RegistrarLogin = { id: string; password: string }

export type LocalRegistryConnection = {
  /** The real local EPP registry, on loopback over TLS. */
  registry: LocalRegistryServer
  /** Our EPP connection to it (as `client`). */
  connection: EppRegistryConnection
  /** The platform's registries: the policy's TLDs (or `serves`) through `connection` (or what `through` made of it), our client id for each. */
  registries: Registries
  /** Where the registry listens, for another client of it (a block provider). */
  client: EppClientOptions
  /** Another EPP connection to the registry, as `who` (another registrar: one of `others`). */
  connect(who: RegistrarLogin): EppRegistryConnection
  /** Closes every connection made here, then the registry. */
  close(): Promise<void>
}

/**
 * A real local EPP registry and our real EPP connection to it, as the platform holds them
 * (`createTestPlatform({ registries })`): the one setup of the tests that drive the registry
 * themselves, instead of eight lines repeated in each.
 */
export async function localRegistryConnection(options: {
  client: RegistrarLogin
  /** The registry's policy: the TLDs it serves, their periods and scripts, grace days, transfer approval. */
  policy: Partial<LocalRegistryPolicy> & Pick<LocalRegistryPolicy, 'tlds'>
  /** Other registrars the registry lets in. */
  others?: RegistrarLogin[]
  /** The TLDs the platform reaches the registry for (default: every TLD of the policy). */
  serves?: string[]
  /** Sessions in each connection's pool (EppRegistryConnection's default 2). */
  sessions?: number
  /** What the platform sees of the connection (a wrapper that watches or delays calls). */
  through?: (connection: RegistryConnection) => RegistryConnection
}): Promise<LocalRegistryConnection> {
  const registry = await startLocalRegistry({ port: 0, clients: [options.client, ...(options.others ?? [])], policy: options.policy })
  const client: EppClientOptions = { host: '127.0.0.1', port: registry.port, tls: { ca: registry.certificate, servername: 'localhost' }, timeoutMs: 10_000 }
  const made: EppRegistryConnection[] = []
  const connect = (who: RegistrarLogin) => {
    const connection = new EppRegistryConnection({
      registry: 'local',
      client,
      clientId: who.id,
      password: who.password,
      ...(options.sessions ? { sessions: options.sessions } : {}),
      rateLimit: { perSecond: 1000, burst: 1000 },
    })
    made.push(connection)
    return connection
  }
  const connection = connect(options.client)
  const seen = options.through ? options.through(connection) : connection
  const served = new Set(options.serves ?? Object.keys(options.policy.tlds))
  const registries: Registries = { forTld: (tld) => (served.has(tld) ? seen : null), clientIdFor: (tld) => (served.has(tld) ? options.client.id : null), close: async () => {} }
  return {
    registry,
    connection,
    registries,
    client,
    connect,
    async close() {
      for (const each of made) await each.close()
      await registry.close()
    },
  }
}
