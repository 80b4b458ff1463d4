/**
 * PQL, the text form of a list filter (spec §5): `field operator 'value' and …`.
 * Shared by the portal and the Platform API so that a URL and the API read a filter the same way.
 *
 * Values are single-quoted; inside them `\'` is a quote, `\\` a backslash and `\,` a literal
 * comma. An unescaped comma separates list values (equals → any of, between → two bounds).
 */
export const OPERATORS = ['equals', 'contains', 'starts_with', 'ends_with', 'less_than', 'less_than_and_including', 'greater_than', 'greater_than_and_including', 'between'] as const

export type Operator = (typeof OPERATORS)[number]

export type Filter = { field: string; operator: Operator; values: string[] }

/** What the parser expected where it stopped; screens translate by it, the API sends `message`. */
export type PqlErrorCode = 'field' | 'operator' | 'value' | 'unterminated' | 'and' | 'space'

export type PqlError = { code: PqlErrorCode; message: string; position: number; expected?: string[] }

export type PqlResult = { ok: true; filters: Filter[] } | { ok: false; error: PqlError }

const FIELD = /[A-Za-z_][A-Za-z0-9_.]*/y
const WORD = /[A-Za-z_]+/y

/** Parses PQL text into filters, or reports the first error with its position (0-based). */
export function parsePql(text: string): PqlResult {
  const filters: Filter[] = []
  let pos = 0
  const skipSpace = () => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++
  }
  const fail = (code: PqlErrorCode, message: string, expected?: string[]): PqlResult => ({
    ok: false,
    error: expected ? { code, message, position: pos, expected } : { code, message, position: pos },
  })
  skipSpace()
  if (pos >= text.length) return { ok: true, filters }
  for (;;) {
    skipSpace()
    FIELD.lastIndex = pos
    const field = FIELD.exec(text)
    if (!field) return fail('field', 'Expected a field name')
    pos += field[0].length
    skipSpace()
    WORD.lastIndex = pos
    const op = WORD.exec(text)
    if (!op || !(OPERATORS as readonly string[]).includes(op[0].toLowerCase())) {
      return fail('operator', 'Expected an operator', [...OPERATORS])
    }
    pos += op[0].length
    skipSpace()
    if (text[pos] !== "'") return fail('value', "Expected a quoted value such as 'example'")
    const value = readQuoted(text, pos)
    if (!value) return fail('unterminated', 'Unterminated quoted value')
    pos = value.end
    filters.push({ field: field[0], operator: op[0].toLowerCase() as Operator, values: value.values })
    skipSpace()
    if (pos >= text.length) return { ok: true, filters }
    WORD.lastIndex = pos
    const joiner = WORD.exec(text)
    if (!joiner || joiner[0].toLowerCase() !== 'and') return fail('and', "Expected 'and' or the end of the filter", ['and'])
    pos += joiner[0].length
    if (pos < text.length && !/\s/.test(text[pos]!)) return fail('space', "Expected a space after 'and'")
  }
}

function readQuoted(text: string, start: number): { values: string[]; end: number } | null {
  const values: string[] = []
  let current = ''
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!
    if (ch === '\\' && i + 1 < text.length) {
      current += text[i + 1]
      i++
    } else if (ch === ',') {
      values.push(current)
      current = ''
    } else if (ch === "'") {
      values.push(current)
      return { values, end: i + 1 }
    } else {
      current += ch
    }
  }
  return null
}

/** Prints filters as PQL; `parsePql(printPql(f))` gives back `f`. */
export function printPql(filters: readonly Filter[]): string {
  return filters.map((f) => `${f.field} ${f.operator} '${f.values.map(escapeValue).join(',')}'`).join(' and ')
}

function escapeValue(value: string): string {
  return value.replace(/[\\',]/g, (ch) => `\\${ch}`)
}

/**
 * Reads the legacy `filter[field]` form. Suffixes `_before`, `_after` and `_between` give date
 * ranges; a leading `*` means ends_with, a trailing one starts_with, both contains; commas make a list.
 */
export function filterFromParam(key: string, raw: string): Filter {
  const values = splitList(raw)
  const suffix = /^(.*)_(before|after|between)$/.exec(key)
  if (suffix) {
    const operator: Operator = suffix[2] === 'before' ? 'less_than' : suffix[2] === 'after' ? 'greater_than' : 'between'
    return { field: suffix[1]!, operator, values }
  }
  if (values.length === 1) {
    const v = values[0]!
    const leading = v.startsWith('*')
    const trailing = v.endsWith('*') && !v.endsWith('\\*') && v.length > 1
    if (leading && trailing && v.length > 2) return { field: key, operator: 'contains', values: [v.slice(1, -1)] }
    if (leading && v.length > 1) return { field: key, operator: 'ends_with', values: [v.slice(1)] }
    if (trailing) return { field: key, operator: 'starts_with', values: [v.slice(0, -1)] }
  }
  return { field: key, operator: 'equals', values }
}

/** Writes a filter back to the legacy `filter[…]` form, wrapping values with `*` wildcards. */
export function filterToParam(filter: Filter): [string, string] {
  const joined = filter.values.map((v) => v.replace(/,/g, '\\,')).join(',')
  switch (filter.operator) {
    case 'contains':
      return [filter.field, `*${joined}*`]
    case 'starts_with':
      return [filter.field, `${joined}*`]
    case 'ends_with':
      return [filter.field, `*${joined}`]
    case 'less_than':
      return [`${filter.field}_before`, joined]
    case 'greater_than':
      return [`${filter.field}_after`, joined]
    case 'between':
      return [`${filter.field}_between`, joined]
    default:
      return [filter.field, joined]
  }
}

function splitList(raw: string): string[] {
  const out: string[] = []
  let current = ''
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!
    if (ch === '\\' && raw[i + 1] === ',') {
      current += ','
      i++
    } else if (ch === ',') {
      out.push(current)
      current = ''
    } else current += ch
  }
  out.push(current)
  return out
}
