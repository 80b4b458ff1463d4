import type { Kysely } from 'kysely'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/database.ts'
import type { DB } from '#server/db/schema.ts'
import type { Logger } from '#server/lib/logger.ts'
import type { Jobs } from '#server/jobs/jobs.ts'
import type { Mailer } from '#server/integrations/mail/mailer.ts'
import type { BlockProvider, RegistryConnection } from '#server/integrations/registry/index.ts'

/** The registry connections of the registrar, one per registry, found by TLD. */
export type Registries = {
  /** The connection that serves a TLD (ASCII form, no dot), or null when no registry is configured for it. */
  forTld(tld: string): RegistryConnection | null
  /** Our registrar's client id at the registry serving a TLD (to tell our domains from others'). */
  clientIdFor?(tld: string): string | null
  /** The provider blocks are placed with (decision 302), or absent when none is configured. */
  blocks?: BlockProvider | null
  close(): Promise<void>
}

/** What every service of the Platform API is built from; tests build it against a real database. */
export type PlatformDeps = {
  config: Pick<Config, 'APP_ENV' | 'BODY_LIMIT_BYTES' | 'SUPPORT_EMAIL' | 'PUBLIC_URL' | 'OIDC_ISSUER' | 'OIDC_CLIENT_ID' | 'OIDC_CLIENT_SECRET' | 'SMTP_URL' | 'MAIL_FROM'>
  database: Database
  db: Kysely<DB>
  logger: Logger
  jobs: Jobs
  now: () => Date
  /** PowerDNS Authoritative's API; without it zones are managed but not published. */
  powerdns?: import('#server/integrations/powerdns/client.ts').PowerDnsSettings
  mailer: Mailer
  /** SSL: the ACME CA and the key that seals private keys; absent, the SSL screens say no CA is configured. */
  ssl?: import('#server/integrations/acme/client.ts').SslSettings
  /** The bearer tokens this process has verified (decision 011); without it every request looks its token up. */
  tokenCache?: import('#server/platform/auth/token-cache.ts').TokenCache
  /** Registries reached over EPP; absent when the process runs without any. */
  registries?: Registries
  /** API tokens' own rate limit (issue 20); without it API_TOKEN_RATE_LIMIT per minute. */
  apiTokenRateLimit?: { limit: number; windowSeconds: number }
  /** Webhooks (issue 20): `allowPrivateAddresses` lets endpoints be plain HTTP on loopback or private addresses (development and tests only). */
  /** `claimSeconds`: how long a sender holds deliveries without renewing its claim (JOB_LEASE_SECONDS; 30). */
  webhooks?: { allowPrivateAddresses?: boolean; retryDelaysSeconds?: readonly number[]; claimSeconds?: number }
  /** DNS: `ttlMin` is the lowest TTL a record gets (DNS_TTL_MIN; 60): a zone file's lower one is raised to it with a warning. */
  dns?: { ttlMin?: number }
  /** The guard of every request to an address a user gave (decision 022); absent, names are not resolved (addresses only). */
  outbound?: import('#server/platform/core/outbound.ts').Outbound
  /** RDAP lookups of domains at their registries (RDAP_BASE_URL, else the local registry's RDAP service); absent: none configured. */
  rdap?: import('#server/integrations/rdap/client.ts').RdapClient
  /** Brand protection's feeds (CT_LOG_URLS or the demo's local CT log; ZONE_FEED_DIR); absent: none read. */
  brandFeeds?: {
    ct?: { client: import('#server/integrations/ct/index.ts').CtClient; logs: import('#server/integrations/ct/index.ts').CtLogSource[] } | null
    zoneDir?: string | null
  }
  /** Where this server listens (http://localhost:<port>), once it does: the base of mailed links without PUBLIC_URL. */
  listeningUrl?: () => string | undefined
}

/**
 * The portal's address for links we mail (invitations, resets, approvals): PUBLIC_URL; else where
 * this server listens; else (a platform that does not listen: tests) the origin the request came
 * in on. Never a guessed port — and never the request's Host before the server's own address: the
 * Host header is the client's word, and a reset link pointing wherever a client says is how a
 * reset token gets stolen (password reset poisoning).
 */
export function linkBase(deps: Pick<PlatformDeps, 'config' | 'listeningUrl'>, request?: Request): string {
  const base = deps.config.PUBLIC_URL ?? deps.listeningUrl?.() ?? (request ? new URL(request.url).origin : undefined) ?? 'http://localhost'
  return base.replace(/\/$/, '')
}

/** The address a server bound to `host`:`port` is reached at: localhost for a wildcard bind, else the host itself. */
export function listeningUrlOf(host: string, port: number): string {
  const name = host === '' || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return `http://${name}:${port}`
}
