/**
 * The rules a label in another script must meet before any registry is asked for it (issue 26):
 * IDNA2008 (RFC 5890–5893) after UTS #46 mapping, UTS #39's restriction on scripts, and the
 * scripts the TLD takes. Browser-safe and table-free: Unicode properties come from the regular
 * expression engine (`\p{…}`), so the portal's forms and the API say the same thing.
 *
 * Choices (docs/decisions/104-idn-names.md):
 * - UTS #46 non-transitional mapping, then validation: what is typed in full width (`ｅｘａｍｐｌｅ`),
 *   in capitals or with the ideographic full stop (`。`) is mapped, and the name shown and
 *   registered is the mapped one. `ß` and `ς` stay themselves (non-transitional).
 * - Invisible characters are refused, never mapped away: the bidirectional controls (U+202A–202E,
 *   U+2066–2069, U+200E/200F, U+061C) and every default-ignorable code point (U+200B–200D, U+2060,
 *   U+FEFF, U+00AD, U+034F…), which UTS #46 would silently delete. This is stricter than CONTEXTJ:
 *   ZWJ and ZWNJ are refused everywhere, also after a virama.
 * - IDNA2008's derived property (RFC 5892 §2–3) from general categories, with its exceptions,
 *   unstable, ignorable and old Hangul jamo code points; CONTEXTO (Appendix A.3–A.9) in full; the
 *   Bidi rule (RFC 5893) for labels with right-to-left letters, by script (JavaScript has no
 *   Bidi_Class property).
 * - UTS #39 "highly restrictive": one script per label (Common and Inherited go with any), or
 *   Latin with Han and Hiragana/Katakana (Japanese), Han and Bopomofo, or Han and Hangul.
 */

export type IdnLabelError = 'label-invisible' | 'label-characters' | 'label-context' | 'label-bidi' | 'label-mixed-scripts'

/** The English words of the IDN refusals (issue 26), for the API's messages; the portal says them from `domains:nameErrors`. */
export const IDN_NAME_MESSAGES: Record<IdnLabelError | 'label-script', string> = {
  'label-characters': 'A label has characters that are not allowed',
  'label-invisible': 'The name holds an invisible character (a direction control or a zero-width character)',
  'label-context': 'A label has a character that is not allowed where it stands (a middle dot, a Greek keraia, a Hebrew geresh, a Katakana middle dot or mixed Arabic digits)',
  'label-bidi': 'A right-to-left label must start with a right-to-left letter and hold no left-to-right letters',
  'label-mixed-scripts': 'A label mixes scripts (for example Latin and Cyrillic letters)',
  'label-script': 'The TLD does not take labels in this script',
}

/** Bidirectional controls and default-ignorable code points: invisible, and refused. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u

/** The label separators UTS #46 maps to a full stop. */
export const IDN_DOTS = /[\u3002\uFF0E\uFF61]/g

/** UTS #46 non-transitional mapping of a label (case folded, compatibility forms composed), NFC. */
export function mapLabel(label: string): string {
  return label.normalize('NFKC').toLowerCase().normalize('NFKC').normalize('NFC')
}

/** Whether the label holds an invisible character (checked before mapping, which would drop it). */
export const hasInvisible = (text: string) => INVISIBLE.test(text)

// RFC 5892 §2.6 exceptions.
const EXCEPTION_PVALID = new Set([0x00df, 0x03c2, 0x06fd, 0x06fe, 0x0f0b, 0x3007])
const EXCEPTION_DISALLOWED = new Set([0x0640, 0x07fa, 0x302e, 0x302f, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303b])
const CONTEXTO = (cp: number) => cp === 0x00b7 || cp === 0x0375 || cp === 0x05f3 || cp === 0x05f4 || cp === 0x30fb || (cp >= 0x0660 && cp <= 0x0669) || (cp >= 0x06f0 && cp <= 0x06f9)
const LETTER_DIGIT = /^[\p{Ll}\p{Lu}\p{Lo}\p{Nd}\p{Lm}\p{Mn}\p{Mc}]$/u
const UNASSIGNED = /^\p{Cn}$/u
const ignorableBlock = (cp: number) => (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0x1d100 && cp <= 0x1d24f)
const oldHangulJamo = (cp: number) => (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0xa960 && cp <= 0xa97f) || (cp >= 0xd7b0 && cp <= 0xd7ff)

/** IDNA2008's derived property of one code point (RFC 5892 §3), JoinControl being invisible here. */
function derived(ch: string): 'PVALID' | 'CONTEXTO' | 'DISALLOWED' {
  const cp = ch.codePointAt(0)!
  if ((cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39) || cp === 0x2d) return 'PVALID'
  if (EXCEPTION_PVALID.has(cp)) return 'PVALID'
  if (CONTEXTO(cp)) return 'CONTEXTO'
  if (EXCEPTION_DISALLOWED.has(cp)) return 'DISALLOWED'
  if (UNASSIGNED.test(ch)) return 'DISALLOWED'
  // Unstable: NFKC with case folding changes it (capitals, compatibility forms).
  if (ch.normalize('NFKC').toLowerCase().normalize('NFKC') !== ch) return 'DISALLOWED'
  if (INVISIBLE.test(ch) || ignorableBlock(cp) || oldHangulJamo(cp)) return 'DISALLOWED'
  return LETTER_DIGIT.test(ch) ? 'PVALID' : 'DISALLOWED'
}

const GREEK = /^\p{Script=Greek}$/u
const HEBREW = /^\p{Script=Hebrew}$/u
const JAPANESE = /^[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]$/u

/** CONTEXTO rules (RFC 5892 Appendix A.3–A.9): true when the code point at `i` may stand there. */
function contextOk(chars: string[], i: number): boolean {
  const cp = chars[i]!.codePointAt(0)!
  const before = chars[i - 1]
  const after = chars[i + 1]
  if (cp === 0x00b7) return before === 'l' && after === 'l'
  if (cp === 0x0375) return after !== undefined && GREEK.test(after)
  if (cp === 0x05f3 || cp === 0x05f4) return before !== undefined && HEBREW.test(before)
  if (cp === 0x30fb) return chars.some((c) => c !== '\u30fb' && JAPANESE.test(c))
  const arabicIndic = chars.some((c) => c >= '\u0660' && c <= '\u0669')
  const extended = chars.some((c) => c >= '\u06f0' && c <= '\u06f9')
  return !(arabicIndic && extended)
}

// Right-to-left letters (Bidi_Class R or AL), by script.
const RTL = /^[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]$/u
const LETTER = /^\p{L}$/u
const MARK = /^\p{M}$/u
const ARABIC_DIGIT = /^[\u0660-\u0669]$/u
const DIGIT = /^\p{Nd}$/u

/** RFC 5893's rule for a label holding right-to-left letters (an RTL label); other labels pass. */
function bidiOk(chars: string[]): boolean {
  const rtl = (c: string) => RTL.test(c) && (LETTER.test(c) || DIGIT.test(c))
  if (!chars.some((c) => RTL.test(c) && LETTER.test(c))) return true
  // 1: starts with R or AL. 2: no L (letters of a left-to-right script). 4: not both EN and AN.
  if (!rtl(chars[0]!) || !LETTER.test(chars[0]!)) return false
  if (chars.some((c) => LETTER.test(c) && !RTL.test(c))) return false
  const european = chars.some((c) => (c >= '0' && c <= '9') || (c >= '\u06f0' && c <= '\u06f9'))
  if (european && chars.some((c) => ARABIC_DIGIT.test(c))) return false
  // 3: ends with R, AL, EN or AN, then only marks.
  let end = chars.length - 1
  while (end > 0 && MARK.test(chars[end]!)) end--
  return rtl(chars[end]!) || DIGIT.test(chars[end]!)
}

/**
 * Validates a U-label as IDNA2008 has it (already mapped): code points, no leading combining mark,
 * CONTEXTO, the Bidi rule, one script. Null when it is good.
 */
export function idnLabelError(label: string): IdnLabelError | null {
  if (hasInvisible(label)) return 'label-invisible'
  if (label.normalize('NFC') !== label) return 'label-characters'
  const chars = [...label]
  if (MARK.test(chars[0]!)) return 'label-characters'
  for (let i = 0; i < chars.length; i++) {
    const property = derived(chars[i]!)
    if (property === 'DISALLOWED') return 'label-characters'
    if (property === 'CONTEXTO' && !contextOk(chars, i)) return 'label-context'
  }
  if (!bidiOk(chars)) return 'label-bidi'
  if (labelScripts(label) === null) return 'label-mixed-scripts'
  return null
}

// ------------------------------------------------------------------ scripts (UTS #24, UTS #39)

/** ISO 15924 codes of the scripts a label may be written in, with their Unicode names. */
const SCRIPTS: readonly [code: string, name: string][] = [
  ['Latn', 'Latin'],
  ['Grek', 'Greek'],
  ['Cyrl', 'Cyrillic'],
  ['Armn', 'Armenian'],
  ['Geor', 'Georgian'],
  ['Hebr', 'Hebrew'],
  ['Arab', 'Arabic'],
  ['Syrc', 'Syriac'],
  ['Thaa', 'Thaana'],
  ['Nkoo', 'Nko'],
  ['Deva', 'Devanagari'],
  ['Beng', 'Bengali'],
  ['Guru', 'Gurmukhi'],
  ['Gujr', 'Gujarati'],
  ['Orya', 'Oriya'],
  ['Taml', 'Tamil'],
  ['Telu', 'Telugu'],
  ['Knda', 'Kannada'],
  ['Mlym', 'Malayalam'],
  ['Sinh', 'Sinhala'],
  ['Thai', 'Thai'],
  ['Laoo', 'Lao'],
  ['Tibt', 'Tibetan'],
  ['Mymr', 'Myanmar'],
  ['Khmr', 'Khmer'],
  ['Mong', 'Mongolian'],
  ['Ethi', 'Ethiopic'],
  ['Cher', 'Cherokee'],
  ['Cans', 'Canadian_Aboriginal'],
  ['Tfng', 'Tifinagh'],
  ['Hang', 'Hangul'],
  ['Hira', 'Hiragana'],
  ['Kana', 'Katakana'],
  ['Bopo', 'Bopomofo'],
  ['Hani', 'Han'],
  ['Yiii', 'Yi'],
]
/** Scripts written together (UTS #39 §5.1): Japanese, Korean, Han with Bopomofo. */
const COMPOUND: Record<string, string[]> = { Hani: ['Jpan', 'Kore', 'Hanb'], Hira: ['Jpan'], Kana: ['Jpan'], Hang: ['Kore'], Bopo: ['Hanb'] }
/** Every script code a TLD's list may name. */
export const SCRIPT_CODES: readonly string[] = [...SCRIPTS.map(([code]) => code), 'Jpan', 'Kore', 'Hanb']

let matchers: [string, RegExp][] | undefined
const COMMON = /^[\p{Script_Extensions=Common}\p{Script_Extensions=Inherited}]$/u

function scriptsOf(ch: string): string[] | null {
  if (COMMON.test(ch)) return null
  matchers ??= SCRIPTS.map(([code, name]) => [code, new RegExp(`^\\p{Script_Extensions=${name}}$`, 'u')])
  const found = matchers.filter(([, re]) => re.test(ch)).map(([code]) => code)
  if (found.length === 0) return ['Zzzz']
  return [...new Set([...found, ...found.flatMap((code) => COMPOUND[code] ?? [])])]
}

/**
 * The scripts a label is written in (UTS #39's resolved script set, "highly restrictive"): a set
 * of ISO 15924 codes, `['Zyyy']` for a label of digits and hyphens only, or null when it mixes
 * scripts (Latin with Cyrillic, …). Latin may go with Japanese, Korean or Han with Bopomofo: the
 * answer then holds Latn and those.
 */
export function labelScripts(label: string): string[] | null {
  let resolved: Set<string> | null = null
  let latin = false
  for (const ch of label) {
    const scripts = scriptsOf(ch)
    if (!scripts) continue
    if (scripts.includes('Latn')) {
      latin = true
      continue
    }
    resolved = resolved ? new Set(scripts.filter((s) => resolved!.has(s))) : new Set(scripts)
    if (resolved.size === 0) return null
  }
  if (!resolved) return latin ? ['Latn'] : ['Zyyy']
  if (!latin) return [...resolved]
  const cjk = ['Jpan', 'Kore', 'Hanb'].filter((s) => resolved.has(s))
  return cjk.length ? ['Latn', ...cjk] : null
}

/** Whether a label's scripts are among the TLD's: Latin needs Latn; the rest one of the TLD's scripts. */
export function scriptsAllowed(scripts: readonly string[], allowed: readonly string[]): boolean {
  if (scripts.includes('Zyyy')) return true
  const rest = scripts.filter((s) => s !== 'Latn')
  if (scripts.includes('Latn') && !allowed.includes('Latn')) return false
  return rest.length === 0 || rest.some((s) => allowed.includes(s))
}

/**
 * The scripts a TLD takes in its labels: its catalogue entry's list when it has one; else an IDN
 * TLD its own script, a few country codes Latin and their national script, and everything else
 * Latin only (a generic TLD takes another script once its catalogue entry says so).
 */
export function tldScripts(tld: string, unicodeTld: string, configured?: readonly string[] | null): string[] {
  if (configured && configured.length) return [...configured]
  if (tld.startsWith('xn--')) return (labelScripts(unicodeTld) ?? ['Latn']).filter((s) => s !== 'Zyyy')
  return COUNTRY_SCRIPTS[tld] ?? ['Latn']
}

const COUNTRY_SCRIPTS: Record<string, string[]> = {
  jp: ['Latn', 'Jpan'],
  kr: ['Latn', 'Kore'],
  cn: ['Latn', 'Hani'],
  tw: ['Latn', 'Hanb'],
  hk: ['Latn', 'Hani'],
  ru: ['Latn', 'Cyrl'],
  ua: ['Latn', 'Cyrl'],
  bg: ['Latn', 'Cyrl'],
  gr: ['Latn', 'Grek'],
  il: ['Latn', 'Hebr'],
  th: ['Latn', 'Thai'],
  in: ['Latn', 'Deva'],
}
