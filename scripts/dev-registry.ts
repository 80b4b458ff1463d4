/**
 * Runs the local EPP registry on its own: `npm run dev:registry`.
 * EPP_REGISTRY_PORT (default 3870), EPP_REGISTRY_CLIENTS ("id:password,id:password"),
 * EPP_REGISTRY_TLDS ("test,example,com": served TLDs, each allowing 1–10 years; default test,example),
 * EPP_REGISTRY_RDAP_PORT (default 3871: its RDAP service, http://127.0.0.1:3871/domain/<name>),
 * DATA_DIR (state and certificate under DATA_DIR/registry), LOG_LEVEL.
 */
import path from 'node:path'
import { DEFAULT_TLD_POLICY } from '#server/integrations/registry/local-registry.ts'
import { startLocalRegistry } from '#server/integrations/registry/local-server.ts'
import { createLogger } from '#server/lib/logger.ts'
import { LOCAL_REGISTRARS } from '#server/platform/registries/registries.ts'

const logger = createLogger((process.env.LOG_LEVEL as 'info' | undefined) ?? 'info', { service: 'local-registry' })
const clients = (process.env.EPP_REGISTRY_CLIENTS ?? 'registrar-demo:demo-password-1,registrar-other:other-password-1').split(',').map((pair) => {
  const [id, password] = pair.split(':')
  if (!id || !password) throw new Error(`EPP_REGISTRY_CLIENTS: "${pair}" is not id:password`)
  return { id, password }
})

const server = await startLocalRegistry({
  port: Number(process.env.EPP_REGISTRY_PORT ?? 3870),
  dataDir: path.resolve(process.env.DATA_DIR ?? './data'),
  clients,
  registrars: LOCAL_REGISTRARS,
  rdapPort: Number(process.env.EPP_REGISTRY_RDAP_PORT ?? 3871),
  logger,
  ...(process.env.EPP_REGISTRY_TLDS ? { policy: { tlds: Object.fromEntries(process.env.EPP_REGISTRY_TLDS.split(',').map((tld) => [tld.trim().toLowerCase(), DEFAULT_TLD_POLICY])) } } : {}),
})
logger.info('trust this certificate in clients', { certificate: path.join(server.tlsDir, 'cert.pem'), clients: clients.map((c) => c.id), rdap: server.rdapUrl })

const stop = async () => {
  await server.close()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
