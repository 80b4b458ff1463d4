import { NameError, resolveName, type NameKind } from './names.ts'

import { DNS_RECORD_TYPES, type DnsRecordType } from '#common/lists/dns.ts'

/** The record types the portal manages (SOA is managed by the portal itself). */
export const RECORD_TYPES = DNS_RECORD_TYPES
export type RecordType = DnsRecordType
const TYPE_SET = new Set<string>(RECORD_TYPES)
export const isRecordType = (t: string): t is RecordType => TYPE_SET.has(t)

/** One lexical token of a master file: quoted tokens keep their inner text with escapes. */
export type Token = { text: string; quoted: boolean; column: number }

/** An error at a token (its column) or at the end of the rdata; `code` when a screen says it in its own words (dns `errors.record.<code>`). */
export class RdataError extends Error {
  readonly column: number | undefined
  readonly code: string | undefined
  readonly params: Record<string, string> | undefined
  constructor(message: string, column?: number, coded?: { code: string; params: Record<string, string> }) {
    super(message)
    this.column = column
    this.code = coded?.code
    this.params = coded?.params
  }
}

export type Rdata = { content: string; priority: number | null }

/** RFC 2181 §8: a TTL is an unsigned 31-bit number. */
export const TTL_MAX = 2_147_483_647

/** Reads a TTL or SOA timer: plain seconds or BIND units (1w2d3h4m5s). Returns -1 when malformed. */
export function parseTtl(text: string): number {
  let total = 0
  let current = -1
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      current = (current < 0 ? 0 : current) * 10 + (c - 48)
      if (current > TTL_MAX) return -2
      continue
    }
    if (current < 0) return -1
    const unit = c | 32
    const factor = unit === 115 ? 1 : unit === 109 ? 60 : unit === 104 ? 3600 : unit === 100 ? 86400 : unit === 119 ? 604800 : 0
    if (!factor) return -1
    total += current * factor
    current = -1
  }
  if (current >= 0) total += current
  else if (text.length === 0 || !/[smhdw]$/i.test(text)) return -1
  return total > TTL_MAX ? -2 : total
}

function ttlField(token: Token | undefined, what: string): number {
  if (!token) throw new RdataError(`missing ${what}`)
  const value = parseTtl(token.text)
  if (value === -2) throw new RdataError(`${what} ${token.text} is above ${TTL_MAX}`, token.column)
  if (value < 0) throw new RdataError(`${what} '${token.text}' is not a number of seconds`, token.column)
  return value
}

function uint(token: Token | undefined, what: string, max: number): number {
  if (!token) throw new RdataError(`missing ${what}`)
  const text = token.text
  let value = 0
  if (text.length === 0 || text.length > 10 || token.quoted) throw new RdataError(`${what} '${text}' is not a number`, token.column)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 48 || c > 57) throw new RdataError(`${what} '${text}' is not a number`, token.column)
    value = value * 10 + (c - 48)
  }
  if (value > max) throw new RdataError(`${what} ${text} is out of range 0–${max}`, token.column)
  return value
}

/** Reverse zones (RFC 2317) name hosts by their address's digits: `4.3` there is a name, not an address. */
const isReverseZone = (origin: string) => origin === 'in-addr.arpa' || origin.endsWith('.in-addr.arpa') || origin === 'ip6.arpa' || origin.endsWith('.ip6.arpa')

/**
 * True when a target written as a name reads as an IP address (`192.0.2.159`, `2001:db8::1`): a
 * CNAME, NS, MX, SRV or PTR target with it would be stored as `192.0.2.159.zone.` (issue 28), a
 * name nobody meant. Written absolute (`192.0.2.159.`) it ends in a numeric TLD, which no name has
 * (RFC 3696 §2); written relative it is an address anywhere but in a reverse zone.
 */
export function isAddressTarget(text: string, origin: string): boolean {
  const bare = text.endsWith('.') ? text.slice(0, -1) : text
  if (canonicalIpv6(bare)) return true
  return isIpv4(bare) && (text.endsWith('.') || !isReverseZone(origin))
}

function name(token: Token | undefined, origin: string, kind: NameKind, what: string, allowRoot = false): string {
  if (!token) throw new RdataError(`missing ${what}`)
  if (token.quoted) throw new RdataError(`${what} must not be quoted`, token.column)
  if (allowRoot && token.text === '.') return '.'
  if (isAddressTarget(token.text, origin)) {
    throw new RdataError(`${what} '${token.text}' is an IP address, not a host name: an address belongs in an A or AAAA record`, token.column, {
      code: 'target-address',
      params: { value: token.text },
    })
  }
  try {
    const resolved = resolveName(token.text, origin, kind)
    if (resolved === '') throw new NameError('the root name is not a host name')
    return `${resolved}.`
  } catch (error) {
    if (error instanceof NameError) throw new RdataError(`${what}: ${error.message}`, token.column, { code: 'target-name', params: { value: token.text } })
    throw error
  }
}

function done(tokens: Token[], index: number) {
  const extra = tokens[index]
  if (extra) throw new RdataError(`unexpected '${extra.text}' after the record data`, extra.column)
}

// --- addresses ---------------------------------------------------------------------------

function ipv4(token: Token | undefined): string {
  if (!token) throw new RdataError('missing IPv4 address')
  if (!isIpv4(token.text)) throw new RdataError(`'${token.text}' is not an IPv4 address`, token.column, { code: 'ipv4', params: { value: token.text } })
  return token.text
}

export function isIpv4(text: string): boolean {
  let parts = 0
  let value = 0
  let digits = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? 46 : text.charCodeAt(i)
    if (c === 46) {
      if (digits === 0 || value > 255) return false
      parts++
      value = 0
      digits = 0
      continue
    }
    if (c < 48 || c > 57) return false
    if (digits === 1 && value === 0) return false // leading zero
    value = value * 10 + (c - 48)
    digits++
  }
  return parts === 4
}

/** Parses IPv6 text into 8 groups, or null. */
function ipv6Groups(text: string): number[] | null {
  // Hand-written: this runs for every AAAA of a million-record import.
  const head: number[] = []
  const tail: number[] = []
  let target = head
  let doubled = false
  let i = 0
  const n = text.length
  if (n < 2) return null
  if (text.charCodeAt(0) === 58) {
    if (text.charCodeAt(1) !== 58) return null
    doubled = true
    target = tail
    i = 2
    if (i === n) return [0, 0, 0, 0, 0, 0, 0, 0]
  }
  while (i < n) {
    let value = 0
    let digits = 0
    const start = i
    while (i < n) {
      const c = text.charCodeAt(i)
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1
      if (d < 0) break
      value = value * 16 + d
      digits++
      i++
    }
    if (i < n && text.charCodeAt(i) === 46) {
      // An embedded IPv4 address ends the text.
      const v4 = text.slice(start)
      if (!isIpv4(v4)) return null
      const o = v4.split('.').map(Number)
      target.push((o[0]! << 8) | o[1]!, (o[2]! << 8) | o[3]!)
      break
    }
    if (digits === 0 || digits > 4) return null
    target.push(value)
    if (i === n) break
    if (text.charCodeAt(i) !== 58) return null
    i++
    if (i < n && text.charCodeAt(i) === 58) {
      if (doubled) return null
      doubled = true
      target = tail
      i++
      if (i === n) break
    } else if (i === n) return null
  }
  const count = head.length + tail.length
  if (doubled ? count > 7 : count !== 8) return null
  if (!doubled) return head
  const out = head.slice()
  for (let k = count; k < 8; k++) out.push(0)
  for (const v of tail) out.push(v)
  return out
}

/** RFC 5952 text: lower case, no leading zeros, the longest run of zero groups (≥2) as ::. */
export function canonicalIpv6(text: string): string | null {
  const g = ipv6Groups(text)
  if (!g) return null
  let bestStart = -1
  let bestLen = 1
  for (let i = 0; i < 8;) {
    if (g[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && g[j] === 0) j++
    if (j - i > bestLen) {
      bestStart = i
      bestLen = j - i
    }
    i = j
  }
  const hex = g.map((n) => n.toString(16))
  if (bestStart < 0) return hex.join(':')
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`
}

// --- character strings -------------------------------------------------------------------

/** Decodes the escapes of a character-string into bytes. */
export function decodeString(text: string, column?: number): Uint8Array | string {
  // Plain printable ASCII without escapes is by far the common case: keep it as text.
  let simple = true
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 92 || c > 126 || c < 32) {
      simple = false
      break
    }
  }
  if (simple) return text
  const bytes: number[] = []
  const encoder = new TextEncoder()
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 92) {
      const next = text.charCodeAt(i + 1)
      if (Number.isNaN(next)) throw new RdataError('the string ends with a lone backslash', column)
      if (next >= 48 && next <= 57) {
        const digits = text.slice(i + 1, i + 4)
        if (!/^\d{3}$/.test(digits)) throw new RdataError(`bad escape \\${digits}: use \\DDD with three digits`, column)
        const value = Number(digits)
        if (value > 255) throw new RdataError(`bad escape \\${digits}: above 255`, column)
        bytes.push(value)
        i += 3
      } else {
        const cp = text.codePointAt(i + 1)!
        for (const b of encoder.encode(String.fromCodePoint(cp))) bytes.push(b)
        i += cp > 0xffff ? 2 : 1
      }
      continue
    }
    if (c < 128) bytes.push(c)
    else {
      const cp = text.codePointAt(i)!
      for (const b of encoder.encode(String.fromCodePoint(cp))) bytes.push(b)
      if (cp > 0xffff) i++
    }
  }
  return Uint8Array.from(bytes)
}

/** A character-string in quotes, with only `"`, `\` and non-printable octets escaped. */
export function encodeString(value: Uint8Array | string): string {
  if (typeof value === 'string') {
    return value.indexOf('"') < 0 ? `"${value}"` : `"${value.replace(/"/g, '\\"')}"`
  }
  let out = '"'
  for (const b of value) {
    if (b === 34 || b === 92) out += `\\${String.fromCharCode(b)}`
    else if (b >= 32 && b <= 126) out += String.fromCharCode(b)
    else out += `\\${String(b).padStart(3, '0')}`
  }
  return `${out}"`
}

const byteLength = (v: Uint8Array | string) => v.length

function splitString(value: Uint8Array | string): (Uint8Array | string)[] {
  if (byteLength(value) <= 255) return [value]
  const parts: (Uint8Array | string)[] = []
  for (let i = 0; i < value.length; i += 255) parts.push(value.slice(i, i + 255))
  return parts
}

function hex(tokens: Token[], index: number, what: string, lengths?: Record<number, number>, kind?: number): string {
  if (!tokens[index]) throw new RdataError(`missing ${what}`)
  let text = ''
  for (let i = index; i < tokens.length; i++) text += tokens[i]!.text
  const column = tokens[index]!.column
  if (!/^[0-9a-fA-F]+$/.test(text) || text.length % 2) throw new RdataError(`${what} must be an even number of hexadecimal digits`, column)
  const want = lengths && kind !== undefined ? lengths[kind] : undefined
  if (want && text.length !== want) throw new RdataError(`${what} must be ${want} hexadecimal digits for type ${kind}, not ${text.length}`, column)
  return text.toLowerCase()
}

// --- per type ----------------------------------------------------------------------------

const CAA_TAGS = new Set(['issue', 'issuewild', 'iodef'])

/**
 * Parses and validates the record data of one type and returns its canonical text. Names in
 * the data are resolved against the origin and written absolute with a trailing dot.
 */
export function parseRdata(type: RecordType, tokens: Token[], origin: string): Rdata {
  switch (type) {
    case 'A': {
      const content = ipv4(tokens[0])
      done(tokens, 1)
      return { content, priority: null }
    }
    case 'AAAA': {
      const t = tokens[0]
      if (!t) throw new RdataError('missing IPv6 address')
      const content = canonicalIpv6(t.text)
      if (!content) throw new RdataError(`'${t.text}' is not an IPv6 address`, t.column, { code: 'ipv6', params: { value: t.text } })
      done(tokens, 1)
      return { content, priority: null }
    }
    case 'CNAME': {
      const content = name(tokens[0], origin, 'cname-target', 'CNAME target')
      done(tokens, 1)
      return { content, priority: null }
    }
    case 'NS': {
      const content = name(tokens[0], origin, 'host', 'name server')
      done(tokens, 1)
      return { content, priority: null }
    }
    case 'PTR': {
      const content = name(tokens[0], origin, 'cname-target', 'PTR target')
      done(tokens, 1)
      return { content, priority: null }
    }
    case 'MX': {
      const preference = uint(tokens[0], 'MX preference', 65535)
      // RFC 7505 null MX: "0 ." says the domain accepts no mail.
      const exchange = name(tokens[1], origin, 'host', 'mail server', true)
      done(tokens, 2)
      return { content: `${preference} ${exchange}`, priority: preference }
    }
    case 'TXT': {
      if (!tokens.length) throw new RdataError('missing text')
      let content = ''
      for (const t of tokens) {
        for (const part of splitString(decodeString(t.text, t.column))) {
          content += content ? ` ${encodeString(part)}` : encodeString(part)
        }
      }
      if (content.length > 65535) throw new RdataError('the text is longer than 65535 octets')
      return { content, priority: null }
    }
    case 'SRV': {
      const priority = uint(tokens[0], 'SRV priority', 65535)
      const weight = uint(tokens[1], 'SRV weight', 65535)
      const port = uint(tokens[2], 'SRV port', 65535)
      const target = name(tokens[3], origin, 'host', 'SRV target', true)
      done(tokens, 4)
      return { content: `${priority} ${weight} ${port} ${target}`, priority }
    }
    case 'CAA': {
      const flags = uint(tokens[0], 'CAA flags', 255)
      const tagToken = tokens[1]
      if (!tagToken) throw new RdataError('missing CAA tag')
      const tag = tagToken.text.toLowerCase()
      if (!CAA_TAGS.has(tag)) throw new RdataError(`CAA tag '${tagToken.text}' is not one of issue, issuewild, iodef`, tagToken.column)
      const valueToken = tokens[2]
      if (!valueToken) throw new RdataError('missing CAA value')
      const decoded = decodeString(valueToken.text, valueToken.column)
      const value = typeof decoded === 'string' ? decoded : new TextDecoder().decode(decoded)
      if (tag === 'iodef' && !/^(mailto:.+@.+|https?:\/\/.+)$/i.test(value)) {
        throw new RdataError('a CAA iodef value is a mailto: or http(s):// URL', valueToken.column)
      }
      if (tag !== 'iodef' && !/^\s*([a-z0-9.-]*)\s*(;.*)?$/i.test(value)) {
        throw new RdataError(`a CAA ${tag} value is a CA domain name, optionally followed by ; parameters`, valueToken.column)
      }
      done(tokens, 3)
      return { content: `${flags} ${tag} ${encodeString(decoded)}`, priority: null }
    }
    case 'DS': {
      const keyTag = uint(tokens[0], 'DS key tag', 65535)
      const algorithm = uint(tokens[1], 'DS algorithm', 255)
      const digestType = uint(tokens[2], 'DS digest type', 255)
      const digest = hex(tokens, 3, 'DS digest', { 1: 40, 2: 64, 4: 96 }, digestType)
      return { content: `${keyTag} ${algorithm} ${digestType} ${digest}`, priority: null }
    }
    case 'TLSA': {
      const usage = uint(tokens[0], 'TLSA usage', 3)
      const selector = uint(tokens[1], 'TLSA selector', 1)
      const matching = uint(tokens[2], 'TLSA matching type', 2)
      const data = hex(tokens, 3, 'TLSA data', { 1: 64, 2: 128 }, matching)
      return { content: `${usage} ${selector} ${matching} ${data}`, priority: null }
    }
    case 'SSHFP': {
      const algorithm = uint(tokens[0], 'SSHFP algorithm', 255)
      const fpType = uint(tokens[1], 'SSHFP fingerprint type', 255)
      const fingerprint = hex(tokens, 2, 'SSHFP fingerprint', { 1: 40, 2: 64 }, fpType)
      return { content: `${algorithm} ${fpType} ${fingerprint}`, priority: null }
    }
    case 'NAPTR': {
      const order = uint(tokens[0], 'NAPTR order', 65535)
      const preference = uint(tokens[1], 'NAPTR preference', 65535)
      const strings: string[] = []
      for (const [i, what] of [
        [2, 'flags'],
        [3, 'services'],
        [4, 'regexp'],
      ] as const) {
        const t = tokens[i]
        if (!t) throw new RdataError(`missing NAPTR ${what}`)
        const decoded = decodeString(t.text, t.column)
        if (decoded.length > 255) throw new RdataError(`NAPTR ${what} is longer than 255 octets`, t.column)
        strings.push(encodeString(decoded))
      }
      if (strings[0] && !/^"[a-z0-9]*"$/i.test(strings[0])) throw new RdataError('NAPTR flags are letters and digits', tokens[2]!.column)
      const replacement = name(tokens[5], origin, 'cname-target', 'NAPTR replacement', true)
      done(tokens, 6)
      return { content: `${order} ${preference} ${strings.join(' ')} ${replacement}`, priority: order }
    }
    case 'HTTPS':
    case 'SVCB':
      return svcb(type, tokens, origin)
    case 'SOA': {
      const mname = name(tokens[0], origin, 'host', 'SOA primary name server')
      const rname = name(tokens[1], origin, 'cname-target', 'SOA mailbox')
      const serial = uint(tokens[2], 'SOA serial', 4_294_967_295)
      const refresh = ttlField(tokens[3], 'SOA refresh')
      const retry = ttlField(tokens[4], 'SOA retry')
      const expire = ttlField(tokens[5], 'SOA expire')
      const minimum = ttlField(tokens[6], 'SOA minimum')
      done(tokens, 7)
      return { content: `${mname} ${rname} ${serial} ${refresh} ${retry} ${expire} ${minimum}`, priority: null }
    }
  }
}

// --- SVCB and HTTPS (RFC 9460) ----------------------------------------------------------------

/** SvcParamKeys with a name (RFC 9460 §14.3.2); any other is written keyNNNNN. */
const SVC_KEYS = ['mandatory', 'alpn', 'no-default-alpn', 'port', 'ipv4hint', 'ech', 'ipv6hint'] as const

/** A key's number from its name or keyNNNNN form; -1 when unknown. */
function svcKeyNumber(text: string): number {
  const named = (SVC_KEYS as readonly string[]).indexOf(text.toLowerCase())
  if (named >= 0) return named
  const m = /^key(\d{1,5})$/i.exec(text)
  if (!m) return -1
  const n = Number(m[1])
  // 65535 is the reserved "invalid key".
  return n < 65535 ? n : -1
}

const svcKeyName = (n: number) => SVC_KEYS[n] ?? `key${n}`

function commaList(value: string, what: string, column: number): string[] {
  if (value === '') throw new RdataError(`${what} needs a value`, column)
  const items = value.split(',')
  if (items.some((x) => x === '')) throw new RdataError(`${what} has an empty item`, column)
  return items
}

/**
 * SVCB/HTTPS: priority, target, then key=value parameters. The canonical text is what PowerDNS
 * answers and accepts (its API refuses any other spelling): keys in ascending key order, names for
 * the keys RFC 9460 names, `ech` and unnamed keys' values quoted, lists comma-separated.
 */
function svcb(type: 'HTTPS' | 'SVCB', tokens: Token[], origin: string): Rdata {
  const priority = uint(tokens[0], `${type} priority`, 65535)
  const target = name(tokens[1], origin, 'cname-target', `${type} target`, true)
  // `key="quoted value"` lexes as `key=` followed by a quoted token right after it.
  const params: { key: number; column: number; value: string | null }[] = []
  for (let i = 2; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.quoted) throw new RdataError(`unexpected quoted text in ${type} parameters: write key="value"`, t.column)
    const eq = t.text.indexOf('=')
    const keyText = eq < 0 ? t.text : t.text.slice(0, eq)
    let value: string | null = eq < 0 ? null : t.text.slice(eq + 1)
    const next = tokens[i + 1]
    if (eq === t.text.length - 1 && next?.quoted && next.column === t.column + t.text.length) {
      value = next.text
      i++
    }
    const key = svcKeyNumber(keyText)
    if (key < 0) throw new RdataError(`'${keyText}' is not a ${type} parameter (mandatory, alpn, no-default-alpn, port, ipv4hint, ech, ipv6hint or keyNNNNN)`, t.column)
    if (params.some((p) => p.key === key)) throw new RdataError(`${type} parameter ${svcKeyName(key)} is given twice`, t.column)
    params.push({ key, column: t.column, value })
  }
  if (priority === 0 && params.length) {
    throw new RdataError(`a ${type} record with priority 0 (AliasMode) takes no parameters`, params[0]!.column)
  }
  params.sort((a, b) => a.key - b.key)
  const has = (key: number) => params.some((p) => p.key === key)
  const out: string[] = []
  for (const p of params) {
    const keyName = svcKeyName(p.key)
    const value =
      p.value === null
        ? null
        : (() => {
            const decoded = decodeString(p.value, p.column)
            return typeof decoded === 'string' ? decoded : new TextDecoder().decode(decoded)
          })()
    if (p.key === 2) {
      if (value !== null && value !== '') throw new RdataError('no-default-alpn takes no value', p.column)
      if (!has(1)) throw new RdataError('no-default-alpn needs an alpn parameter too', p.column)
      out.push(keyName)
      continue
    }
    if (value === null) {
      if (p.key > 6) {
        out.push(`${keyName}=""`)
        continue
      }
      throw new RdataError(`${type} parameter ${keyName} needs a value (${keyName}=…)`, p.column)
    }
    switch (p.key) {
      case 0: {
        const keys = commaList(value, 'mandatory', p.column).map((k) => {
          const n = svcKeyNumber(k)
          if (n < 0) throw new RdataError(`mandatory lists '${k}', which is not a ${type} parameter`, p.column)
          if (n === 0) throw new RdataError('mandatory cannot list itself', p.column)
          if (!has(n)) throw new RdataError(`mandatory lists ${svcKeyName(n)}, but the record has no ${svcKeyName(n)} parameter`, p.column)
          return n
        })
        if (new Set(keys).size !== keys.length) throw new RdataError('mandatory lists a key twice', p.column)
        out.push(
          `mandatory=${keys
            .sort((a, b) => a - b)
            .map(svcKeyName)
            .join(',')}`,
        )
        break
      }
      case 1: {
        // Protocol ids holding a comma or a backslash need RFC 9460's double escaping: refused.
        if (/[\\\s"]/.test(p.value!)) throw new RdataError('alpn ids are plain protocol names such as h2 or h3', p.column)
        const ids = commaList(value, 'alpn', p.column)
        if (ids.some((x) => x.length > 255)) throw new RdataError('an alpn id is longer than 255 octets', p.column)
        out.push(`alpn=${ids.join(',')}`)
        break
      }
      case 3: {
        if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new RdataError(`port '${value}' is not a port number (0–65535)`, p.column)
        out.push(`port=${Number(value)}`)
        break
      }
      case 4: {
        const addresses = commaList(value, 'ipv4hint', p.column)
        for (const a of addresses) if (!isIpv4(a)) throw new RdataError(`ipv4hint: '${a}' is not an IPv4 address`, p.column)
        out.push(`ipv4hint=${addresses.join(',')}`)
        break
      }
      case 5: {
        if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4) throw new RdataError('ech is an ECHConfigList in base64', p.column)
        out.push(`ech="${value}"`)
        break
      }
      case 6: {
        const addresses = commaList(value, 'ipv6hint', p.column).map((a) => {
          const canonical = canonicalIpv6(a)
          if (!canonical) throw new RdataError(`ipv6hint: '${a}' is not an IPv6 address`, p.column)
          return canonical
        })
        out.push(`ipv6hint=${addresses.join(',')}`)
        break
      }
      default: {
        if ([...value].some((ch) => ch < ' ' || ch === '\x7f' || ch === '"' || ch === '\\'))
          throw new RdataError(`${keyName}: quotes, backslashes and control characters are not supported in the value`, p.column)
        out.push(`${keyName}="${value}"`)
      }
    }
  }
  return { content: [String(priority), target, ...out].join(' '), priority }
}

/** The fields of canonical SOA content. */
export function soaFields(content: string) {
  const [mname, rname, serial, refresh, retry, expire, minimum] = content.split(' ')
  return { mname: mname!, rname: rname!, serial: Number(serial), refresh: Number(refresh), retry: Number(retry), expire: Number(expire), minimum: Number(minimum) }
}
