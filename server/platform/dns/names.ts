import { domainToASCII } from 'node:url'
import { hasInvisible } from '#common/idna.ts'

/**
 * Domain names inside the DNS module are absolute, lower case, ASCII (IDN labels in punycode),
 * written WITHOUT the trailing dot; the root is ''. Names inside record content are written
 * WITH the trailing dot (presentation format), so content can go to BIND and PowerDNS as it is.
 */

/** What a name is used for decides which characters it may hold. */
export type NameKind = 'owner' | 'host' | 'cname-target'

export class NameError extends Error {
  /** A code a screen says in the user's words (dns `import.issues.<code>`), when there is one. */
  readonly code?: string
  constructor(message: string, code?: string) {
    super(message)
    if (code) this.code = code
  }
}

/**
 * What PowerDNS's API takes in a name (4.x, `apiCheckNameAllowedCharacters`): letters, digits,
 * `-`, `_`, `/` and a leading `*.`; anything it would print escaped (`\.`, `\032`, `@`…) is refused
 * with "Name '…' contains unsupported characters" and the whole publication with it. A name is
 * checked here the same way, so that a file or a form holding one is refused before anything is
 * stored (issue 26), never at publication.
 */
const POWERDNS_NAME = 'PowerDNS serves only letters, digits, hyphens, underscores and / in names'

const DOT = 46
const BACKSLASH = 92

/** True when the presentation-format text ends with a dot that is not escaped. */
function endsWithUnescapedDot(text: string): boolean {
  if (text.charCodeAt(text.length - 1) !== DOT) return false
  let slashes = 0
  for (let i = text.length - 2; i >= 0 && text.charCodeAt(i) === BACKSLASH; i--) slashes++
  return slashes % 2 === 0
}

/**
 * Resolves a name as written in a zone file or a form (`@`, relative, or absolute with a
 * trailing dot) against the origin, and validates it for its use. Throws NameError.
 */
export function resolveName(text: string, origin: string, kind: NameKind): string {
  if (text === '@') return origin
  if (text === '.') {
    if (kind === 'owner') throw new NameError('the root name is outside every zone')
    return ''
  }
  let name: string
  if (endsWithUnescapedDot(text)) name = text.slice(0, -1)
  else name = origin === '' ? text : `${text}.${origin}`
  return checkName(name, kind)
}

/** Validates an absolute name (no trailing dot) and returns its canonical form. */
export function checkName(input: string, kind: NameKind): string {
  let name = input
  // Non-ASCII labels become punycode; everything else only needs lower case.
  for (let i = 0; i < name.length; i++) {
    if (name.charCodeAt(i) > 127) {
      name = toAsciiLabels(name)
      break
    }
  }
  name = name.toLowerCase()
  if (name.length === 0) throw new NameError('the name is empty')
  let labelLength = 0
  let wire = 1
  let labelStart = 0
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i)
    if (c === DOT) {
      endLabel(name, labelStart, i, labelLength, kind)
      wire += labelLength + 1
      labelLength = 0
      labelStart = i + 1
      continue
    }
    if (c === BACKSLASH) {
      if (kind !== 'owner') throw new NameError('host names cannot contain escapes')
      const escape = /^\\(\d{3}|[^])/.exec(name.slice(i))?.[0] ?? '\\'
      throw new NameError(`${POWERDNS_NAME}: '${escape}' is refused`, 'owner-characters')
    }
    labelLength++
    if (!allowedChar(c, kind)) {
      throw new NameError(`'${String.fromCharCode(c)}' is not allowed in ${kind === 'owner' ? 'a record name' : 'a host name'}`, kind === 'owner' ? 'owner-characters' : undefined)
    }
    // `*` only as the whole leftmost label (PowerDNS refuses `a*b` and `*a` like any other character).
    if (c === 42 && (i !== 0 || (name.length > 1 && name.charCodeAt(1) !== DOT))) throw new NameError('a wildcard * must be the whole leftmost label of a record name')
  }
  endLabel(name, labelStart, name.length, labelLength, kind)
  wire += labelLength + 1
  if (wire > 255) throw new NameError('the name is longer than 255 octets')
  return name
}

function endLabel(name: string, start: number, end: number, length: number, kind: NameKind) {
  if (length === 0) throw new NameError('the name has an empty label')
  if (length > 63) throw new NameError(`the label '${name.slice(start, end)}' is longer than 63 octets`)
  if (name.charCodeAt(start) === 42 /* * */ && (length !== 1 || start !== 0 || kind !== 'owner')) {
    throw new NameError('a wildcard * must be the whole leftmost label of a record name')
  }
  if (kind !== 'owner' && (name.charCodeAt(start) === 45 || name.charCodeAt(end - 1) === 45)) {
    throw new NameError(`the label '${name.slice(start, end)}' starts or ends with a hyphen`)
  }
}

function allowedChar(c: number, kind: NameKind): boolean {
  if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45) return true
  if (c === 95 /* _ */) return kind !== 'host'
  if (c === 42 /* * */ || c === 47 /* / (RFC 2317 reverse zones) */) return kind === 'owner'
  return false
}

function toAsciiLabels(name: string): string {
  return name
    .split('.')
    .map((label) => {
      if (![...label].some((ch) => ch.charCodeAt(0) > 127)) return label
      // Direction controls and zero-width characters are refused, not mapped away (issue 26, decision 104).
      if (hasInvisible(label)) throw new NameError(`'${label}' holds an invisible character (a direction control or a zero-width character)`)
      const ascii = domainToASCII(label)
      if (!ascii) throw new NameError(`'${label}' is not a valid internationalised label`)
      return ascii
    })
    .join('.')
}

/** True when the name is the zone's apex or below it. */
export function inZone(name: string, zone: string): boolean {
  return zone === '' || name === zone || (name.length > zone.length && name.endsWith(zone) && name.charCodeAt(name.length - zone.length - 1) === DOT)
}

/** The owner as written in a zone file with $ORIGIN zone: `@`, relative, or absolute with a dot. */
export function relativeName(name: string, zone: string): string {
  if (name === zone) return '@'
  if (inZone(name, zone)) return zone === '' ? `${name}.` : name.slice(0, name.length - zone.length - 1)
  return `${name}.`
}

/** Name with the trailing dot, as PowerDNS wants it. */
export const fqdn = (name: string) => `${name}.`
