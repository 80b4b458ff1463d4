import { tlds } from '@hapi/tlds'
import punycode from 'punycode/punycode.js'

export type DomainNameError = 'empty' | 'too-long' | 'label-empty' | 'label-too-long' | 'label-hyphen-edge' | 'label-hyphen-34' | 'label-characters' | 'idn-round-trip' | 'single-label' | 'unknown-tld'

export type ParsedDomain = { ascii: string; unicode: string; tld: string; labels: string[] }

/** True when the TLD (ASCII form, without dot) is in the bundled IANA list. */
export const isKnownTld = (tld: string) => tlds.has(tld.toLowerCase())

/**
 * Validates a domain name (spec §5: the last label is in the bundled TLD list) and returns its
 * ASCII and Unicode forms. Label rules: 1–63 octets, letters, digits and inner hyphens, no
 * hyphens in places 3–4 unless an `xn--` label, and every IDN label must round-trip.
 */
export function parseDomainName(input: string): { ok: true; domain: ParsedDomain } | { ok: false; error: DomainNameError } {
  const trimmed = input.trim().replace(/\.$/, '').toLowerCase()
  if (!trimmed) return { ok: false, error: 'empty' }
  const rawLabels = trimmed.split('.')
  if (rawLabels.length < 2) return { ok: false, error: 'single-label' }
  const labels: string[] = []
  for (const raw of rawLabels) {
    if (!raw) return { ok: false, error: 'label-empty' }
    let ascii: string
    try {
      ascii = /^\p{ASCII}*$/u.test(raw) ? raw : `xn--${punycode.encode(raw.normalize('NFC'))}`
    } catch {
      return { ok: false, error: 'label-characters' }
    }
    if (ascii.length > 63) return { ok: false, error: 'label-too-long' }
    if (!/^[a-z0-9-]+$/.test(ascii)) return { ok: false, error: 'label-characters' }
    if (ascii.startsWith('-') || ascii.endsWith('-')) return { ok: false, error: 'label-hyphen-edge' }
    if (ascii.slice(2, 4) === '--' && !ascii.startsWith('xn--')) return { ok: false, error: 'label-hyphen-34' }
    if (ascii.startsWith('xn--')) {
      try {
        const decoded = punycode.decode(ascii.slice(4))
        if (`xn--${punycode.encode(decoded)}` !== ascii || decoded.normalize('NFC') !== decoded) return { ok: false, error: 'idn-round-trip' }
      } catch {
        return { ok: false, error: 'idn-round-trip' }
      }
    }
    labels.push(ascii)
  }
  const ascii = labels.join('.')
  if (ascii.length > 253) return { ok: false, error: 'too-long' }
  const tld = labels.at(-1)!
  if (!isKnownTld(tld)) return { ok: false, error: 'unknown-tld' }
  return { ok: true, domain: { ascii, unicode: punycode.toUnicode(ascii), tld, labels } }
}

/** The Unicode form of an ASCII (punycode) name. */
export const toUnicodeName = (ascii: string) => punycode.toUnicode(ascii)
