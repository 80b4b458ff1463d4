import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'
import { WEBHOOK_URL_MAX } from '#common/webhooks.ts'

/** Addresses a webhook may never reach in production: loopback, private, link-local, CGNAT, multicast, reserved. */
const PRIVATE = new BlockList()
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4')
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6')

export function isPrivateAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  const address = mapped ? mapped[1]! : ip
  const family = isIP(address)
  if (!family) return true
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * Why a URL cannot be an endpoint, or null: HTTPS only, no credentials in it, and no loopback or
 * private address written as the host — unless private addresses are allowed (development and
 * tests), which also allows plain HTTP. Names are resolved again at each delivery (`safeLookup`).
 */
export function urlProblem(text: string, allowPrivate: boolean): string | null {
  if (text.length > WEBHOOK_URL_MAX) return 'too_long'
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return 'invalid'
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'https_required'
  if (url.username || url.password) return 'invalid'
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isPrivateAddress(host)))) return 'private_address'
  return null
}

/**
 * A DNS lookup for node:http(s) that refuses a name resolving to a private address, checked at
 * connect time on the address actually used (no window for DNS rebinding between check and use).
 */
export function safeLookup(allowPrivate: boolean) {
  return (hostname: string, options: object, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '')
      const list = addresses as LookupAddress[]
      const refused = !allowPrivate && list.some((a) => isPrivateAddress(a.address))
      if (refused || !list.length) return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }), '')
      if ((options as { all?: boolean }).all) return callback(null, list)
      callback(null, list[0]!.address, list[0]!.family)
    })
  }
}
