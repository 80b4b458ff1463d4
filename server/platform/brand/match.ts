import punycode from 'punycode/punycode.js'
import { parse } from 'tldts'
import { DEFAULT_DICTIONARY, type Fuzzer } from '#common/brand.ts'
import { visualKey } from './confusables.ts'
import { cyrillicOf, fuzzLabel, parseInput, similarity } from './lookalikes.ts'

/**
 * The reverse question (issue 30): is this name a lookalike of one of these brands, of which, by
 * which fuzzer? Answered from an index built once for a set of brands, so a zone diff's or a CT
 * batch's names are each a few map look-ups, never a loop over the brands:
 * - every label the cheap fuzzers make of each brand (addition, bitsquatting, hyphenation,
 *   insertion, omission, repetition, replacement, transposition, vowel-swap, dictionary), exactly;
 * - each brand's label, for `tld-swap` (the label under a suffix the brand does not protect) and
 *   `subdomain` (the label split by a dot: `a.cme.com`);
 * - each brand's visual key (`visualKey`), for `homoglyph`, `cyrillic` and `confusable`: the
 *   thousands of homoglyph spellings of a brand are never listed, a name's key is looked up.
 */

export type IndexedBrand = {
  /** The caller's id for the brand. */
  id: string
  /** A brand label (`acme`) or one of its domains (`acme.com`). */
  name: string
  /** The public suffixes the brand's own names are under (`com`, `co.uk`); the name's when absent. */
  suffixes?: readonly string[]
  /** Words of its `dictionary` fuzzer. */
  dictionary?: readonly string[]
}

export type Match = { brand: string; fuzzers: Fuzzer[]; score: number }

const EXACT_FUZZERS: Fuzzer[] = ['addition', 'bitsquatting', 'hyphenation', 'insertion', 'omission', 'repetition', 'replacement', 'transposition', 'vowel-swap', 'dictionary']

type Indexed = { label: string; suffixes: Set<string> }

export class LookalikeIndex {
  private readonly brands: Indexed[] = []
  private readonly ids: string[] = []
  /** A fuzzed label → (brand, fuzzer bits). */
  private readonly exact = new Map<string, number[]>()
  private readonly byLabel = new Map<string, number[]>()
  private readonly byVisual = new Map<string, number[]>()

  constructor(brands: readonly IndexedBrand[]) {
    for (const brand of brands) this.add(brand)
  }

  get size() {
    return this.exact.size
  }

  add(brand: IndexedBrand) {
    const parsed = parseInput(brand.name)
    if (!parsed) return
    const n = this.brands.length
    this.brands.push({ label: parsed.label, suffixes: new Set(brand.suffixes?.length ? brand.suffixes : [parsed.tld]) })
    this.ids.push(brand.id)
    const words = brand.dictionary ?? DEFAULT_DICTIONARY
    const bits = new Map<string, number>()
    EXACT_FUZZERS.forEach((fuzzer, bit) => {
      for (const label of fuzzLabel(fuzzer, parsed.label, words)) if (label !== parsed.label) bits.set(label, (bits.get(label) ?? 0) | (1 << bit))
    })
    for (const [label, mask] of bits) push(this.exact, label, n * 2048 + mask)
    push(this.byLabel, parsed.label, n)
    push(this.byVisual, visualKey(parsed.label), n)
  }

  /** The brands a name (ASCII or Unicode) looks like, each with its fuzzers and score; none for a brand's own name. */
  match(name: string): Match[] {
    const ascii = name.trim().toLowerCase().replace(/\.$/, '')
    const parsed = parse(ascii, { allowPrivateDomains: false })
    const suffix = parsed.publicSuffix
    const asciiLabel = parsed.domainWithoutSuffix
    if (!suffix || !asciiLabel || parsed.isIcann !== true) return []
    const label = asciiLabel.startsWith('xn--') ? safeUnicode(asciiLabel) : asciiLabel
    const found = new Map<number, Set<Fuzzer>>()
    const note = (brand: number, fuzzer: Fuzzer) => {
      const set = found.get(brand) ?? new Set()
      set.add(fuzzer)
      found.set(brand, set)
    }
    for (const value of this.exact.get(label) ?? []) {
      const brand = Math.floor(value / 2048)
      EXACT_FUZZERS.forEach((fuzzer, bit) => value & (1 << bit) && note(brand, fuzzer))
    }
    for (const brand of this.byLabel.get(label) ?? []) if (!this.brands[brand]!.suffixes.has(suffix)) note(brand, 'tld-swap')
    const sub = parsed.subdomain?.split('.').at(-1)
    if (sub) for (const brand of this.byLabel.get(sub + label) ?? []) note(brand, 'subdomain')
    for (const brand of this.byVisual.get(visualKey(label)) ?? []) {
      const own = this.brands[brand]!.label
      if (own === label) continue
      note(brand, cyrillicOf(own) === label ? 'cyrillic' : /^\p{ASCII}*$/u.test(label) || /^[\p{Script=Latin}\d-]+$/u.test(label) ? 'homoglyph' : 'confusable')
    }
    const out: Match[] = []
    for (const [brand, fuzzers] of found) {
      const own = this.brands[brand]!
      out.push({ brand: this.ids[brand]!, fuzzers: [...fuzzers], score: similarity(own.label, label, own.suffixes.has(suffix)) })
    }
    return out
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}

function safeUnicode(label: string): string {
  try {
    return punycode.toUnicode(label)
  } catch {
    return label
  }
}
