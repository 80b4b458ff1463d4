import { createRequire } from 'node:module'
import { idnLabelError, labelScripts, mapLabel } from '#common/idna.ts'
import { GLYPHS, LATIN_TO_CYRILLIC } from './dnstwist-tables.ts'

/**
 * Unicode's confusables (UTS #39 `confusables.txt`, as the `unhomoglyph` package ships it: each
 * source code point → its prototype) turned round for the lookalike engine: for a letter or digit
 * of a brand, the characters a domain label may hold that look like it, each with its script; and
 * a visual key (a skeleton) two labels share when they look alike, for the reverse match.
 */
const PROTOTYPES: Record<string, string> = createRequire(import.meta.url)('unhomoglyph/data.json')

const MARKS = /\p{M}/gu

const prototypeOf = (ch: string) => PROTOTYPES[ch] ?? ch

let byPrototype: Map<string, string[]> | undefined

/** Characters that may stand in a label (IDNA2008 PVALID, case- and NFKC-stable), by prototype. */
function confusableIndex(): Map<string, string[]> {
  if (byPrototype) return byPrototype
  byPrototype = new Map()
  for (const [source, prototype] of Object.entries(PROTOTYPES)) {
    if ([...source].length !== 1 || mapLabel(source) !== source || idnLabelError(source) !== null) continue
    const list = byPrototype.get(prototype) ?? []
    list.push(source)
    byPrototype.set(prototype, list)
  }
  return byPrototype
}

const scriptCache = new Map<string, string>()

/** The one script of a character (ISO 15924), `Zyyy` for a digit, a hyphen or a mark. */
export function scriptOf(ch: string): string {
  let script = scriptCache.get(ch)
  if (script === undefined) {
    const scripts = labelScripts(ch)
    script = !scripts ? 'Zzzz' : scripts.includes('Latn') ? 'Latn' : (scripts[0] ?? 'Zyyy')
    scriptCache.set(ch, script)
  }
  return script
}

const confusableCache = new Map<string, readonly string[]>()

/** Every other character a label may hold that UTS #39 says looks like `ch` (a–z, 0–9). */
export function confusablesOf(ch: string): readonly string[] {
  let list = confusableCache.get(ch)
  if (!list) {
    list = (confusableIndex().get(prototypeOf(ch)) ?? []).filter((c) => c !== ch)
    confusableCache.set(ch, list)
  }
  return list
}

// dnstwist's homoglyphs and Cyrillic letters folded into classes: a character and every
// one-character glyph of it share a representative; its several-character glyphs (rn for m, cl for
// d, vv for w) are read back first. Both sides are taken through UTS #39's prototypes first.
function prototypes(text: string): string {
  let out = ''
  for (const ch of text.normalize('NFD').replace(MARKS, '')) out += prototypeOf(ch).toLowerCase()
  return out.normalize('NFD').replace(MARKS, '')
}
const SEQUENCES: [string, string][] = []
const parent = new Map<string, string>()
const find = (c: string): string => {
  let p = c
  while (parent.has(p)) p = parent.get(p)!
  return p
}
const union = (a: string, b: string) => {
  const ra = find(a)
  const rb = find(b)
  if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb)
}
const pairs: [string, string][] = [...Object.entries(GLYPHS).flatMap(([letter, glyphs]) => glyphs.map((g): [string, string] => [letter, g])), ...Object.entries(LATIN_TO_CYRILLIC)]
// A letter whose prototype is two (m is rn) is read back as itself, and so is a several-character glyph.
for (const letter of 'abcdefghijklmnopqrstuvwxyz0123456789') if ([...prototypes(letter)].length > 1) SEQUENCES.push([prototypes(letter), letter])
for (const [letter, glyph] of pairs) if ([...prototypes(glyph)].length > 1) SEQUENCES.push([prototypes(glyph), letter])
SEQUENCES.sort((a, b) => b[0].length - a[0].length)
const readBack = (text: string) => {
  for (const [sequence, letter] of SEQUENCES) if (text.includes(sequence)) text = text.split(sequence).join(letter)
  return text
}
for (const [letter, glyph] of pairs) {
  const plain = readBack(prototypes(glyph))
  const own = readBack(prototypes(letter))
  if ([...plain].length === 1 && [...own].length === 1) union(own, plain)
}

/**
 * The visual key of a label: marks dropped, each character its UTS #39 prototype (lower case), the
 * several-character look-alikes read as the letter (rn → m), and dnstwist's homoglyph and Cyrillic
 * classes folded (b/d, c/e, m/n/r, 1/i/l, 0/o, а/a). Two labels with one key look alike.
 */
export function visualKey(label: string): string {
  let key = ''
  for (const ch of readBack(prototypes(label))) key += find(ch)
  for (const [sequence, letter] of foldedSequences()) if (key.includes(sequence)) key = key.split(sequence).join(letter)
  return key
}

let folded: [string, string][] | undefined
/** The several-character look-alikes once more over the folded key: acnre (m as nn, an n as r) is acme. */
function foldedSequences(): [string, string][] {
  if (folded) return folded
  const fold = (text: string) => [...text].map(find).join('')
  const seen = new Map<string, string>()
  for (const [sequence, letter] of SEQUENCES) if (!seen.has(fold(sequence))) seen.set(fold(sequence), fold(letter))
  folded = [...seen].filter(([a, b]) => a !== b).sort((a, b) => b[0].length - a[0].length)
  return folded
}
