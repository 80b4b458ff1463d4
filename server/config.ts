import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

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
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().default('Registrar Portal <no-reply@registrar.example>'),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  WORKER: booleanFlag.default(true),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
})

export type Env = z.infer<typeof EnvSchema>

export type Config = Env & {
  dataDir: string
  sessionSecret: string
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dir: string }
}

export class ConfigError extends Error {
  readonly issues: string[]
  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join('\n')}`)
    this.issues = issues
  }
}

const WEAK_SECRETS = new Set(['secret', 'changeme', 'change-me', 'development', 'password'])

/** Parses the environment; throws ConfigError with one line per bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`),
    )
  }
  const values = parsed.data
  const dataDir = path.resolve(values.DATA_DIR)
  if (values.SESSION_SECRET && WEAK_SECRETS.has(values.SESSION_SECRET.toLowerCase())) {
    throw new ConfigError(['SESSION_SECRET: is a well-known default; set a random value'])
  }
  return {
    ...values,
    dataDir,
    sessionSecret: values.SESSION_SECRET ?? readOrCreateSecret(dataDir),
    database: values.DATABASE_URL
      ? { kind: 'postgres', url: values.DATABASE_URL }
      : { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
  }
}

// Without a configured secret, one is generated once into the data folder so that sessions
// survive restarts and no default secret ever exists.
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret')
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim()
    if (secret.length >= 32) return secret
  }
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(48).toString('base64url')
  writeFileSync(file, secret, { mode: 0o600 })
  return secret
}
