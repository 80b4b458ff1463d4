import { promises as dns, type LookupAddress } from 'node:dns'
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, isIPv4 } from 'node:net'

/**
 * The one guard for every request the server makes to an address a user gave (decision 022):
 * webhook deliveries, the SSL HTTP-01 pre-check, DNS lookups of names we do not host. A name is
 * resolved through the configured resolver (DNS_RESOLVER), never silently the system's; every
 * address it resolves to is checked by its class (`addressClass`); the connection goes to the
 * checked address (the `lookup` node:http calls at connect answers only checked addresses); an IP
 * written in the URL is checked before connecting (node:net never calls `lookup` for one); each
 * redirect is checked again, up to a hop limit; the exchange has a deadline and the answer a size
 * limit.
 */

/** Why an address is not reachable from here; null for a public (global unicast) address. */
export type AddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link-local'
  | 'unique-local'
  | 'site-local'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'documentation'
  | 'benchmarking'
  | 'ietf-protocol'
  | 'ipv4-mapped'
  | 'ipv4-compatible'
  | 'ipv4-translated'
  | '6to4'
  | 'teredo'
  | 'nat64'
  | 'discard'

type Range = readonly [prefix: bigint, bits: number, kind: AddressClass | 'embedded-ipv4']

const v4 = (text: string): bigint => text.split('.').reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n)

// The first range that holds an address decides (more specific ranges first).
const IPV4: Range[] = [
  [v4('0.0.0.0'), 8, 'unspecified'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('100.64.0.0'), 10, 'cgnat'],
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('169.254.0.0'), 16, 'link-local'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.0.0.0'), 24, 'ietf-protocol'],
  [v4('192.0.2.0'), 24, 'documentation'],
  [v4('192.88.99.0'), 24, '6to4'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('198.18.0.0'), 15, 'benchmarking'],
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('255.255.255.255'), 32, 'broadcast'],
  [v4('240.0.0.0'), 4, 'reserved'],
]

/** The 128 bits of an IPv6 address (node:net has checked its syntax); a dotted IPv4 tail is two groups. */
function v6(text: string): bigint {
  let address = text
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)
  if (dotted) {
    const n = v4(dotted[1]!)
    address = `${address.slice(0, dotted.index)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`
  }
  const [head = '', tail] = address.split('::')
  const groupsOf = (part: string) => (part ? part.split(':') : [])
  const left = groupsOf(head)
  const right = tail === undefined ? [] : groupsOf(tail)
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
  return groups.reduce((n, group) => (n << 16n) | BigInt(parseInt(group, 16)), 0n)
}

const IPV6: Range[] = [
  [v6('::'), 128, 'unspecified'],
  [v6('::1'), 128, 'loopback'],
  // A dual-stack socket's way of writing an IPv4 address: judged by the address it carries.
  [v6('::ffff:0:0'), 96, 'embedded-ipv4'],
  [v6('::'), 96, 'ipv4-compatible'],
  [v6('::ffff:0:0:0'), 96, 'ipv4-translated'],
  // NAT64's well-known prefix reaches the IPv4 address it carries (RFC 6052: never a non-global one).
  [v6('64:ff9b::'), 96, 'embedded-ipv4'],
  [v6('64:ff9b:1::'), 48, 'nat64'],
  [v6('::'), 8, 'reserved'],
  [v6('100::'), 64, 'discard'],
  [v6('2001::'), 32, 'teredo'],
  [v6('2001::'), 23, 'ietf-protocol'],
  [v6('2001:db8::'), 32, 'documentation'],
  [v6('2002::'), 16, '6to4'],
  [v6('3fff::'), 20, 'documentation'],
  [v6('fc00::'), 7, 'unique-local'],
  [v6('fe80::'), 10, 'link-local'],
  [v6('fec0::'), 10, 'site-local'],
  [v6('ff00::'), 8, 'multicast'],
]

const within = (n: bigint, width: number, [prefix, bits]: Range) => n >> BigInt(width - bits) === prefix >> BigInt(width - bits)

/**
 * The class of an address that may not be reached from here, or null when it is public: IPv4
 * outside the special-purpose ranges, IPv6 inside global unicast (2000::/3) and outside its
 * special-purpose ranges. IPv6 forms that carry an IPv4 address are judged by it (IPv4-mapped,
 * NAT64's well-known prefix) or refused whole, whatever they carry (IPv4-compatible and
 * -translated, 6to4, Teredo, NAT64's local-use prefix): their route goes through a translator or
 * relay we cannot see. Anything that is not an address is 'reserved'.
 */
export function addressClass(ip: string): AddressClass | null {
  const text = ip.replace(/^\[|\]$/g, '')
  const scoped = text.includes('%')
  const address = scoped ? text.slice(0, text.indexOf('%')) : text
  const family = isIP(address)
  if (family === 4) {
    const n = v4(address)
    return (IPV4.find((range) => within(n, 32, range))?.[2] as AddressClass | undefined) ?? null
  }
  if (family !== 6) return 'reserved'
  // A zone index names an interface: the address is one of a link.
  if (scoped) return 'link-local'
  const n = v6(address)
  const range = IPV6.find((r) => within(n, 128, r))
  if (range?.[2] === 'embedded-ipv4') {
    const inner = addressClass(ipv4Of(n))
    return inner && (range[0] === v6('::ffff:0:0') ? 'ipv4-mapped' : 'nat64')
  }
  if (range) return range[2] as AddressClass
  // Outside global unicast (2000::/3): not assigned to anyone reachable.
  return n >> 125n === 1n ? null : 'reserved'
}

const ipv4Of = (n: bigint) => [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 0xffn)).join('.')

/** How the guard resolves names: servers (`host:port`), the system's resolver by choice, or none (names are not resolved). */
export type ResolverSetting = readonly string[] | 'system' | null

/**
 * DNS_RESOLVER: `system`, or a comma-separated list of resolvers by address (a resolver named by a
 * name would need a resolver): `192.0.2.53`, `192.0.2.53:5353`, `[2001:db8::53]:53`. Throws with
 * what is wrong.
 */
export function parseResolverSetting(text: string): ResolverSetting {
  if (text.trim() === 'system') return 'system'
  return text.split(',').map((part) => {
    const entry = part.trim()
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry)
    const plain = /^([^:]+)(?::(\d+))?$/.exec(entry)
    const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : plain ? [plain[1]!, plain[2]] : isIP(entry) === 6 ? [entry, undefined] : ['', undefined]
    if (!isIP(host)) throw new Error(`'${entry}' is not an IP address with an optional port (or 'system')`)
    const number = Number(port ?? 53)
    if (!Number.isInteger(number) || number < 1 || number > 65535) throw new Error(`'${entry}' has no valid port`)
    return isIPv4(host) ? `${host}:${number}` : `[${host}]:${number}`
  })
}

/** A request the guard would not make, with why (the message names the address and its class). */
export class OutboundRefused extends Error {
  readonly code: 'EOUTBOUND'
  readonly reason: 'address' | 'no_resolver' | 'scheme' | 'redirects' | 'too_large'
  readonly addressClass: AddressClass | null
  constructor(reason: OutboundRefused['reason'], message: string, addressClass: AddressClass | null = null) {
    super(message)
    this.name = 'OutboundRefused'
    this.code = 'EOUTBOUND'
    this.reason = reason
    this.addressClass = addressClass
  }
}

/** Per request: `allowPrivate` is the development and test switch of webhooks (WEBHOOKS_ALLOW_PRIVATE, decision 021). */
export type OutboundPolicy = { allowPrivate?: boolean }

export type OutboundOptions = {
  /** Where names are resolved (DNS_RESOLVER; the demo's own PowerDNS); null: names are not resolved, only addresses are reached. */
  resolver: ResolverSetting
  /** Addresses reachable whatever their class (exactly these; the server sets none, tests set the first hop of a redirect). */
  allow?: readonly string[]
  /** A lookup's deadline per try (ms) and its tries. */
  dnsTimeoutMs?: number
  dnsTries?: number
}

export type FetchOptions = {
  policy?: OutboundPolicy
  method?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Schemes the first URL and every redirect may use. */
  protocols?: readonly string[]
  /** Ports every redirect may go to (a CA follows HTTP-01 redirects to 80 and 443 only); any when absent. */
  redirectPorts?: readonly number[]
  /** Redirects followed (each checked like the first URL); 0 answers the redirect itself. */
  maxRedirects?: number
  /** The whole exchange, redirects included. */
  timeoutMs?: number
  /** The answer's body, at most. */
  maxBytes?: number
}

export type FetchAnswer = { status: number; headers: IncomingHttpHeaders; body: Buffer; url: string; redirects: string[] }

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

export type Outbound = ReturnType<typeof createOutbound>

export function createOutbound(options: OutboundOptions) {
  const allowed = new Set((options.allow ?? []).map((a) => a.toLowerCase()))
  const resolverOf = () => {
    const resolver = new dns.Resolver({ timeout: options.dnsTimeoutMs ?? 2000, tries: options.dnsTries ?? 2 })
    if (Array.isArray(options.resolver)) resolver.setServers(options.resolver)
    return resolver
  }
  const noResolver = (name: string) => new OutboundRefused('no_resolver', `${name} is not resolved: no DNS resolver is configured (DNS_RESOLVER)`)

  /** Why this address may not be reached under the policy, or null. */
  const refusalOf = (address: string, policy: OutboundPolicy, name?: string): OutboundRefused | null => {
    const kind = addressClass(address)
    if (!kind || policy.allowPrivate || allowed.has(address.toLowerCase())) return null
    const what = name && name !== address ? `${name} resolves to ${address}, ` : `${address} is `
    return new OutboundRefused('address', `${what}${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address, not reachable from here`, kind)
  }

  /** Every address of a name, each checked (one refused address refuses the name: no choosing among them by chance). */
  async function resolve(host: string, policy: OutboundPolicy = {}): Promise<LookupAddress[]> {
    const name = host
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase()
    let list: LookupAddress[]
    const family = isIP(name)
    if (family) list = [{ address: name, family }]
    // RFC 6761: localhost is the loopback, and never asked of a resolver.
    else if (name === 'localhost' || name.endsWith('.localhost'))
      list = [
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]
    else if (options.resolver === null) throw noResolver(name)
    else if (options.resolver === 'system') list = await dns.lookup(name, { all: true, order: 'verbatim' })
    else {
      const resolver = resolverOf()
      const [a, aaaa] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)])
      list = [...(a.status === 'fulfilled' ? a.value.map((address) => ({ address, family: 4 })) : []), ...(aaaa.status === 'fulfilled' ? aaaa.value.map((address) => ({ address, family: 6 })) : [])]
      if (!list.length) throw a.status === 'rejected' ? a.reason : aaaa.status === 'rejected' ? aaaa.reason : Object.assign(new Error(`${name} has no address`), { code: 'ENODATA' })
    }
    for (const entry of list) {
      const refusal = refusalOf(entry.address, policy, name)
      if (refusal) throw refusal
    }
    return list
  }

  /** For node:http(s) (and any socket): the name resolved and checked at connect, so the connection goes to the address checked. */
  function lookup(policy: OutboundPolicy = {}) {
    return (hostname: string, lookupOptions: { family?: number | string; all?: boolean }, callback: LookupCallback) => {
      resolve(hostname, policy).then(
        (list) => {
          const wanted = lookupOptions.family === 4 || lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 6 || lookupOptions.family === 'IPv6' ? 6 : 0
          const usable = wanted ? list.filter((a) => a.family === wanted) : list
          if (!usable.length) return callback(Object.assign(new Error(`${hostname} has no IPv${wanted} address`), { code: 'ENOTFOUND' }), '')
          if (lookupOptions.all) return callback(null, usable)
          callback(null, usable[0]!.address, usable[0]!.family)
        },
        (error: NodeJS.ErrnoException) => callback(error, ''),
      )
    }
  }

  /**
   * What node:http(s) needs to reach a URL through the guard: an address written in the URL is
   * checked now, a name at each connect. Throws OutboundRefused.
   */
  function requestOptions(url: URL, policy: OutboundPolicy = {}, protocols: readonly string[] = ['https:', 'http:']) {
    const hostname = url.hostname.replace(/^\[|\]$/g, '')
    if (isIP(hostname)) {
      const refusal = refusalOf(hostname, policy)
      if (refusal) throw refusal
    } else if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
      const refusal = refusalOf('127.0.0.1', policy, hostname)
      if (refusal) throw refusal
    }
    if (!protocols.includes(url.protocol)) throw new OutboundRefused('scheme', `${url.protocol.replace(/:$/, '')} is not allowed here (${protocols.map((p) => p.replace(/:$/, '')).join(', ')})`)
    if (url.username || url.password) throw new OutboundRefused('scheme', 'A URL with credentials is not requested')
    return {
      https: url.protocol === 'https:',
      options: { protocol: url.protocol, hostname, port: url.port || undefined, path: `${url.pathname}${url.search}`, lookup: lookup(policy) as RequestOptions['lookup'] } satisfies RequestOptions,
    }
  }

  /**
   * One request through the guard, redirects followed by hand (each hop checked again, at most
   * `maxRedirects`), within `timeoutMs` for the whole exchange and `maxBytes` of answer. A fresh
   * connection per request: a pooled socket could have been opened to an address nobody checked.
   */
  async function fetch(text: string, init: FetchOptions = {}): Promise<FetchAnswer> {
    const policy = init.policy ?? {}
    const maxRedirects = init.maxRedirects ?? 5
    const maxBytes = init.maxBytes ?? 1_048_576
    const deadline = Date.now() + (init.timeoutMs ?? 10_000)
    let url = new URL(text)
    let method = init.method ?? 'GET'
    let body = init.body
    const redirects: string[] = []
    for (;;) {
      const target = requestOptions(url, policy, init.protocols)
      const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
      if (redirects.length && init.redirectPorts && !init.redirectPorts.includes(port))
        throw new OutboundRefused('redirects', `A redirect to port ${port} is not followed (${init.redirectPorts.join(', ')} only)`)
      const response = await exchange(target, { method, headers: init.headers ?? {}, body, deadline })
      const location = response.headers.location
      if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location && maxRedirects > 0) {
        response.resume()
        if (redirects.length >= maxRedirects) throw new OutboundRefused('redirects', `More than ${maxRedirects} redirects from ${text}`)
        url = new URL(location, url)
        redirects.push(url.href)
        if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
          method = 'GET'
          body = undefined
        }
        continue
      }
      const chunks: Buffer[] = []
      let size = 0
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => response.destroy(new Error(`No answer within ${init.timeoutMs ?? 10_000} ms`)), Math.max(0, deadline - Date.now()))
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > maxBytes) response.destroy(new OutboundRefused('too_large', `The answer of ${url.href} is larger than ${maxBytes} bytes`))
          else chunks.push(chunk)
        })
        response.on('end', () => {
          clearTimeout(timer)
          resolve()
        })
        response.on('error', (error) => {
          clearTimeout(timer)
          reject(error)
        })
      })
      return { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks), url: url.href, redirects }
    }
  }

  function exchange(
    target: ReturnType<typeof requestOptions>,
    init: { method: string; headers: Record<string, string>; body: string | Buffer | undefined; deadline: number },
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const send = target.https ? httpsRequest : httpRequest
      const req = send({ ...target.options, method: init.method, headers: init.headers, agent: false }, resolve)
      const remaining = init.deadline - Date.now()
      const timer = setTimeout(() => req.destroy(new Error('No answer in time')), Math.max(0, remaining))
      req.on('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
      req.on('response', () => clearTimeout(timer))
      req.end(init.body)
    })
  }

  /** The TXT records of a name we do not host, through the configured resolver. */
  async function resolveTxt(name: string): Promise<string[][]> {
    if (options.resolver === null) throw noResolver(name)
    return resolverOf().resolveTxt(name)
  }

  /** The CAA records of a name we do not host, through the configured resolver. */
  async function resolveCaa(name: string) {
    if (options.resolver === null) throw noResolver(name)
    return resolverOf().resolveCaa(name)
  }

  /**
   * The records of one name and type as the configured resolver answers them (a change set's
   * health check asks our PowerDNS what it serves, issue 33): the resolver's own answer shapes; an
   * empty list for a name or type with no records.
   */
  async function resolveRecords(name: string, type: 'A' | 'AAAA' | 'CNAME' | 'MX' | 'TXT' | 'NS' | 'CAA' | 'SRV'): Promise<unknown[]> {
    if (options.resolver === null || options.resolver === 'system') throw noResolver(name)
    try {
      return (await resolverOf().resolve(name, type)) as unknown[]
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENODATA' || code === 'ENOTFOUND') return []
      throw error
    }
  }

  return { resolver: options.resolver, resolve, lookup, requestOptions, fetch, resolveTxt, resolveCaa, resolveRecords, refusalOf }
}

/** The guard of a platform without one configured: no resolver (addresses only), nothing allowed beyond public addresses. */
const UNCONFIGURED = createOutbound({ resolver: null })

/** What a caller of the guard needs of the platform's dependencies. */
export type WithOutbound = { outbound?: Outbound | undefined }

/** The process's guard (`deps.outbound`), or one that resolves no names when none is configured. */
export const outboundOf = (deps: WithOutbound): Outbound => deps.outbound ?? UNCONFIGURED
