import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { parseTrustProxy } from './http/client-address.ts'
import { MAX_HASH_COST, MIN_HASH_COST, PRODUCTION_HASH_COST } from './platform/auth/passwords.ts'
import { sellerProblem } from './platform/billing/seller.ts'
import { parseResolverSetting } from './platform/core/outbound.ts'
import { parseRdapBases } from './integrations/rdap/client.ts'
import { parseCtLogs } from './integrations/ct/client.ts'

const booleanFlag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((v) => v === '1' || v === 'true')

/** Every environment variable the server reads, validated once at boot. */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SEED_DEMO: booleanFlag,
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  APP_ENV: z.string().min(1).default('development'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  PUBLIC_URL: z.url().optional(),
  SUPPORT_EMAIL: z.email().default('support@registrar.example'),
  PLATFORM_URL: z.url().optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Registrar Portal <no-reply@registrar.example>'),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  WORKER: booleanFlag.default(true),
  // Webhooks: 1 lets endpoints be plain HTTP on loopback or private addresses (development and tests only; never in production).
  WEBHOOKS_ALLOW_PRIVATE: booleanFlag.default(false),
  // Where the outbound guard resolves names a user gave (decision 022): resolvers by address (host:port, comma-separated) or `system`.
  // Unset: our own PowerDNS when the server started one (the demo), else names are not resolved and only addresses are reached.
  DNS_RESOLVER: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return
      try {
        parseResolverSetting(value)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
      }
    }),
  // RDAP (brand protection's evidence): one base URL for every TLD, `tld=url` pairs, or an IANA bootstrap file's JSON (RFC 9224).
  // Unset: the embedded registry's own RDAP service for the TLDs it serves (REGISTRY_MODE=local), else no RDAP lookups.
  RDAP_BASE_URL: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return
      try {
        parseRdapBases(value)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
      }
    }),
  // Requests per second to each RDAP server (a token bucket per host, burst 5).
  RDAP_RATE_PER_SECOND: z.coerce.number().positive().max(100).default(2),
  // Certificate Transparency logs brand protection reads hourly: `url` or `url#key` (the log's public key, base64 DER, to check its
  // tree heads), comma-separated. Unset outside production: a local CT log of our own (CT_LOCAL_LOG), holding the demo's certificates.
  CT_LOG_URLS: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return
      try {
        parseCtLogs(value)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
      }
    }),
  CT_LOCAL_LOG: booleanFlag.default(true),
  // A folder of CZDS zone files (`com.zone`, `com.txt.gz`, `com-20261128.zone`) brand protection compares day over day.
  ZONE_FEED_DIR: z.string().min(1).optional(),
  // Server processes sharing the port (node:cluster); more than one needs PostgreSQL and no embedded registry.
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Seconds a worker holds a job without renewing it: a job of a process that died is retried that long after its last heartbeat. */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(30),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  // DNS: the lowest TTL a record gets; a zone file's lower TTL is raised to it with a warning on its line, the editor refuses one.
  DNS_TTL_MIN: z.coerce.number().int().min(1).max(86_400).default(60),
  POWERDNS_API_URL: z.url().optional(),
  POWERDNS_API_KEY: z.string().min(1).optional(),
  // 1: a PowerDNS on the SQLite backend, which takes one change at a time (client.ts oneWriter); set by the server for its own.
  POWERDNS_ONE_WRITER: booleanFlag.default(false),
  // Without POWERDNS_API_URL: local = start pdns_server on loopback when it is installed (default; data under DATA_DIR/pdns), none = serve no zones.
  POWERDNS_MODE: z.enum(['local', 'none']).default('local'),
  // Registries: local = the embedded EPP registry (default; data under DATA_DIR/registry), epp = one external registry, none = no registry.
  REGISTRY_MODE: z.enum(['local', 'epp', 'none']).default('local'),
  REGISTRY_HOST: z.string().min(1).optional(),
  REGISTRY_PORT: z.coerce.number().int().min(0).max(65535).default(700),
  REGISTRY_CLIENT_ID: z.string().min(3).max(16).optional(),
  REGISTRY_PASSWORD: z.string().min(6).max(16).optional(),
  // Proxies allowed to say who the client is (X-Forwarded-For): unset = none, a hop count, or addresses/CIDRs.
  TRUST_PROXY: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      try {
        parseTrustProxy(value)
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message })
      }
    }),
  // log2 of scrypt's N for new password hashes; lower only to make test runs fast.
  PASSWORD_HASH_COST: z.coerce.number().int().min(MIN_HASH_COST).max(MAX_HASH_COST).default(PRODUCTION_HASH_COST),
  REGISTRY_TLDS: z.string().optional(),
  REGISTRY_CA_FILE: z.string().optional(),
  REGISTRY_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  // The embedded registry answers each command this much later (tests that stop the server between a registry write and our record).
  REGISTRY_LOCAL_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(0),
  // SSL (issue 19): the ACME CA by its directory, the PEM to trust for its HTTPS, EAB for CAs that need it;
  // without a directory, a local Pebble is started when installed (never with APP_ENV=production).
  ACME_DIRECTORY_URL: z.url().optional(),
  ACME_CA_NAME: z.string().min(1).default('ACME CA'),
  ACME_CA_FILE: z.string().optional(),
  ACME_EAB_KID: z.string().optional(),
  ACME_EAB_HMAC_KEY: z.string().optional(),
  ACME_LOCAL_PEBBLE: booleanFlag.default(true),
  // New orders the CA takes per interval, "orders/seconds" (Let's Encrypt: 300 per 3 hours); orders beyond wait for a slot (decision 401).
  ACME_ORDER_LIMIT: z
    .string()
    .regex(/^\s*[1-9]\d*\s*\/\s*[1-9]\d*\s*$/, 'must be orders/seconds, e.g. 300/10800')
    .default('300/10800'),
  // Where PowerDNS answers DNS (host:port): a local Pebble checks DNS-01 there.
  POWERDNS_DNS_ADDRESS: z
    .string()
    .regex(/^[^:\s]+:\d+$/, 'must be host:port')
    .optional(),
  // Who invoices (printed on every invoice PDF, the supplier of its EN 16931 XML); each unset part is the demo registrar's (server/platform/billing/seller.ts).
  SELLER_NAME: z.string().max(200).optional(),
  SELLER_STREET: z.string().max(200).optional(),
  SELLER_CITY: z.string().max(100).optional(),
  SELLER_POSTCODE: z.string().max(20).optional(),
  SELLER_COUNTRY: z.string().optional(),
  SELLER_VAT_ID: z.string().max(20).optional(),
  SELLER_REGISTRATION: z.string().max(50).optional(),
  SELLER_EMAIL: z.email().optional(),
  // Where invoices are paid (printed on each invoice, its UBL PaymentMeans): the IBAN's check digits and the BIC's shape are checked at start.
  SELLER_IBAN: z.string().max(40).optional(),
  SELLER_BIC: z.string().max(11).optional(),
  SELLER_BANK_NAME: z.string().max(100).optional(),
  // The secret private keys are sealed with (AES-256-GCM); generated once into the data folder when unset.
  SSL_KEY_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
})

export type Env = z.infer<typeof EnvSchema>

export type Config = Env & {
  dataDir: string
  sessionSecret: string
  sslKeySecret: string
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dir: string }
}

export class ConfigError extends Error {
  readonly issues: string[]
  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`)
    this.issues = issues
  }
}

// Placeholders people paste from examples; a secret containing one is not a secret.
const PLACEHOLDERS = ['changeme', 'change-me', 'change_me', 'replace-me', 'replaceme', 'example', 'password', 'default']

/** Why a session secret is too weak to sign sessions with, or null when it is fine. */
export function weakSecretReason(secret: string): string | null {
  const lower = secret.toLowerCase()
  const placeholder = PLACEHOLDERS.find((word) => lower.includes(word))
  if (placeholder) return `contains the placeholder '${placeholder}'; set a random value (openssl rand -base64 48)`
  if (new Set(secret).size < 12) return 'is too repetitive to be random; set a random value (openssl rand -base64 48)'
  return null
}

/** Parses the environment; throws ConfigError with one line per bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (FOO= in a compose file) means "not set", as it does for most tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''))
  const parsed = EnvSchema.safeParse(present)
  const issues = new Map<string, string>()
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path.join('.') || '(env)'
      // One clear message per variable: the first problem found is the one to fix.
      if (!issues.has(name)) issues.set(name, `${name}: ${issue.message}`)
    }
  }
  const secret = present.SESSION_SECRET
  if (secret && secret.length >= 32 && !issues.has('SESSION_SECRET')) {
    const weak = weakSecretReason(secret)
    if (weak) issues.set('SESSION_SECRET', `SESSION_SECRET: ${weak}`)
  }
  if (parsed.success && parsed.data.WEB_CONCURRENCY > 1 && !issues.has('WEB_CONCURRENCY')) {
    if (!parsed.data.DATABASE_URL) issues.set('WEB_CONCURRENCY', 'WEB_CONCURRENCY: more than one process needs PostgreSQL (DATABASE_URL); the embedded PGlite belongs to one process')
    else if (parsed.data.REGISTRY_MODE === 'local') issues.set('WEB_CONCURRENCY', 'WEB_CONCURRENCY: the embedded registry (REGISTRY_MODE=local) runs in one process; use REGISTRY_MODE=epp or none')
  }
  if (parsed.success && parsed.data.APP_ENV === 'production' && parsed.data.PASSWORD_HASH_COST < PRODUCTION_HASH_COST) {
    issues.set('PASSWORD_HASH_COST', `PASSWORD_HASH_COST: below ${PRODUCTION_HASH_COST} is for test runs, never for APP_ENV=production`)
  }
  const seller = parsed.success ? sellerProblem(parsed.data) : null
  if (seller) issues.set(seller.split(':')[0]!, seller)
  if (issues.size || !parsed.success) throw new ConfigError([...issues.values()])
  const values = parsed.data
  const dataDir = path.resolve(values.DATA_DIR)
  return {
    ...values,
    dataDir,
    sessionSecret: values.SESSION_SECRET ?? readOrCreateSecret(dataDir),
    sslKeySecret: values.SSL_KEY_SECRET ?? readOrCreateSecret(dataDir, 'ssl-key-secret'),
    database: values.DATABASE_URL ? { kind: 'postgres', url: values.DATABASE_URL } : { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
  }
}

// Without a configured secret, one is generated once into the data folder so that sessions
// survive restarts and no default secret ever exists.
function readOrCreateSecret(dataDir: string, name = 'session-secret'): string {
  const file = path.join(dataDir, name)
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim()
    if (secret.length >= 32) return secret
  }
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}
