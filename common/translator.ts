import { formatMoneyText } from './money.ts'
/**
 * The texts of a language: the part of i18next the portal's screens use, in about a kilobyte instead of
 * the ~18 KB (gzipped) of i18next and react-i18next every first load carried (issue 6, decision
 * 008). The browser starts from the texts the document inlined and must render exactly what the
 * server rendered (app/lib/translator.test.ts compares this with i18next on every key of every
 * namespace and language); the server renders its screens with it too, and the Platform API its
 * mails (server/lib/mail-texts.ts).
 *
 * Covered: `ns:key` and the `ns` option, nested keys, the language chain (pt-BR → pt → en),
 * plurals (`_one`, `_other`, … from Intl.PluralRules, `_zero` for a count of 0), `context`,
 * `defaultValue` (and `defaultValue_<plural>`), `{{value}}` interpolation and `{{value, money}}` (TEXT_FORMATS) (values are not escaped,
 * as configured; React escapes what it renders), and a missing key answering the key.
 */
export type Bundle = Record<string, unknown>
export type Resources = Record<string, Record<string, Bundle>>
export type TOptions = Record<string, unknown> & { count?: number; context?: string; defaultValue?: string; ns?: string | readonly string[]; lng?: string }
export type TFunction = (key: string | readonly string[], options?: TOptions | string) => string

/**
 * The formats a text may ask of a value (`{{shortfall, money}}`), the same for this translator and
 * i18next's (`addTextFormats`): `money` writes the API's money text ("USD 9.99; EUR 5.00") in the
 * language's own form ("9,99 US$", "US$9.99") through the one money formatter.
 */
export const TEXT_FORMATS: Record<string, (value: unknown, lng: string) => unknown> = {
  money: (value, lng) => (typeof value === 'string' ? formatMoneyText(value, lng) : value),
}

/** Gives an initialised i18next instance the formats of TEXT_FORMATS. */
export function addTextFormats(i18n: { services: { formatter?: { add(name: string, format: (value: unknown, lng: string | undefined) => unknown): void } } }): void {
  for (const [name, format] of Object.entries(TEXT_FORMATS)) i18n.services.formatter?.add(name, (value, lng) => format(value, lng ?? 'en'))
}

const INTERPOLATION = /\{\{-?\s*([^}]+?)\s*\}\}/g
const plurals = new Map<string, Intl.PluralRules>()
function pluralRule(code: string, count: number): string {
  let rules = plurals.get(code)
  if (!rules) {
    try {
      rules = new Intl.PluralRules(code)
    } catch {
      rules = new Intl.PluralRules('en')
    }
    plurals.set(code, rules)
  }
  return rules.select(count)
}

// i18next's deep find: at each level the shortest run of the key's parts that names an object (or
// the text at the end), so a key written flat inside a nested one ("fields": { "account.name": … }) is found.
function lookup(bundle: Bundle | undefined, key: string): unknown {
  if (!bundle) return undefined
  if (key in bundle) return bundle[key]
  const parts = key.split('.')
  let node: unknown = bundle
  for (let i = 0; i < parts.length;) {
    if (node === null || typeof node !== 'object') return undefined
    let next: unknown
    let j = i
    for (; j < parts.length; j++) {
      next = (node as Bundle)[parts.slice(i, j + 1).join('.')]
      if (next !== undefined && !(typeof next !== 'object' && j < parts.length - 1)) break
      next = undefined
    }
    node = next
    i = j + 1
  }
  return node
}

function interpolate(text: string, values: Record<string, unknown>, code: string): string {
  return text.replace(INTERPOLATION, (whole, written: string) => {
    // `{{shortfall, money}}`: the value through a format of TEXT_FORMATS, as i18next's formatter does it.
    const [name = written, format] = written.split(',').map((part) => part.trim())
    if (format) {
      const value = lookup(values, name)
      return value === undefined || value === null ? whole : String(TEXT_FORMATS[format]?.(value, code) ?? value)
    }
    if (!Object.prototype.hasOwnProperty.call(values, name)) {
      const nested = lookup(values, name)
      return nested === undefined ? whole : String(nested)
    }
    const value = values[name]
    return value === undefined || value === null ? '' : String(value)
  })
}

export class Translator {
  language: string
  readonly options: { defaultNS: string; fallbackLng: string }
  private readonly store: Resources = {}
  private readonly listeners = new Set<() => void>()
  private readonly memo = new Map<string, string>()
  /** Moves on every change (language or texts); the React hook reads it as its snapshot. */
  revision = 0

  constructor(language: string, resources: Resources = {}, options: { defaultNS?: string; fallbackLng?: string } = {}) {
    this.language = language
    this.options = { defaultNS: options.defaultNS ?? 'common', fallbackLng: options.fallbackLng ?? 'en' }
    for (const [code, bundles] of Object.entries(resources)) for (const [ns, bundle] of Object.entries(bundles)) this.addResourceBundle(code, ns, bundle)
  }

  /** The language, its base language, then the fallback: pt-BR → pt → en. */
  hierarchy(code: string): string[] {
    const chain = [code]
    const base = code.split('-')[0]!
    if (base !== code) chain.push(base)
    if (!chain.includes(this.options.fallbackLng)) chain.push(this.options.fallbackLng)
    return chain
  }

  addResourceBundle(code: string, ns: string, bundle: Bundle): void {
    this.addResourceBundles(code, [[ns, bundle]])
  }

  /** Several namespaces of a language at once, with one change for the screens to follow. */
  addResourceBundles(code: string, entries: Iterable<readonly [ns: string, bundle: Bundle]>): void {
    const bundles = (this.store[code] ??= {})
    for (const [ns, bundle] of entries) bundles[ns] = { ...bundles[ns], ...bundle }
    this.emit()
  }

  hasResourceBundle(code: string, ns: string): boolean {
    return Boolean(this.store[code]?.[ns])
  }

  async changeLanguage(code: string): Promise<void> {
    if (code === this.language) return
    this.language = code
    this.emit()
  }

  /** Called after every language change or added texts (the React hook re-renders on it). */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  getFixedT(code: string | null, ns?: string | readonly string[] | null, keyPrefix?: string): TFunction {
    const fixedNs = ns ? (typeof ns === 'string' ? [ns] : [...ns]) : [this.options.defaultNS]
    const nsKey = fixedNs.join(',')
    return (key, options) => {
      // A key without options always gives the same text until the texts or the language change: kept.
      if (options === undefined && typeof key === 'string') {
        const lng = code ?? this.language
        const memoKey = `${lng}\u0000${nsKey}\u0000${keyPrefix ?? ''}\u0000${key}`
        let text = this.memo.get(memoKey)
        if (text === undefined) {
          text = this.translate([keyPrefix ? `${keyPrefix}.${key}` : key], {}, lng, fixedNs)
          if (this.memo.size >= 5000) this.memo.clear()
          this.memo.set(memoKey, text)
        }
        return text
      }
      const opts: TOptions = typeof options === 'string' ? { defaultValue: options } : (options ?? {})
      const keys = typeof key === 'string' ? [key] : key
      return this.translate(
        keys.map((k) => (keyPrefix ? `${keyPrefix}.${k}` : k)),
        opts,
        opts.lng ?? code ?? this.language,
        fixedNs,
      )
    }
  }

  t: TFunction = (key, options) => this.getFixedT(null)(key, options)

  private translate(keys: string[], opts: TOptions, code: string, fixedNs: string[]): string {
    const count = typeof opts.count === 'number' ? opts.count : undefined
    const context = typeof opts.context === 'string' || typeof opts.context === 'number' ? String(opts.context) : ''
    let usedKey = keys[0]!
    for (const raw of keys) {
      let key = raw
      let namespaces = opts.ns ? (typeof opts.ns === 'string' ? [opts.ns] : [...opts.ns]) : fixedNs
      const at = key.indexOf(':')
      if (at > 0) {
        namespaces = [key.slice(0, at)]
        key = key.slice(at + 1)
      }
      usedKey = key
      for (const ns of namespaces) {
        for (const lng of this.hierarchy(code)) {
          // Most specific first: context + plural, context, plural (zero, then the rule), the key.
          const candidates = [key]
          const suffix = count === undefined ? '' : `_${pluralRule(lng, count)}`
          if (count !== undefined) {
            candidates.push(key + suffix)
            if (count === 0) candidates.push(`${key}_zero`)
          }
          if (context) {
            candidates.push(`${key}_${context}`)
            if (count !== undefined) {
              candidates.push(`${key}_${context}${suffix}`)
              if (count === 0) candidates.push(`${key}_${context}_zero`)
            }
          }
          for (let i = candidates.length - 1; i >= 0; i--) {
            const found = lookup(this.store[lng]?.[ns], candidates[i]!)
            if (typeof found === 'string') return interpolate(found, opts, code)
          }
        }
      }
    }
    const pluralDefault = count === undefined ? undefined : opts[`defaultValue_${pluralRule(code, count)}`]
    const fallback = typeof pluralDefault === 'string' ? pluralDefault : opts.defaultValue
    return typeof fallback === 'string' ? interpolate(fallback, opts, code) : usedKey
  }

  private emit() {
    this.memo.clear()
    this.revision++
    for (const listener of this.listeners) listener()
  }
}
