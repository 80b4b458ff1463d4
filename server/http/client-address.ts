import { BlockList, isIP } from 'node:net'

/**
 * Which proxies in front of us may say who the client is (TRUST_PROXY), as Express and Fastify
 * define it: nothing by default (the socket's peer is the client); a hop count (the n proxies
 * nearest to us are trusted); or a list of addresses and CIDR ranges, with the keywords
 * `loopback`, `linklocal` and `uniquelocal`.
 */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'list'; list: BlockList }

const KEYWORDS: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
}

/** Parses TRUST_PROXY; throws with a sentence naming the bad entry. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim()
  if (!text || text === 'false' || text === '0') return { kind: 'none' }
  if (/^\d+$/.test(text)) return { kind: 'hops', hops: Number(text) }
  const list = new BlockList()
  for (const raw of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    for (const entry of KEYWORDS[raw] ?? [raw]) {
      const [address, bits] = entry.split('/')
      const family = isIP(address ?? '')
      if (!family) throw new Error(`'${raw}' is not an address, a CIDR range, a hop count or one of loopback, linklocal, uniquelocal`)
      const type = family === 6 ? 'ipv6' : 'ipv4'
      if (bits === undefined) list.addAddress(address!, type)
      else if (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32)) list.addSubnet(address!, Number(bits), type)
      else throw new Error(`'${raw}' has a bad prefix length`)
    }
  }
  return { kind: 'list', list }
}

/** `::ffff:192.0.2.1` as `192.0.2.1`: one spelling per IPv4 client. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address
}

function trusted(trust: TrustProxy, address: string, hop: number): boolean {
  if (trust.kind === 'none') return false
  if (trust.kind === 'hops') return hop < trust.hops
  const family = isIP(address)
  return family !== 0 && trust.list.check(address, family === 6 ? 'ipv6' : 'ipv4')
}

/**
 * The client's address: the socket's peer, unless it is a trusted proxy, in which case the
 * X-Forwarded-For chain is walked from the nearest hop back to the first address not trusted.
 * A header from an untrusted peer is ignored, so nobody can choose the address we log and count.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | null | undefined, trust: TrustProxy): string {
  let address = plain(socketAddress ?? '') || 'unknown'
  if (trust.kind === 'none' || !forwardedFor) return address
  const chain = forwardedFor
    .split(',')
    .map((s) => plain(s.trim()))
    .filter(Boolean)
  for (let hop = 0; trusted(trust, address, hop) && chain.length; hop++) {
    const next = chain.pop()!
    if (!isIP(next)) break
    address = next
  }
  return address
}
