import type { Kysely } from 'kysely'
import type { Config } from '#server/config.ts'
import type { Database } from '#server/db/database.ts'
import type { DB } from '#server/db/schema.ts'
import type { Logger } from '#server/lib/logger.ts'
import type { Jobs } from '#server/jobs/jobs.ts'
import type { Mailer } from '#server/integrations/mail/mailer.ts'
import type { RegistryConnection } from '#server/integrations/registry/index.ts'

/** The registry connections of the registrar, one per registry, found by TLD. */
export type Registries = {
  /** The connection that serves a TLD (ASCII form, no dot), or null when no registry is configured for it. */
  forTld(tld: string): RegistryConnection | null
  /** Our registrar's client id at the registry serving a TLD (to tell our domains from others'). */
  clientIdFor?(tld: string): string | null
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
  /** The bearer tokens this process has verified (decision 011); without it every request looks its token up. */
  tokenCache?: import('#server/platform/auth/token-cache.ts').TokenCache
  /** Registries reached over EPP; absent when the process runs without any. */
  registries?: Registries
}
