// First: sets NODE_ENV before any import below loads React (see the module).
import './node-env.ts'
import cluster from 'node:cluster'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync } from 'node:fs'
import type { Server } from 'node:http'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { serve } from '@hono/node-server'
import type { ServerBuild } from 'react-router'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { openDatabase } from './db/database.ts'
import { migrate } from './db/migrate.ts'
import { createServerApp } from './http/app.ts'
import { answerClientErrors } from './http/client-error.ts'
import { createJobs } from './jobs/jobs.ts'
import { createLogger, type Logger } from './lib/logger.ts'
import { createMailer } from './integrations/mail/mailer.ts'
import { powerDnsEnv } from './integrations/powerdns/client.ts'
import { powerDnsInstalled, startPowerDns, type PowerDnsServer } from './integrations/powerdns/local-server.ts'
import { TokenCache } from '#server/platform/auth/token-cache.ts'
import { createOutbound, parseResolverSetting, type Outbound } from '#server/platform/core/outbound.ts'
import { createRdapClient, parseRdapBases, type RdapBases } from '#server/integrations/rdap/index.ts'
import { createCtClient, parseCtLogs, startLocalCtLog, type LocalCtLog } from '#server/integrations/ct/index.ts'
import type { BrandFeeds } from '#server/platform/brand/feeds.ts'
import { createPlatformApi } from './platform/api.ts'
import { listeningUrlOf } from './platform/deps.ts'
import { DEFAULT_NAMESERVERS, reportZoneOverlaps } from './platform/dns/service.ts'
import { createRegistries } from './platform/registries/registries.ts'
import { shareLocalCa, sslFromConfig } from './platform/ssl/setup.ts'
import { seedDemoBrands, seedDemoCertificates } from './seed/brand.ts'
import { isEmpty, seedDemo, seedDemoRenewalCharges, seedDemoZones } from './seed/demo.ts'
import { seedDemoIntegrations } from './seed/integrations.ts'
import { seedDemoIntelligence } from './seed/intelligence.ts'
import { seedDemoBlocks } from './seed/blocks.ts'
import { seedDemoWatch } from './seed/watch.ts'
import { seedDemoInvoices } from './seed/billing.ts'
import { preloadDemoRegistry } from './seed/registry.ts'
import { demoWelcome } from './seed/welcome.ts'
import { seedDemoDetails } from './seed/details.ts'
import { seedDemoFailedJob } from './seed/jobs.ts'
import { startWebhookDispatcher } from './platform/webhooks/delivery.ts'

const SHUTDOWN_GRACE_MS = 25_000
/** How long an idle kept-alive connection is kept open (see where the server starts). */
const KEEP_ALIVE_MS = 65_000

async function main() {
  let config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
  const logger = createLogger(config.LOG_LEVEL, { service: 'registrar-portal' })
  if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) return runPrimary(config, logger)
  // In a cluster, process 0 works the jobs and schedules them; every process serves requests.
  const index = cluster.isWorker ? Number(process.env.PORTAL_WORKER_INDEX ?? 0) : 0
  const database = await openDatabase(config.database)
  logger.info('database open', { kind: database.kind })
  const applied = await migrate(database)
  if (applied.length) logger.info('migrations applied', { applied })

  // The embedded database is a demo/development store: seed it when new. PostgreSQL is seeded only
  // on request, so that a production database never gets known passwords.
  const seeding = !cluster.isWorker && (database.kind === 'pglite' || config.SEED_DEMO) && (await isEmpty(database.db))
  // A line before each step of the first start's seeding, so a newcomer sees it move (issue 28, item 18).
  let seedSteps = 0
  const seedStep = (what: string) => seeding && logger.info('seeding the demo data (first start only)', { step: ++seedSteps, what })
  seedStep('accounts, users, contacts and domains')
  if (seeding) await seedDemo(database.db, logger)
  seedStep('a brand and its lookalikes')
  if (seeding) await seedDemoBrands(database.db)
  seedStep('a watch over the brand, its detections and a case')
  if (seeding) await seedDemoWatch(database.db)

  // Registries: the embedded EPP registry by default (REGISTRY_MODE=local), serving the offered TLDs.
  const offered = await database.db.selectFrom('tlds').select(['name', 'periods']).where('is_offered', '=', true).execute()
  const registries = await createRegistries(config, logger, { tlds: offered, requireSchemas: false })
  // The demo's registrations are the embedded registry's own pre-loaded data, in place before we
  // listen: registry and records agree from the first request and nothing rewrites them later.
  // Another registry is never written to by the seed (its domains stay records only).
  seedStep('the domains at the local registry')
  if (seeding) await preloadDemoRegistry(database.db, registries, logger)
  // The demo's charges are real renewals there, through the renewal service the portal uses.
  seedStep('renewals charged at the registry')
  if (seeding) await seedDemoRenewalCharges({ db: database.db, registries, logger, now: () => new Date() })

  // DNS: the PowerDNS at POWERDNS_API_URL, else one of our own when pdns_server is installed.
  const powerdns = cluster.isWorker ? undefined : await localPowerDns(config, logger)

  const jobs = createJobs(database, logger, { lease: { seconds: config.JOB_LEASE_SECONDS, heartbeatSeconds: Math.max(1, Math.min(5, Math.floor(config.JOB_LEASE_SECONDS / 3))) } })
  const ssl = await sslFromConfig(config, logger, powerdns ? `127.0.0.1:${powerdns.dnsPort}` : config.POWERDNS_DNS_ADDRESS)
  const tokenCache = new TokenCache()
  await tokenCache.start(database)
  const outbound = outboundFromConfig(config, powerdns, logger)
  const rdap = rdapFromConfig(config, registries.rdapBases ?? null, outbound, logger)
  const ctLog = cluster.isWorker ? undefined : await localCtLog(config, logger)
  const brandFeeds = brandFeedsFromConfig(config, ctLog, outbound, logger)
  let listeningUrl: string | undefined
  const deps = {
    config,
    database,
    db: database.db,
    logger,
    jobs,
    now: () => new Date(),
    mailer: createMailer(config, logger),
    registries,
    tokenCache,
    listeningUrl: () => listeningUrl,
    ssl: ssl.settings,
    ...(powerdns ? { powerdns: powerdns.settings } : {}),
    webhooks: { allowPrivateAddresses: config.WEBHOOKS_ALLOW_PRIVATE, claimSeconds: config.JOB_LEASE_SECONDS },
    outbound,
    ...(rdap ? { rdap } : {}),
    brandFeeds,
    dns: { ttlMin: config.DNS_TTL_MIN },
  }
  const platformApi = createPlatformApi(deps)
  await jobs.start({ work: config.WORKER && index === 0 })
  // Webhook events are fanned out by the process that works jobs, as soon as they commit.
  const webhookDispatcher = config.WORKER && index === 0 ? await startWebhookDispatcher(deps) : undefined
  // The demo's zones go in through the DNS service, each queued for publishing like any other.
  seedStep('DNS zones')
  if (seeding) await seedDemoZones(deps)
  seedStep('certificates in the local CT log, read by the monitor')
  if (seeding && ctLog) await seedDemoCertificates(deps, ctLog)
  seedStep('API access and blocks')
  if (seeding) await seedDemoIntegrations(deps, logger)
  if (seeding) await seedDemoBlocks(deps, logger)
  // Last month's invoice run, over the demo's renewals of last month (issue 28): each client has invoices to open.
  seedStep('last month’s invoices')
  if (seeding) await seedDemoInvoices(deps)
  // A certificate, an order and a material change request, so every detail screen has one to open (issue 28, item 17).
  seedStep('a certificate, an order and a change request')
  if (seeding) await seedDemoDetails(deps)
  // Intelligence (issue 32): Acme's brand and a prospect, each with a finished run against the local registry.
  seedStep('intelligence items and their first runs')
  if (seeding) await seedDemoIntelligence(deps)
  // A background job that failed (issue 29): staff's operations report and its failed-jobs list show one to retry.
  seedStep('a failed background job')
  if (seeding) await seedDemoFailedJob(deps)
  // A zone at, inside or above another account's domain or zone (made before issue 26) is said at every start; staff see the list.
  if (index === 0) await reportZoneOverlaps(deps)

  const buildFile = path.resolve('build/server/index.js')
  const build = existsSync(buildFile) ? ((await import(pathToFileURL(buildFile).href)) as ServerBuild) : undefined
  if (!build) logger.warn('no portal build found: serving the Platform API only (run npm run build)')
  const app = createServerApp({ config, database, logger, platformApi, build, clientDir: path.resolve('build/client') })

  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
    listeningUrl = listeningUrlOf(config.HOST, info.port)
    logger.info('listening', { url: listeningUrl, node_env: process.env.NODE_ENV })
    // The demo's database (embedded, or seeded on request): say where to go and how to sign in, last.
    if (database.kind === 'pglite' || config.SEED_DEMO) process.stderr.write(demoWelcome(listeningUrl))
  })
  answerClientErrors(server)
  // An idle kept-alive connection is closed by its client before this server closes it (Node's 5 s
  // default raced clients that reuse a connection at 5 s: a request on a socket being closed is
  // reset, ECONNRESET — seen in the browser tests under load). 65 s outlasts the common proxies'
  // 60 s idle time; the header deadline stays above it, as Node asks.
  ;(server as Server).keepAliveTimeout = KEEP_ALIVE_MS
  ;(server as Server).headersTimeout = KEEP_ALIVE_MS + 1_000

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info('shutting down', { signal })
    // A request that never ends must not keep the process from stopping: give up before the
    // orchestrator's own deadline (Kubernetes waits 30 s before SIGKILL).
    setTimeout(() => {
      logger.error('shutdown took too long; exiting', { grace_ms: SHUTDOWN_GRACE_MS })
      process.exit(1)
    }, SHUTDOWN_GRACE_MS).unref()
    try {
      // Stop accepting, let requests in flight finish, then close jobs and the database.
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await webhookDispatcher?.close()
      await jobs.stop()
      await registries.close()
      await ctLog?.close()
      await ssl.stop()
      await tokenCache.stop()
      await database.close()
      await powerdns?.stop()
      logger.info('stopped')
      process.exit(0)
    } catch (error) {
      logger.error('shutdown failed', { error })
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}

/**
 * A PowerDNS of our own on loopback ports when none is configured (POWERDNS_MODE=local, the
 * default) and pdns_server is installed: its SQLite data under DATA_DIR/pdns, so the zones it
 * serves survive a restart; a new API key and free ports at each start. It stops with us.
 */
async function localPowerDns(config: Config, logger: Logger): Promise<PowerDnsServer | undefined> {
  if (config.POWERDNS_API_URL || config.POWERDNS_MODE !== 'local') return undefined
  if (!powerDnsInstalled()) {
    logger.info('PowerDNS is not installed: zones are kept but not served (apt-get install pdns-server pdns-backend-sqlite3)')
    return undefined
  }
  const dir = path.join(config.dataDir, 'pdns')
  mkdirSync(dir, { recursive: true })
  const server = await startPowerDns({ dir, apiKey: randomBytes(24).toString('base64url'), nameservers: DEFAULT_NAMESERVERS })
  logger.info('PowerDNS started', { dns: `127.0.0.1:${server.dnsPort}`, api: server.settings.apiUrl, try: `dig @127.0.0.1 -p ${server.dnsPort} +norec <zone> SOA` })
  return server
}

/**
 * The guard of requests to addresses users give (decision 022): names resolved through
 * DNS_RESOLVER; unset, through our own PowerDNS when this process started one (the demo: names we
 * serve resolve, others do not); else no name is resolved — only addresses are reached — and it
 * is said at start. Never silently the system's resolver (DNS_RESOLVER=system chooses it).
 */
function outboundFromConfig(config: Config, powerdns: PowerDnsServer | undefined, logger: Logger) {
  const resolver = config.DNS_RESOLVER ? parseResolverSetting(config.DNS_RESOLVER) : powerdns ? [`127.0.0.1:${powerdns.dnsPort}`] : null
  if (resolver) logger.info('outbound requests resolve names through', { resolver, from: config.DNS_RESOLVER ? 'DNS_RESOLVER' : 'the local PowerDNS' })
  else logger.warn('DNS_RESOLVER is not set: names users give (webhook endpoints, HTTP-01 and DNS pre-checks of names hosted elsewhere) are not resolved; set it to resolvers or to system')
  return createOutbound({ resolver })
}

/**
 * RDAP lookups (brand protection's evidence): RDAP_BASE_URL, else the embedded registry's RDAP
 * service for the TLDs it serves; through the outbound guard, paced per host. None: said at start.
 */
function rdapFromConfig(config: Config, local: RdapBases | null, outbound: Outbound, logger: Logger) {
  const bases = config.RDAP_BASE_URL ? parseRdapBases(config.RDAP_BASE_URL) : local
  if (!bases?.size) {
    logger.info('no RDAP server is configured (RDAP_BASE_URL): lookalikes are checked without the registry’s record')
    return undefined
  }
  logger.info('RDAP lookups go to', { servers: [...new Set(bases.values())], from: config.RDAP_BASE_URL ? 'RDAP_BASE_URL' : 'the embedded registry' })
  return createRdapClient({ bases, fetch: outbound.fetch, logger, perSecond: config.RDAP_RATE_PER_SECOND })
}

/** A CT log of our own for the demo (CT_LOCAL_LOG, outside production, when no CT_LOG_URLS): its certificates are the demo's. */
async function localCtLog(config: Config, logger: Logger) {
  if (config.CT_LOG_URLS || !config.CT_LOCAL_LOG || config.APP_ENV === 'production') return undefined
  return startLocalCtLog({ dataDir: config.dataDir, logger })
}

/** Brand protection's feeds: CT_LOG_URLS (else the local CT log) through the outbound guard, paced per log host; ZONE_FEED_DIR. */
function brandFeedsFromConfig(config: Config, local: LocalCtLog | undefined, outbound: Outbound, logger: Logger): BrandFeeds {
  const logs = config.CT_LOG_URLS ? parseCtLogs(config.CT_LOG_URLS) : local ? [{ url: local.url, key: local.publicKeyDer.toString('base64'), description: 'Local CT log' }] : []
  if (logs.length) logger.info('brand protection reads CT logs', { logs: logs.map((l) => l.url) })
  return { ct: logs.length ? { client: createCtClient({ fetch: outbound.fetch, logger }), logs } : null, zoneDir: config.ZONE_FEED_DIR ?? null }
}

/**
 * WEB_CONCURRENCY > 1: this process migrates and seeds once, then runs that many server processes
 * on the same port (node:cluster hands them connections in turn), replaces one that dies, and
 * passes SIGTERM/SIGINT on, exiting when they have stopped.
 */
async function runPrimary(config: Config, logger: Logger) {
  const database = await openDatabase(config.database)
  const applied = await migrate(database)
  if (applied.length) logger.info('migrations applied', { applied })
  if (config.SEED_DEMO && (await isEmpty(database.db))) {
    await seedDemo(database.db, logger)
    await seedDemoBrands(database.db)
  }
  await database.close()
  // One local PowerDNS for every server process, handed to them as if configured.
  const powerdns = await localPowerDns(config, logger)
  if (powerdns) Object.assign(process.env, powerDnsEnv(powerdns.settings))
  // Its DNS resolves the names users give, as in one process (decision 022), unless DNS_RESOLVER says otherwise.
  if (powerdns && !config.DNS_RESOLVER) process.env.DNS_RESOLVER = `127.0.0.1:${powerdns.dnsPort}`
  // And one local test CA (when no CA is configured and Pebble is installed), checking DNS-01 there.
  const ssl = await sslFromConfig(config, logger, powerdns ? `127.0.0.1:${powerdns.dnsPort}` : config.POWERDNS_DNS_ADDRESS)
  shareLocalCa(ssl)
  let stopping = false
  const fork = (index: number) => {
    const worker = cluster.fork({ PORTAL_WORKER_INDEX: String(index) })
    worker.on('exit', (code, signal) => {
      if (stopping) return
      logger.error('server process exited; starting another', { index, code, signal })
      setTimeout(() => fork(index), 1000)
    })
  }
  for (let index = 0; index < config.WEB_CONCURRENCY; index++) fork(index)
  logger.info('cluster started', { processes: config.WEB_CONCURRENCY })
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    logger.info('shutting down the cluster', { signal })
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined)
    let left = workers.length
    const exit = () => void Promise.all([powerdns?.stop(), ssl.stop()]).finally(() => process.exit(0))
    if (!left) return exit()
    for (const worker of workers) {
      worker.once('exit', () => {
        if (--left === 0) exit()
      })
      worker.process.kill(signal)
    }
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

main().catch((error) => {
  process.stderr.write(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
