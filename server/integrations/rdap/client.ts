import { isIP } from 'node:net'
import punycode from 'punycode/punycode.js'
import type { Logger } from '#server/lib/logger.ts'
import { addressClass, type FetchAnswer, type FetchOptions } from '#server/platform/core/outbound.ts'
import { createHostPacer, type HostPacer } from '../host-pacer.ts'

/**
 * An RDAP client (RFC 7480/9082/9083) for one question: what the registry publishes of a domain,
 * as a typed summary. Which server answers a TLD is the installation's choice (RDAP_BASE_URL,
 * `parseRdapBases`); every request goes through the outbound guard (decision 022), paced per host,
 * logged (host, status, time; never a body).
 */

/** What a registry says of a registered domain, in the fields the brand, watch and intelligence areas read. */
export type RdapDomainSummary = {
  /** The name as the registry holds it (LDH, punycode for an IDN). */
  domain: string
  unicodeName: string | null
  handle: string | null
  registrar: string | null
  ianaId: string | null
  abuseEmail: string | null
  abusePhone: string | null
  /** The registrant's name or organisation when the registry shows it (most redact it). */
  registrant: string | null
  /** ISO dates of the registration, expiry and last change, as the registry gave them. */
  created: string | null
  expires: string | null
  updated: string | null
  /** RDAP's words (RFC 8056): `active`, `client transfer prohibited`, `redemption period`, … */
  statuses: string[]
  /** Lower case, no final dot. */
  nameservers: string[]
  /** DNSSEC: whether the delegation is signed, when said. */
  signed: boolean | null
}

export class RdapError extends Error {
  readonly reason: 'no_server' | 'http' | 'invalid'
  readonly status: number | null
  constructor(reason: RdapError['reason'], message: string, status: number | null = null) {
    super(message)
    this.name = 'RdapError'
    this.reason = reason
    this.status = status
  }
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null)
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** A vCard (jCard, RFC 7095) property's first value by name: `fn`, `email`, `tel` (a `tel:` URI made a number). */
function vcardValue(entity: Json, property: string): string | null {
  const card = list(entity.vcardArray)
  if (card[0] !== 'vcard') return null
  for (const entry of list(card[1])) {
    const [name, , type, value] = list(entry)
    if (name !== property) continue
    const found = text(value) ?? text(list(value)[0])
    if (!found) continue
    return property === 'tel' && (type === 'uri' || found.startsWith('tel:')) ? found.replace(/^tel:/, '').replace(/;.*$/, '') : found
  }
  return null
}

const hasRole = (entity: Json, role: string) => list(entity.roles).includes(role)

/** An event's date by its action (`registration`, `expiration`, `last changed`). */
function eventDate(events: unknown[], action: string): string | null {
  for (const event of events) if (isObject(event) && event.eventAction === action) return text(event.eventDate)
  return null
}

/**
 * An RFC 9083 domain object made a summary. Lenient where registries differ (the registrar's IANA
 * id in `publicIds` or as the handle; the abuse contact nested in the registrar, or beside it);
 * refuses what is not a domain object.
 */
export function parseRdapDomain(body: unknown): RdapDomainSummary {
  if (!isObject(body) || body.objectClassName !== 'domain') throw new RdapError('invalid', 'The answer is not an RDAP domain object')
  const ldh = text(body.ldhName)?.toLowerCase().replace(/\.$/, '')
  const unicode = text(body.unicodeName)?.replace(/\.$/, '') ?? null
  const domain = ldh ?? (unicode ? punycode.toASCII(unicode).toLowerCase() : null)
  if (!domain) throw new RdapError('invalid', 'The RDAP domain object has no name')
  const entities = list(body.entities).filter(isObject)
  const registrar = entities.find((e) => hasRole(e, 'registrar'))
  const ianaId =
    list(registrar?.publicIds)
      .filter(isObject)
      .map((p) => (/iana/i.test(String(p.type ?? '')) ? text(p.identifier) : null))
      .find(Boolean) ?? null
  const registrant = entities.find((e) => hasRole(e, 'registrant'))
  const abuse = [...list(registrar?.entities).filter(isObject), ...entities].find((e) => hasRole(e, 'abuse'))
  const events = list(body.events)
  return {
    domain,
    unicodeName: unicode && unicode !== domain ? unicode : null,
    handle: text(body.handle),
    registrar: registrar ? (vcardValue(registrar, 'fn') ?? text(registrar.handle)) : null,
    ianaId,
    abuseEmail: abuse ? vcardValue(abuse, 'email') : null,
    abusePhone: abuse ? vcardValue(abuse, 'tel') : null,
    registrant: registrant ? (vcardValue(registrant, 'fn') ?? vcardValue(registrant, 'org')) : null,
    created: eventDate(events, 'registration'),
    expires: eventDate(events, 'expiration'),
    updated: eventDate(events, 'last changed'),
    statuses: list(body.status)
      .map(text)
      .filter((s): s is string => !!s),
    nameservers: list(body.nameservers)
      .filter(isObject)
      .map((ns) => text(ns.ldhName)?.toLowerCase().replace(/\.$/, ''))
      .filter((s): s is string => !!s),
    signed: isObject(body.secureDNS) && typeof body.secureDNS.delegationSigned === 'boolean' ? body.secureDNS.delegationSigned : null,
  }
}

/** Which RDAP server answers which TLD: by TLD (ASCII, no dot), `*` for every other. */
export type RdapBases = ReadonlyMap<string, string>

/**
 * RDAP_BASE_URL: one base URL for every TLD (`https://rdap.example/`), or `tld=url` pairs
 * comma-separated (`test=http://127.0.0.1:3871,*=https://rdap.org`), or an IANA bootstrap file's
 * contents (RFC 9224, `dns.json`) given as JSON. Throws on anything else.
 */
export function parseRdapBases(setting: string): RdapBases {
  const bases = new Map<string, string>()
  const trimmed = setting.trim()
  const url = (value: string) => {
    const parsed = new URL(value.trim())
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`${value}: an RDAP base is an http(s) URL`)
    return parsed.href.replace(/\/+$/, '')
  }
  if (trimmed.startsWith('{')) {
    const json = JSON.parse(trimmed) as { services?: unknown }
    for (const service of list(json.services)) {
      const [tlds, urls] = list(service)
      const first = list(urls).map(text).filter(Boolean) as string[]
      const chosen = first.find((u) => u.startsWith('https:')) ?? first[0]
      if (!chosen) continue
      for (const tld of list(tlds)) if (typeof tld === 'string') bases.set(tld.toLowerCase(), url(chosen))
    }
    return bases
  }
  if (!trimmed.includes('=')) {
    bases.set('*', url(trimmed))
    return bases
  }
  for (const pair of trimmed.split(',')) {
    const at = pair.indexOf('=')
    if (at < 1) throw new Error(`${pair}: expected tld=url`)
    bases.set(pair.slice(0, at).trim().toLowerCase().replace(/^\./, ''), url(pair.slice(at + 1)))
  }
  return bases
}

/** A summary in the words of watch's seam (`server/platform/watch/rdap.ts`'s RdapFacts): which server answered, snake case. */
export type RdapFacts = {
  server: string
  registrar: string | null
  iana_id: string | null
  abuse_email: string | null
  registrant: string | null
  registered_at: string | null
  expires_at: string | null
  statuses: string[]
  nameservers: string[]
}

export type RdapClient = {
  /** The RDAP server asked for a name's TLD, or null when none is configured for it. */
  baseFor(name: string): string | null
  /** The registry's record of a domain; null when it answers 404 (not registered there). Throws RdapError (`no_server` too), HostThrottled, OutboundRefused. */
  lookupDomain(name: string): Promise<RdapDomainSummary | null>
  /** The host of the RDAP server answering for a name ('' when none): what requests are paced by. */
  serverOf(name: string): string
  /** `lookupDomain` as watch reads it: null when not registered there or no server is configured for its TLD. */
  lookup(name: string): Promise<RdapFacts | null>
}

export type RdapClientOptions = {
  bases: RdapBases
  /** The outbound guard's fetch (`outboundOf(deps).fetch`). */
  fetch: (url: string, init?: FetchOptions) => Promise<FetchAnswer>
  logger?: Logger
  /** Requests per second per RDAP host (the bucket refills at it) and the burst; default 2 and 5. */
  perSecond?: number
  burst?: number
  timeoutMs?: number
  pacer?: HostPacer
}

/** A base on loopback or a private address is the operator's own (the local registry): reached, but no redirect is followed from it. */
function isPrivateBase(base: string): boolean {
  const host = new URL(base).hostname.replace(/^\[|\]$/g, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  return isIP(host) !== 0 && addressClass(host) !== null
}

export function createRdapClient(options: RdapClientOptions): RdapClient {
  const pacer = options.pacer ?? createHostPacer({ perSecond: options.perSecond ?? 2, burst: options.burst ?? 5 })
  const baseFor = (name: string) => {
    const ascii = punycode.toASCII(name.trim().toLowerCase().replace(/\.$/, ''))
    const tld = ascii.slice(ascii.lastIndexOf('.') + 1)
    return options.bases.get(tld) ?? options.bases.get('*') ?? null
  }
  const serverOf = (name: string) => {
    const base = baseFor(name)
    return base ? new URL(base).host : ''
  }
  const client: RdapClient = {
    baseFor,
    serverOf,
    async lookup(name) {
      if (!baseFor(name)) return null
      const found = await client.lookupDomain(name)
      if (!found) return null
      return {
        server: serverOf(name),
        registrar: found.registrar,
        iana_id: found.ianaId,
        abuse_email: found.abuseEmail,
        registrant: found.registrant,
        registered_at: found.created,
        expires_at: found.expires,
        statuses: found.statuses,
        nameservers: found.nameservers,
      }
    },
    async lookupDomain(name) {
      const ascii = punycode.toASCII(name.trim().toLowerCase().replace(/\.$/, ''))
      const base = baseFor(ascii)
      if (!base) throw new RdapError('no_server', `No RDAP server is configured for ${ascii} (RDAP_BASE_URL)`)
      const url = `${base}/domain/${encodeURIComponent(ascii)}`
      const host = new URL(base).host
      await pacer.wait(host)
      const started = Date.now()
      const own = isPrivateBase(base)
      let answer: FetchAnswer
      try {
        answer = await options.fetch(url, {
          headers: { accept: 'application/rdap+json, application/json' },
          timeoutMs: options.timeoutMs ?? 8000,
          maxBytes: 512 * 1024,
          maxRedirects: own ? 0 : 3,
          protocols: ['https:', 'http:'],
          ...(own ? { policy: { allowPrivate: true } } : {}),
        })
      } catch (error) {
        options.logger?.warn('rdap request failed', { host, domain: ascii, ms: Date.now() - started, error: (error as Error).message })
        throw error
      }
      options.logger?.info('rdap request', { host, domain: ascii, status: answer.status, ms: Date.now() - started })
      if (answer.status === 404) return null
      if (answer.status !== 200) throw new RdapError('http', `RDAP server ${host} answered ${answer.status} for ${ascii}`, answer.status)
      let body: unknown
      try {
        body = JSON.parse(answer.body.toString('utf8'))
      } catch {
        throw new RdapError('invalid', `RDAP server ${host} answered something that is not JSON for ${ascii}`)
      }
      return parseRdapDomain(body)
    },
  }
  return client
}
