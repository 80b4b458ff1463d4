import { tlds } from '@hapi/tlds'
import punycode from 'punycode/punycode.js'
import { hasInvisible, IDN_DOTS, idnLabelError, labelScripts, mapLabel, scriptsAllowed, type IdnLabelError } from './idna.ts'

export { IDN_NAME_MESSAGES } from './idna.ts'

export type DomainNameError =
  | 'empty'
  | 'too-long'
  | 'label-empty'
  | 'label-too-long'
  | 'label-hyphen-edge'
  | 'label-hyphen-34'
  | 'label-characters'
  | 'idn-round-trip'
  | 'single-label'
  | 'label-space'
  | 'unknown-tld'
  | IdnLabelError
  | 'label-script'

export type ParsedDomain = { ascii: string; unicode: string; tld: string; labels: string[] }

/** True when the TLD (ASCII form, without dot) is in the bundled IANA list. */
export const isKnownTld = (tld: string) => tlds.has(tld.toLowerCase())

/**
 * Validates a domain name (spec §5: the last label is in the bundled TLD list) and returns its
 * ASCII and Unicode forms. Label rules: 1–63 octets, letters, digits and inner hyphens, no
 * hyphens in places 3–4 unless an `xn--` label, and every IDN label must round-trip. A label in
 * another script is mapped as UTS #46 maps it (full width, capitals: the name answered is the
 * mapped one) and must be a valid IDNA2008 label in one script (common/idna.ts); invisible
 * characters (direction controls, zero-width) are refused, never mapped away. Whether the TLD
 * takes the label's script is `checkTldScripts`, with the TLD's catalogue entry.
 */
export function parseDomainName(input: string): { ok: true; domain: ParsedDomain } | { ok: false; error: DomainNameError } {
  const text = input.trim()
  if (hasInvisible(text)) return { ok: false, error: 'label-invisible' }
  // "bad name.com" is one name with a space in it, never two names (issue 28).
  if (/\s/.test(text)) return { ok: false, error: 'label-space' }
  const trimmed = text.replace(IDN_DOTS, '.').replace(/\.$/, '').toLowerCase()
  if (!trimmed) return { ok: false, error: 'empty' }
  const rawLabels = trimmed.split('.')
  if (rawLabels.length < 2) return { ok: false, error: 'single-label' }
  const labels: string[] = []
  for (const typed of rawLabels) {
    if (!typed) return { ok: false, error: 'label-empty' }
    const raw = /^\p{ASCII}*$/u.test(typed) ? typed : mapLabel(typed)
    let ascii: string
    if (/^\p{ASCII}*$/u.test(raw)) ascii = raw
    else {
      const problem = idnLabelError(raw)
      if (problem) return { ok: false, error: problem }
      try {
        ascii = `xn--${punycode.encode(raw)}`
      } catch {
        return { ok: false, error: 'label-characters' }
      }
    }
    if (ascii.length > 63) return { ok: false, error: 'label-too-long' }
    if (!/^[a-z0-9-]+$/.test(ascii)) return { ok: false, error: 'label-characters' }
    if (ascii.startsWith('-') || ascii.endsWith('-')) return { ok: false, error: 'label-hyphen-edge' }
    if (ascii.slice(2, 4) === '--' && !ascii.startsWith('xn--')) return { ok: false, error: 'label-hyphen-34' }
    if (ascii.startsWith('xn--')) {
      try {
        const decoded = punycode.decode(ascii.slice(4))
        if (`xn--${punycode.encode(decoded)}` !== ascii || decoded.normalize('NFC') !== decoded || mapLabel(decoded) !== decoded) return { ok: false, error: 'idn-round-trip' }
        // An A-label given as it is meets the same rules as the Unicode it stands for.
        const problem = idnLabelError(decoded)
        if (problem) return { ok: false, error: problem }
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

/**
 * Whether the TLD takes the scripts of the name's labels (`allowed`: `tldScripts` of its catalogue
 * entry): `label-script` for a label in a script it does not take. ASCII labels are for the
 * registry to judge: every TLD here takes letters, digits and hyphens.
 */
export function checkTldScripts(domain: ParsedDomain, allowed: readonly string[]): DomainNameError | null {
  for (const label of domain.unicode.split('.').slice(0, -1)) {
    if (/^\p{ASCII}*$/u.test(label)) continue
    const scripts = labelScripts(label)
    if (!scripts) return 'label-mixed-scripts'
    if (!scriptsAllowed(scripts, allowed)) return 'label-script'
  }
  return null
}
