import punycode from 'punycode/punycode.js'
import { parse } from 'tldts'
import { DEFAULT_DICTIONARY, DNSTWIST_FUZZERS, FUZZERS, type Fuzzer } from '#common/brand.ts'
import { idnLabelError, labelScripts, mapLabel, scriptsAllowed, tldScripts } from '#common/idna.ts'
import { confusablesOf, scriptOf, visualKey } from './confusables.ts'
import { AZERTY, GLYPHS, LATIN_TO_CYRILLIC, QWERTY, QWERTZ } from './dnstwist-tables.ts'

/**
 * The lookalike engine (issue 30, decision 029): every name a person could register that looks like
 * a brand's. Pure: no database, no network. The label fuzzers are dnstwist's, written again
 * from its definitions (so for one domain and one fuzzer our set holds dnstwist's: the test
 * `lookalikes.dnstwist.test.ts` runs it), with `confusable` beside them; each candidate says which
 * fuzzers made it, how much it looks like the brand and whether it can be registered at all.
 */

export type Candidate = {
  /** The name in Unicode (an IDN as a person reads it). */
  domain: string
  /** The same name in ASCII (punycode). */
  ascii: string
  /** Its public suffix (ASCII), e.g. `co.uk`. */
  tld: string
  fuzzers: Fuzzer[]
  /** 0–100: how much it looks like the brand's name (edit distance and the visual key). */
  score: number
  /** Whether the name one would register for it (`registers`) may be registered at all. */
  registrable: boolean
  /** The registrable name behind it (ASCII): the candidate itself, or for `a.cme.com` `cme.com`. */
  registers: string
}

export type LookalikeOptions = {
  /** The fuzzers to run; every one when absent. */
  fuzzers?: readonly Fuzzer[]
  /** Words of the `dictionary` fuzzer (combosquatting); `DEFAULT_DICTIONARY` when absent. */
  dictionary?: readonly string[]
  /** TLDs (ASCII, no dot) of `tld-swap`, and those whose own scripts `confusable` writes in. */
  tlds?: readonly string[]
  /** The scripts a TLD's catalogue entry names (`tlds.idn_scripts`); the default of `tldScripts` otherwise. */
  scriptsOf?: (tld: string) => readonly string[] | null | undefined
}

export type ParsedInput = { subdomain: string; label: string; tld: string }

/**
 * A brand's name split as dnstwist splits it: subdomain, the label (Unicode), its public suffix.
 * A bare label (`acme`) is taken as `acme.com`. Null when there is nothing to fuzz.
 */
export function parseInput(input: string): ParsedInput | null {
  const text = input.trim().toLowerCase().replace(/\.$/, '')
  if (!text) return null
  const name = text.includes('.') ? text : `${text}.com`
  const ascii = name
    .split('.')
    .map((label) => (/^\p{ASCII}*$/u.test(label) ? label : `xn--${punycode.encode(mapLabel(label))}`))
    .join('.')
  const parsed = parse(ascii, { allowPrivateDomains: false })
  const suffix = parsed.publicSuffix
  const domain = parsed.domainWithoutSuffix
  if (!suffix || !domain) return null
  return { subdomain: parsed.subdomain ?? '', label: punycode.toUnicode(domain), tld: suffix }
}

const KEYBOARDS = [QWERTY, QWERTZ, AZERTY]
const LDH = 'abcdefghijklmnopqrstuvwxyz0123456789-'
const LDH_SET = new Set(LDH)
const VOWELS = 'aeiou'

// ------------------------------------------------------------------ label fuzzers (dnstwist's)

function* addition(d: string) {
  for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789') yield d + c
}

function* bitsquatting(d: string) {
  const chars = [...d]
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i]!.codePointAt(0)!
    for (let mask = 1; mask < 256; mask <<= 1) {
      const b = String.fromCodePoint(code ^ mask)
      if (LDH_SET.has(b)) yield [...chars.slice(0, i), b, ...chars.slice(i + 1)].join('')
    }
  }
}

function* cyrillic(d: string) {
  let out = d
  for (const [latin, cyr] of Object.entries(LATIN_TO_CYRILLIC)) out = out.split(latin).join(cyr)
  const a = [...out]
  const b = [...d]
  if (a.every((c, i) => c !== b[i])) yield out
}

/** dnstwist's two passes: every window's characters swapped for each glyph, then again on each result. */
function homoglyph(d: string): Set<string> {
  const mix = (domain: string, into: Set<string>) => {
    const chars = [...domain]
    // Offsets of each character in the string (a glyph may be two UTF-16 units).
    const at = [0]
    for (const ch of chars) at.push(at.at(-1)! + ch.length)
    for (let w = 1; w < chars.length; w++) {
      for (let i = 0; i + w <= chars.length; i++) {
        const pre = domain.slice(0, at[i])
        const winText = domain.slice(at[i], at[i + w])
        const suf = domain.slice(at[i + w])
        for (const c of new Set(chars.slice(i, i + w))) {
          const glyphs = GLYPHS[c]
          if (!glyphs) continue
          for (const g of glyphs) into.add(pre + winText.split(c).join(g) + suf)
        }
      }
    }
  }
  const first = new Set<string>()
  mix(d, first)
  const all = new Set(first)
  for (const r of first) mix(r, all)
  return all
}

function* hyphenation(d: string) {
  const chars = [...d]
  for (let i = 1; i < chars.length; i++) yield chars.slice(0, i).join('') + '-' + chars.slice(i).join('')
}

function* insertion(d: string) {
  const chars = [...d]
  for (let i = 1; i < chars.length - 1; i++) {
    const prefix = chars.slice(0, i).join('')
    const orig = chars[i]!
    const suffix = chars.slice(i + 1).join('')
    for (const keys of KEYBOARDS)
      for (const c of keys[orig] ?? '') {
        yield prefix + c + orig + suffix
        yield prefix + orig + c + suffix
      }
  }
}

function* omission(d: string) {
  const chars = [...d]
  for (let i = 0; i < chars.length; i++) yield [...chars.slice(0, i), ...chars.slice(i + 1)].join('')
}

function* repetition(d: string) {
  const chars = [...d]
  for (let i = 0; i < chars.length; i++) yield [...chars.slice(0, i), chars[i], ...chars.slice(i)].join('')
}

function* replacement(d: string) {
  const chars = [...d]
  for (let i = 0; i < chars.length; i++) for (const keys of KEYBOARDS) for (const r of keys[chars[i]!] ?? '') yield [...chars.slice(0, i), r, ...chars.slice(i + 1)].join('')
}

function* subdomain(d: string) {
  const chars = [...d]
  for (let i = 1; i < chars.length - 1; i++) {
    if (chars[i] !== '-' && chars[i] !== '.' && chars[i - 1] !== '-' && chars[i - 1] !== '.') yield chars.slice(0, i).join('') + '.' + chars.slice(i).join('')
  }
}

function* transposition(d: string) {
  const chars = [...d]
  for (let i = 0; i < chars.length - 1; i++) yield [...chars.slice(0, i), chars[i + 1], chars[i], ...chars.slice(i + 2)].join('')
}

function* vowelSwap(d: string) {
  const chars = [...d]
  for (let i = 0; i < chars.length; i++) {
    if (!VOWELS.includes(chars[i]!)) continue
    for (const v of VOWELS) yield [...chars.slice(0, i), v, ...chars.slice(i + 1)].join('')
  }
}

function* dictionary(d: string, words: readonly string[]) {
  for (const word of words) {
    if (d.startsWith(word) && d.endsWith(word)) continue
    yield `${d}-${word}`
    yield d + word
    yield `${word}-${d}`
    yield word + d
  }
  if (d.includes('-')) {
    const parts = d.split('-')
    for (const word of words) {
      yield `${parts.slice(0, -1).join('-')}-${word}`
      yield `${word}-${parts.slice(1).join('-')}`
    }
  }
}

const LABEL_FUZZERS: Partial<Record<Fuzzer, (d: string, words: readonly string[]) => Iterable<string>>> = {
  addition,
  bitsquatting,
  cyrillic,
  homoglyph,
  hyphenation,
  insertion,
  omission,
  repetition,
  replacement,
  subdomain,
  transposition,
  'vowel-swap': vowelSwap,
  dictionary,
}

/** The fuzzers that change the label alone (the rest change the TLD or write the suffix into it). */
export const LABEL_FUZZER_NAMES = Object.keys(LABEL_FUZZERS) as Fuzzer[]

/** One label fuzzer's labels for a label (Unicode), duplicates possible. */
export function fuzzLabel(fuzzer: Fuzzer, label: string, words: readonly string[] = DEFAULT_DICTIONARY): Iterable<string> {
  return LABEL_FUZZERS[fuzzer]?.(label, words) ?? []
}

/** dnstwist's cyrillic spelling of a label, or null when a letter has none. */
export function cyrillicOf(label: string): string | null {
  for (const out of cyrillic(label)) return out
  return null
}

/** dnstwist's `various`: the TLD written into the label, a second-level suffix dropped or glued on. */
function various(p: ParsedInput): string[] {
  const join = (...parts: string[]) => parts.filter(Boolean).join('.')
  const out: string[] = []
  if (p.tld.includes('.')) {
    out.push(join(p.subdomain, p.label, p.tld.split('.').at(-1)!))
    out.push(join(p.subdomain, p.label + p.tld))
  } else out.push(join(p.subdomain, p.label + p.tld, p.tld))
  if (p.tld !== 'com' && !p.tld.includes('.')) out.push(join(p.subdomain, `${p.label}-${p.tld}`, 'com'))
  if (p.subdomain) {
    out.push(join(p.subdomain + p.label, p.tld))
    out.push(join(p.subdomain.replaceAll('.', '') + p.label, p.tld))
    out.push(join(`${p.subdomain}-${p.label}`, p.tld))
    out.push(join(`${p.subdomain.replaceAll('.', '-')}-${p.label}`, p.tld))
  }
  return out
}

// ------------------------------------------------------------------ UTS #39, by the TLD's scripts

/**
 * Look-alikes from Unicode's confusables a registry of this TLD would take: in Latin, each letter
 * swapped for each Latin confusable of it; in each other script the TLD takes, the whole label
 * written in that script when every letter has a confusable there (`аcme` half Cyrillic is refused
 * by every registry: one script per label; `асме` is the threat where Cyrillic is taken).
 */
export function confusableLabels(label: string, scripts: readonly string[]): string[] {
  const chars = [...label]
  const out: string[] = []
  if (scripts.includes('Latn')) {
    for (let i = 0; i < chars.length; i++) for (const c of confusablesOf(chars[i]!)) if (scriptOf(c) === 'Latn') out.push([...chars.slice(0, i), c, ...chars.slice(i + 1)].join(''))
  }
  for (const script of scripts) {
    if (script === 'Latn') continue
    const whole = chars.map((ch) => (scriptOf(ch) === 'Zyyy' ? ch : confusablesOf(ch).find((c) => scriptOf(c) === script || (script === 'Jpan' && /^(Hira|Kana|Hani)$/.test(scriptOf(c))))))
    if (whole.every((c) => c !== undefined) && whole.some((c, i) => c !== chars[i])) out.push(whole.join(''))
  }
  return out
}

// ------------------------------------------------------------------ registrability and score

const toAsciiLabel = (label: string) => (/^\p{ASCII}*$/u.test(label) ? label : `xn--${punycode.encode(label)}`)
export const toAsciiName = (name: string) => name.split('.').map(toAsciiLabel).join('.')

const unicodeTldCache = new Map<string, string>()
const unicodeTld = (tld: string) => {
  let u = unicodeTldCache.get(tld)
  if (u === undefined) unicodeTldCache.set(tld, (u = punycode.toUnicode(tld)))
  return u
}

/**
 * Whether a label may be registered under a public suffix: an ICANN suffix (tldts' public suffix
 * list), LDH in 1–63 octets with no hyphen at either end nor in places 3–4 (unless a real IDN), and
 * an IDN label valid under IDNA2008 and written in a script the TLD takes.
 */
export function labelRegistrable(label: string, suffix: string, scriptsOf?: LookalikeOptions['scriptsOf']): boolean {
  if (!label || label.includes('.')) return false
  const ascii = toAsciiLabel(label)
  if (ascii.length > 63 || ascii.startsWith('-') || ascii.endsWith('-') || !/^[a-z0-9-]+$/.test(ascii)) return false
  const ascii34 = ascii.slice(2, 4) === '--'
  if (ascii === label) return !ascii34 && suffixIsIcann(suffix)
  if (!ascii.startsWith('xn--') || mapLabel(label) !== label || idnLabelError(label) !== null) return false
  const scripts = scriptsOfLabel(label)
  const top = suffix.split('.').at(-1)!
  return scripts !== null && scriptsAllowed(scripts, tldScripts(top, unicodeTld(top), scriptsOf?.(top))) && suffixIsIcann(suffix)
}

const labelScriptCache = new Map<string, string[] | null>()
/** `labelScripts`, which depends only on the label's distinct characters: cached by them (ASCII letters as one `a`). */
function scriptsOfLabel(label: string): string[] | null {
  let latin = true
  for (const ch of label) if (ch > '\x7f' && scriptOf(ch) !== 'Latn') latin = false
  if (latin) return ['Latn']
  const distinct = new Set<string>()
  for (const ch of label) distinct.add(ch >= 'a' && ch <= 'z' ? 'a' : ch)
  const key = [...distinct].sort().join('')
  let scripts = labelScriptCache.get(key)
  if (scripts === undefined) labelScriptCache.set(key, (scripts = labelScripts(key)))
  return scripts
}

const icann = new Map<string, boolean>()
function suffixIsIcann(suffix: string): boolean {
  let known = icann.get(suffix)
  if (known === undefined) {
    const parsed = parse(`x.${suffix}`, { allowPrivateDomains: false })
    known = parsed.isIcann === true && parsed.publicSuffix === suffix
    icann.set(suffix, known)
  }
  return known
}

/** Optimal string alignment distance (Damerau–Levenshtein with adjacent swaps), over code points. */
export function editDistance(a: string, b: string): number {
  const x = [...a]
  const y = [...b]
  const rows: number[][] = [Array.from({ length: y.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= x.length; i++) {
    const row = [i]
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1
      let v = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) v = Math.min(v, rows[i - 2]![j - 2]! + 1)
      row.push(v)
    }
    rows.push(row)
  }
  return rows[x.length]![y.length]!
}

/**
 * 0–100: how close the label is, as text (1 − edit distance / the longer length) or to the eye (the
 * same over the visual keys: 1 for a homoglyph or a whole-script confusable), whichever is closer;
 * another TLD or a subdomain costs a tenth.
 */
let lastBrand = ''
let lastKey = ''
export function similarity(brand: string, label: string, sameTld: boolean): number {
  const text = 1 - editDistance(brand, label) / Math.max([...brand].length, [...label].length, 1)
  if (brand !== lastBrand) lastKey = visualKey((lastBrand = brand))
  const a = lastKey
  const b = visualKey(label)
  const visual = a === b ? 1 : 1 - editDistance(a, b) / Math.max(a.length, b.length, 1)
  const score = 100 * Math.max(0, text, visual)
  return Math.round(sameTld ? score : score * 0.9)
}

// ------------------------------------------------------------------ generation

/**
 * Every candidate of a domain or a brand label, the original left out, one entry per ASCII name
 * with every fuzzer that made it. Label fuzzers write under the input's suffix (as dnstwist does);
 * `tld-swap` puts the label under each of `options.tlds`, and `confusable` writes the label in the
 * scripts of the input's TLD and, whole-script, in those of each swapped TLD.
 */
export function generateLookalikes(input: string, options: LookalikeOptions = {}): Candidate[] {
  const p = parseInput(input)
  if (!p) return []
  const wanted = new Set<Fuzzer>(options.fuzzers?.length ? options.fuzzers : FUZZERS)
  const words = options.dictionary ?? DEFAULT_DICTIONARY
  const original = [p.subdomain, p.label, p.tld].filter(Boolean).join('.')
  const found = new Map<string, { domain: string; fuzzers: Set<Fuzzer>; label: string; tld: string }>()
  const add = (fuzzer: Fuzzer, label: string, tld: string, sub = p.subdomain) => {
    const domain = [sub, label, tld].filter(Boolean).join('.')
    if (domain === original) return
    const ascii = toAsciiName(domain)
    const entry = found.get(ascii)
    if (entry) entry.fuzzers.add(fuzzer)
    else found.set(ascii, { domain, fuzzers: new Set([fuzzer]), label, tld })
  }
  for (const [name, fuzz] of Object.entries(LABEL_FUZZERS) as [Fuzzer, (d: string, w: readonly string[]) => Iterable<string>][]) {
    if (!wanted.has(name)) continue
    for (const label of fuzz(p.label, words)) if (label) add(name, label, p.tld)
  }
  if (wanted.has('various')) {
    for (const domain of various(p)) {
      const parts = parseInput(domain)
      if (parts) add('various', parts.label, parts.tld, parts.subdomain)
    }
  }
  const tlds = options.tlds ?? []
  if (wanted.has('tld-swap')) for (const tld of tlds) if (tld !== p.tld) add('tld-swap', p.label, tld)
  if (wanted.has('confusable')) {
    const scriptsFor = (tld: string) => {
      const top = tld.split('.').at(-1)!
      return tldScripts(top, unicodeTld(top), options.scriptsOf?.(top))
    }
    for (const label of confusableLabels(p.label, scriptsFor(p.tld))) add('confusable', label, p.tld)
    const whole = new Map<string, string[]>()
    for (const tld of tlds) {
      const scripts = scriptsFor(tld).filter((s) => s !== 'Latn')
      if (tld === p.tld || scripts.length === 0) continue
      const key = scripts.join(',')
      let labels = whole.get(key)
      if (!labels) whole.set(key, (labels = confusableLabels(p.label, scripts)))
      for (const label of labels) add('confusable', label, tld)
    }
  }
  const candidates: Candidate[] = []
  for (const [ascii, entry] of found) {
    const sameTld = entry.tld === p.tld
    // A candidate with a dot in its label (subdomain) is registered as the part after the dot.
    const dot = entry.label.lastIndexOf('.')
    const registeredLabel = dot >= 0 ? entry.label.slice(dot + 1) : entry.label
    candidates.push({
      domain: entry.domain,
      ascii,
      tld: entry.tld,
      fuzzers: FUZZERS.filter((f) => entry.fuzzers.has(f)),
      score: similarity(p.label, entry.label.replaceAll('.', ''), sameTld && !(dot >= 0)),
      registrable: labelRegistrable(registeredLabel, entry.tld, options.scriptsOf),
      registers: `${toAsciiLabel(registeredLabel)}.${entry.tld}`,
    })
  }
  return candidates
}

export { DNSTWIST_FUZZERS }
