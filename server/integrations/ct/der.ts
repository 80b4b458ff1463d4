/**
 * The little of DER (X.690) Certificate Transparency needs: reading a certificate or a bare
 * TBSCertificate (a precertificate's log entry carries only that, which node:crypto's
 * X509Certificate cannot read), and writing one (the local log's test certificates, a
 * precertificate's TBS with the poison extension taken out).
 */

export type Der = {
  /** Tag byte as read (class, constructed bit and number; numbers above 30 are not used here). */
  tag: number
  /** The whole TLV and its contents. */
  raw: Buffer
  content: Buffer
}

export class DerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DerError'
  }
}

/** One TLV at `offset`; its end is `offset + raw.length`. */
export function readDer(buffer: Buffer, offset = 0): Der {
  if (offset + 2 > buffer.length) throw new DerError('Truncated DER')
  const tag = buffer[offset]!
  if ((tag & 0x1f) === 0x1f) throw new DerError('High tag numbers are not supported')
  let length = buffer[offset + 1]!
  let header = 2
  if (length & 0x80) {
    const bytes = length & 0x7f
    if (bytes === 0 || bytes > 4) throw new DerError('Unsupported DER length')
    if (offset + 2 + bytes > buffer.length) throw new DerError('Truncated DER length')
    length = 0
    for (let i = 0; i < bytes; i++) length = length * 256 + buffer[offset + 2 + i]!
    header += bytes
  }
  const end = offset + header + length
  if (end > buffer.length) throw new DerError('DER length past the end')
  return { tag, raw: buffer.subarray(offset, end), content: buffer.subarray(offset + header, end) }
}

/** The TLVs inside a constructed one. */
export function childrenOf(node: Der): Der[] {
  const list: Der[] = []
  for (let at = 0; at < node.content.length;) {
    const child = readDer(node.content, at)
    list.push(child)
    at += child.raw.length
  }
  return list
}

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8: 0x0c,
  PRINTABLE: 0x13,
  IA5: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const

export function readOid(node: Der): string {
  const bytes = node.content
  if (!bytes.length) throw new DerError('Empty OID')
  const parts: number[] = [Math.min(2, Math.floor(bytes[0]! / 40)), bytes[0]! - Math.min(2, Math.floor(bytes[0]! / 40)) * 40]
  let value = 0
  for (let i = 1; i < bytes.length; i++) {
    value = value * 128 + (bytes[i]! & 0x7f)
    if (!(bytes[i]! & 0x80)) {
      parts.push(value)
      value = 0
    }
  }
  return parts.join('.')
}

/** UTCTime (two-digit years: 50–99 are 19xx) or GeneralizedTime, as a Date. */
export function readTime(node: Der): Date {
  const text = node.content.toString('latin1')
  const m = node.tag === TAG.UTC_TIME ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?Z$/.exec(text) : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?:\.\d+)?Z$/.exec(text)
  if (!m) throw new DerError(`Unreadable time ${text}`)
  const year = node.tag === TAG.UTC_TIME ? (Number(m[1]) >= 50 ? 1900 : 2000) + Number(m[1]) : Number(m[1])
  return new Date(Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)))
}

// ---------------------------------------------------------------- writing

function lengthBytes(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length])
  const bytes: number[] = []
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

export function tlv(tag: number, content: Buffer | Buffer[]): Buffer {
  const body = Array.isArray(content) ? Buffer.concat(content) : content
  return Buffer.concat([Buffer.from([tag]), lengthBytes(body.length), body])
}

export const sequence = (...items: Buffer[]) => tlv(TAG.SEQUENCE, items)
export const set = (...items: Buffer[]) => tlv(TAG.SET, items)
/** `[n]` EXPLICIT (constructed, context-specific). */
export const explicit = (n: number, content: Buffer) => tlv(0xa0 | n, content)

export function oid(text: string): Buffer {
  const parts = text.split('.').map(Number)
  const bytes: number[] = [parts[0]! * 40 + parts[1]!]
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f]
    for (let n = Math.floor(part / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift((n & 0x7f) | 0x80)
    bytes.push(...chunk)
  }
  return tlv(TAG.OID, Buffer.from(bytes))
}

/** A non-negative INTEGER from its big-endian bytes (a leading zero added when the high bit is set). */
export function integer(value: Buffer | number): Buffer {
  const hex = typeof value === 'number' ? value.toString(16) : ''
  let bytes = typeof value === 'number' ? Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex') : value
  while (bytes.length > 1 && bytes[0] === 0 && !(bytes[1]! & 0x80)) bytes = bytes.subarray(1)
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes])
  return tlv(TAG.INTEGER, bytes)
}

export const bitString = (bytes: Buffer) => tlv(TAG.BIT_STRING, [Buffer.from([0]), bytes])
export const octetString = (bytes: Buffer) => tlv(TAG.OCTET_STRING, bytes)
export const utf8 = (text: string) => tlv(TAG.UTF8, Buffer.from(text, 'utf8'))
export const boolean = (value: boolean) => tlv(TAG.BOOLEAN, Buffer.from([value ? 0xff : 0]))
export const derNull = () => Buffer.from([TAG.NULL, 0])

/** UTCTime through 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
export function time(date: Date): Buffer {
  const iso = date.toISOString()
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`
  return date.getUTCFullYear() < 2050 ? tlv(TAG.UTC_TIME, Buffer.from(digits.slice(2), 'latin1')) : tlv(TAG.GENERALIZED_TIME, Buffer.from(digits, 'latin1'))
}
