import { createJobs } from '#server/jobs/jobs.ts'
import { createLogger } from '#server/lib/logger.ts'
import { createMailer } from '#server/integrations/mail/mailer.ts'
import { createPlatformApi } from '#server/platform/api.ts'
import { TokenCache } from '#server/platform/auth/token-cache.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { createTestDatabase, type DemoSeed } from './database.ts'
import { answerChecker, type Answer } from './openapi-answers.ts'
import { createRegistries, type OfferedTld, type RegistryConfig } from '#server/platform/registries/registries.ts'
import { createRdapClient } from '#server/integrations/rdap/index.ts'
import { outboundOf } from '#server/platform/core/outbound.ts'

export type TestRegistryOptions = { tlds: OfferedTld[]; port?: number; now?: () => Date; timeoutMs?: number; rateLimit?: { perSecond: number; burst: number } }
const LOCAL_REGISTRY_CONFIG: RegistryConfig = {
  REGISTRY_MODE: 'local',
  REGISTRY_HOST: undefined,
  REGISTRY_PORT: 0,
  REGISTRY_CLIENT_ID: undefined,
  REGISTRY_PASSWORD: undefined,
  REGISTRY_TLDS: undefined,
  REGISTRY_CA_FILE: undefined,
  REGISTRY_TIMEOUT_MS: 10_000,
}

export const TEST_CONFIG: PlatformDeps['config'] = {
  APP_ENV: 'test',
  BODY_LIMIT_BYTES: 64 * 1024,
  SUPPORT_EMAIL: 'support@registrar.example',
  PUBLIC_URL: undefined,
  OIDC_ISSUER: undefined,
  OIDC_CLIENT_ID: undefined,
  OIDC_CLIENT_SECRET: undefined,
  SMTP_URL: undefined,
  MAIL_FROM: 'Registrar Portal <no-reply@registrar.example>',
}

/** A real Platform API over a fresh real database (`seed`: the demo of that size, as `seedDemo` makes it), called in process through fetch. */
export async function createTestPlatform(overrides: Partial<PlatformDeps> = {}, options: { registry?: TestRegistryOptions; seed?: DemoSeed } = {}) {
  const database = await createTestDatabase(options.seed)
  const logger = createLogger('silent')
  const jobs = createJobs(database, logger)
  // A real local EPP registry over TLS on loopback, reached through the real client.
  const registries = options.registry
    ? await createRegistries({ ...LOCAL_REGISTRY_CONFIG, REGISTRY_TIMEOUT_MS: options.registry.timeoutMs ?? 10_000 }, logger, {
        tlds: options.registry.tlds,
        localPort: options.registry.port ?? 0,
        ...(options.registry.now ? { now: options.registry.now } : {}),
        ...(options.registry.rateLimit ? { rateLimit: options.registry.rateLimit } : {}),
      })
    : undefined
  // The token cache as the server runs it, listening to the test's database.
  const tokenCache = new TokenCache()
  await tokenCache.start(database)
  const deps: PlatformDeps = {
    config: TEST_CONFIG,
    database,
    db: database.db,
    logger,
    jobs,
    now: () => new Date(),
    mailer: createMailer(overrides.config ?? TEST_CONFIG, logger),
    tokenCache,
    ...(registries ? { registries } : {}),
    // The local registry's RDAP service, reached as the server reaches it (the outbound guard, paced per host).
    ...(registries?.rdapBases ? { rdap: createRdapClient({ bases: registries.rdapBases, fetch: outboundOf(overrides).fetch, perSecond: 100, burst: 100 }) } : {}),
    ...overrides,
  }
  const api = createPlatformApi(deps)
  /**
   * One API call in process. `client`: who is at the other end, as the server in front of the API
   * would establish it (the socket, or a trusted proxy's word); headers of the request never say it.
   */
  // Every answer a test receives is checked against the API's own document (issue 26): a status or
  // body the document does not declare fails the call, so a test that reaches it fails.
  let checker: Promise<ReturnType<typeof answerChecker>> | undefined
  const checkAnswer = async (method: string, path: string, answer: Answer) => {
    checker ??= Promise.resolve(api.request('/v1/openapi.json')).then(async (response) => answerChecker(await response.json()))
    const check = await checker
    const mismatches = check(method, new URL(`http://platform.test/v1${path}`).pathname, answer)
    if (mismatches.length) throw new Error(`The answer disagrees with the OpenAPI document:\n${mismatches.join('\n')}\n${answer.text.slice(0, 2000)}`)
  }
  /**
   * `unchecked`: the answer is not checked against the document — for a request the document cannot
   * describe (a malformed path, a method no route has), said at the call.
   */
  const call = async (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string>; client?: { ip: string; userAgent?: string }; unchecked?: true } = {},
  ) => {
    const headers = new Headers(options.headers)
    if (options.token) headers.set('authorization', `Bearer ${options.token}`)
    let body: string | undefined
    if (options.body !== undefined) {
      headers.set('content-type', 'application/json')
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
    }
    const client = options.client ? { ip: options.client.ip, userAgent: options.client.userAgent ?? headers.get('user-agent') ?? '' } : undefined
    const response = await api.fetch(new Request(`http://platform.test/v1${path}`, { method, headers, body }), client ? { client } : undefined)
    const text = await response.text()
    const json = text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined
    const answer = { status: response.status, headers: response.headers, json, text }
    if (!options.unchecked) await checkAnswer(method, path, answer)
    return answer
  }
  return {
    deps,
    database,
    db: database.db,
    api,
    call,
    registries,
    /** The job engine itself (pg-boss within), for a test acting on it; the API's areas see only `deps.jobs`. */
    jobs,
    /** After tokens or users were changed by SQL (as another process would): waits until the API has heard of it (decision 011). */
    settled: () => tokenCache.caughtUp(database),
    async close() {
      await jobs.stop()
      await registries?.close()
      await tokenCache.stop()
      await database.drop()
    },
  }
}
