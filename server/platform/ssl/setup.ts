import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Config } from '#server/config.ts'
import type { SslSettings } from '#server/integrations/acme/client.ts'
import { pebbleInstalled, startPebble } from '#server/integrations/acme/local-pebble.ts'
import type { Logger } from '#server/lib/logger.ts'
import { parseOrderLimit } from './pacing.ts'

/**
 * The SSL settings the server runs with: the CA of ACME_DIRECTORY_URL; else, outside production and
 * unless ACME_LOCAL_PEBBLE=0, a local Pebble when `pebble` is installed (apt-get install pebble),
 * checking DNS-01 against our PowerDNS (`dnsServer`: the local one's port, or POWERDNS_DNS_ADDRESS) — as the embedded registry stands in
 * for a registry. Without either, the SSL screens say what is missing. The local Pebble's CAA identity
 * is 'pebble.test' (Pebble itself checks no CAA; the order's check does).
 */
export async function sslFromConfig(config: Config, logger: Logger, dnsServer = config.POWERDNS_DNS_ADDRESS): Promise<SslSetup> {
  const keySecret = config.sslKeySecret
  const orderLimit = parseOrderLimit(config.ACME_ORDER_LIMIT)
  if (config.ACME_DIRECTORY_URL) {
    const eab = config.ACME_EAB_KID && config.ACME_EAB_HMAC_KEY ? { kid: config.ACME_EAB_KID, hmacKey: config.ACME_EAB_HMAC_KEY } : undefined
    const tlsCaPem = config.ACME_CA_FILE ? readFileSync(config.ACME_CA_FILE, 'utf8') : undefined
    return {
      settings: {
        keySecret,
        acme: { directoryUrl: config.ACME_DIRECTORY_URL, caName: config.ACME_CA_NAME, ...(tlsCaPem ? { tlsCaPem } : {}), ...(eab ? { eab } : {}), ...(orderLimit ? { orderLimit } : {}) },
      },
      stop: async () => {},
    }
  }
  if (config.APP_ENV === 'production' || !config.ACME_LOCAL_PEBBLE) return { settings: { keySecret, acme: null, missing: 'no ACME CA is configured (ACME_DIRECTORY_URL)' }, stop: async () => {} }
  const local = (ca: LocalCa) => ({ keySecret, acme: { ...ca, caName: 'Pebble (test CA)', dvOnly: true, caaIdentities: ['pebble.test'], ...(orderLimit ? { orderLimit } : {}) } })
  // A server process of a cluster uses the one local CA its primary started (as it does PowerDNS):
  // one Pebble per process in the same folder would not start, and each would be a CA of its own.
  const shared = process.env[LOCAL_CA_ENV]
  if (shared) return { settings: local(JSON.parse(shared) as LocalCa), stop: async () => {} }
  if (!(await pebbleInstalled())) return { settings: { keySecret, acme: null, missing: 'the local test CA is not installed (apt-get install pebble)' }, stop: async () => {} }
  const pebble = await startPebble({ ...(dnsServer ? { dnsServer } : {}), dir: path.join(config.dataDir, 'pebble') })
  logger.info('local Pebble CA started', { directory: pebble.directoryUrl, dns: dnsServer ?? 'system resolver' })
  const started = { directoryUrl: pebble.directoryUrl, tlsCaPem: pebble.tlsCaPem }
  return { settings: local(started), stop: () => pebble.stop(), started }
}

type LocalCa = { directoryUrl: string; tlsCaPem: string }
/** `started`: the local CA this call started (not one configured, nor one a primary handed over). */
type SslSetup = { settings: SslSettings; stop(): Promise<void>; started?: LocalCa }
const LOCAL_CA_ENV = 'PORTAL_LOCAL_ACME'

/** Hands the local CA a primary started to the server processes it forks next (their environment). */
export function shareLocalCa(setup: SslSetup): void {
  if (setup.started) process.env[LOCAL_CA_ENV] = JSON.stringify(setup.started)
}
