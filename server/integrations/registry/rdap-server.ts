import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import punycode from 'punycode/punycode.js'
import type { Logger } from '#server/lib/logger.ts'
import type { LocalRegistry, PublishedDomain } from './local-registry.ts'

/**
 * The local registry's RDAP service (RFC 7480 HTTP, RFC 9082 queries, RFC 9083 answers), as a
 * registry's RDAP server publishes its domains: `/domain/<name>` with the sponsoring registrar
 * (its IANA id as a public id) and the registrar's nested abuse contact, the events, the
 * statuses in RDAP's words (RFC 8056) and the name servers; 404 for a name it does not hold.
 */

/** What the registry knows of a registrar (by its EPP client id), published in RDAP. */
export type RegistrarProfile = { name: string; ianaId?: string; abuseEmail?: string; abusePhone?: string; url?: string }

export const RDAP_MEDIA_TYPE = 'application/rdap+json'

/** EPP status → RDAP status (RFC 8056 §2). */
const RDAP_STATUS: Record<string, string> = {
  ok: 'active',
  inactive: 'inactive',
  addPeriod: 'add period',
  autoRenewPeriod: 'auto renew period',
  renewPeriod: 'renew period',
  transferPeriod: 'transfer period',
  redemptionPeriod: 'redemption period',
  pendingRestore: 'pending restore',
  pendingCreate: 'pending create',
  pendingDelete: 'pending delete',
  pendingRenew: 'pending renew',
  pendingTransfer: 'pending transfer',
  pendingUpdate: 'pending update',
  clientDeleteProhibited: 'client delete prohibited',
  clientHold: 'client hold',
  clientRenewProhibited: 'client renew prohibited',
  clientTransferProhibited: 'client transfer prohibited',
  clientUpdateProhibited: 'client update prohibited',
  serverDeleteProhibited: 'server delete prohibited',
  serverHold: 'server hold',
  serverRenewProhibited: 'server renew prohibited',
  serverTransferProhibited: 'server transfer prohibited',
  serverUpdateProhibited: 'server update prohibited',
}

export function rdapStatus(epp: string): string {
  return RDAP_STATUS[epp] ?? epp.replace(/([A-Z])/g, ' $1').toLowerCase()
}

type Json = Record<string, unknown>

const vcard = (...properties: unknown[][]) => ['vcard', [['version', {}, 'text', '4.0'], ...properties]]

/** The RFC 9083 domain object for a published domain; `base` is the service's URL (for links). */
export function rdapDomain(domain: PublishedDomain, registrars: Record<string, RegistrarProfile>, base: string, now: Date): Json {
  const registrar = registrars[domain.clientId] ?? { name: domain.clientId }
  const abuse: unknown[][] = [['fn', {}, 'text', `${registrar.name} abuse contact`]]
  if (registrar.abuseEmail) abuse.push(['email', {}, 'text', registrar.abuseEmail])
  if (registrar.abusePhone) abuse.push(['tel', { type: ['voice'] }, 'uri', `tel:${registrar.abusePhone}`])
  const unicode = domain.name
    .split('.')
    .map((label) => (label.startsWith('xn--') ? punycode.decode(label.slice(4)) : label))
    .join('.')
  const events: Json[] = [
    { eventAction: 'registration', eventDate: domain.createdAt },
    { eventAction: 'expiration', eventDate: domain.expiresAt },
    ...(domain.updatedAt ? [{ eventAction: 'last changed', eventDate: domain.updatedAt }] : []),
    ...(domain.transferredAt ? [{ eventAction: 'transfer', eventDate: domain.transferredAt }] : []),
    { eventAction: 'last update of RDAP database', eventDate: now.toISOString() },
  ]
  return {
    rdapConformance: ['rdap_level_0', 'icann_rdap_response_profile_1', 'icann_rdap_technical_implementation_guide_1'],
    objectClassName: 'domain',
    handle: domain.roid,
    ldhName: domain.name,
    ...(unicode !== domain.name ? { unicodeName: unicode } : {}),
    links: [{ value: `${base}/domain/${domain.name}`, rel: 'self', href: `${base}/domain/${domain.name}`, type: RDAP_MEDIA_TYPE }],
    status: domain.statuses.map(rdapStatus),
    events,
    entities: [
      {
        objectClassName: 'entity',
        handle: registrar.ianaId ?? domain.clientId,
        roles: ['registrar'],
        ...(registrar.ianaId ? { publicIds: [{ type: 'IANA Registrar ID', identifier: registrar.ianaId }] } : {}),
        vcardArray: vcard(['fn', {}, 'text', registrar.name]),
        ...(registrar.url ? { links: [{ value: registrar.url, rel: 'about', href: registrar.url, type: 'text/html' }] } : {}),
        entities: [{ objectClassName: 'entity', roles: ['abuse'], vcardArray: vcard(...abuse) }],
      },
    ],
    nameservers: domain.nameservers.map((ns) => ({ objectClassName: 'nameserver', ldhName: ns })),
    secureDNS: { delegationSigned: domain.signed },
    notices: [
      {
        title: 'Terms of Use',
        description: ['The local registry of Registrar Portal: development, demo and tests only.'],
      },
    ],
  }
}

function rdapError(code: number, title: string, description?: string): Json {
  return { rdapConformance: ['rdap_level_0'], errorCode: code, title, ...(description ? { description: [description] } : {}) }
}

/** One RDAP request against the registry: status and JSON body (the HTTP server's and tests' one path). */
export function answerRdap(registry: LocalRegistry, registrars: Record<string, RegistrarProfile>, pathname: string, base: string, now: Date): { status: number; body: Json } {
  if (pathname === '/help') return { status: 200, body: { rdapConformance: ['rdap_level_0'], notices: [{ title: 'Help', description: ['Query /domain/<name>.'] }] } }
  const match = /^\/domain\/([^/]+)$/.exec(pathname)
  if (!match) return { status: 400, body: rdapError(400, 'Bad Request', 'Only domain lookups (/domain/<name>) are served') }
  let name: string
  try {
    name = decodeURIComponent(match[1]!).toLowerCase().replace(/\.$/, '')
    name = name
      .split('.')
      .map((label) => (/^[a-z0-9._-]*$/.test(label) ? label : `xn--${punycode.encode(label.normalize('NFC'))}`))
      .join('.')
  } catch {
    return { status: 400, body: rdapError(400, 'Bad Request', 'Not a domain name') }
  }
  const domain = registry.published(name)
  if (!domain) return { status: 404, body: rdapError(404, 'Not Found') }
  return { status: 200, body: rdapDomain(domain, registrars, base, now) }
}

export type RdapServer = { url: string; port: number; close(): Promise<void> }

/** Serves the registry's RDAP over HTTP on loopback (port 0: a free one). */
export async function startRdapServer(options: {
  registry: LocalRegistry
  registrars: Record<string, RegistrarProfile>
  port?: number
  host?: string
  now?: () => Date
  logger?: Logger
}): Promise<RdapServer> {
  const now = options.now ?? (() => new Date())
  const host = options.host ?? '127.0.0.1'
  let base = ''
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://rdap.invalid')
    const answer =
      request.method === 'GET' || request.method === 'HEAD' ? answerRdap(options.registry, options.registrars, url.pathname, base, now()) : { status: 405, body: rdapError(405, 'Method Not Allowed') }
    const body = JSON.stringify(answer.body)
    response.writeHead(answer.status, { 'content-type': RDAP_MEDIA_TYPE, 'access-control-allow-origin': '*', 'content-length': Buffer.byteLength(body) })
    response.end(request.method === 'HEAD' ? undefined : body)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0)
  base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`
  options.logger?.info('local RDAP service listening', { url: base })
  return {
    url: base,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
