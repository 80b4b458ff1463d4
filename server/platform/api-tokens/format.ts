import { randomInt } from 'node:crypto'
import { BlockList, isIP } from 'node:net'
import { crc32 } from 'node:zlib'
import { API_TOKEN_PREFIX } from '#common/api-tokens.ts'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** 30 base62 characters: 178 random bits. */
const RANDOM_LENGTH = 30
const CHECK_LENGTH = 6

function base62(value: number, width: number): string {
  let out = ''
  for (let i = 0; i < width; i++) {
    out = BASE62[value % 62] + out
    value = Math.floor(value / 62)
  }
  return out
}

const checksum = (random: string) => base62(crc32(random), CHECK_LENGTH)

/**
 * A new secret: `rp_` + 30 random base62 characters + the CRC32 of those as 6 base62 characters
 * (the format GitHub's tokens use), so a scanner can tell a real token from a look-alike offline.
 */
export function newApiTokenSecret(): string {
  let random = ''
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)]
  return `${API_TOKEN_PREFIX}${random}${checksum(random)}`
}

/** True when the text has the token's shape and its checksum holds (no database needed). */
export function isApiTokenSecret(text: string): boolean {
  if (!text.startsWith(API_TOKEN_PREFIX) || text.length !== API_TOKEN_PREFIX.length + RANDOM_LENGTH + CHECK_LENGTH) return false
  const body = text.slice(API_TOKEN_PREFIX.length)
  if (!/^[0-9A-Za-z]+$/.test(body)) return false
  return checksum(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH)
}

/** What a list shows of a secret: the prefix and four characters. */
export const hintOf = (secret: string) => `${secret.slice(0, API_TOKEN_PREFIX.length + 4)}…`

/** A CIDR range in canonical text, or null when it is not one (a bare address is a /32 or /128). */
export function parseCidr(text: string): string | null {
  const [address, bits, ...rest] = text.trim().split('/')
  if (rest.length || !address) return null
  const family = isIP(address)
  if (!family) return null
  const max = family === 4 ? 32 : 128
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN
  if (!(prefix >= 0 && prefix <= max)) return null
  return `${address.toLowerCase()}/${prefix}`
}

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d), as a dual-stack socket reports it, as IPv4. */
const unmapped = (ip: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip)

/** True when the address is in one of the ranges (an empty list allows every address). */
export function addressAllowed(cidrs: readonly string[], ip: string | undefined): boolean {
  if (!cidrs.length) return true
  if (!ip) return false
  const address = unmapped(ip)
  const family = isIP(address)
  if (!family) return false
  const list = new BlockList()
  for (const cidr of cidrs) {
    const [net, bits] = cidr.split('/')
    const netFamily = isIP(net!)
    if (netFamily) list.addSubnet(net!, Number(bits), netFamily === 4 ? 'ipv4' : 'ipv6')
  }
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6')
}
