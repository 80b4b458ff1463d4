import type { ZoneIssue } from '#common/dns.ts'
import { inZone, NameError, resolveName } from './names.ts'
import { KeyValues } from './key-set.ts'
import { isRecordType, parseRdata, parseTtl, RdataError, RECORD_TYPES, TTL_MAX, type RecordType, type Token } from './rdata.ts'

/** A record of a zone: owner absolute without the trailing dot, content canonical. */
export type ZoneRecord = { name: string; type: RecordType; ttl: number; content: string; priority: number | null; line: number }

/**
 * An error or warning at a line. `code` and `params`, when set, let a screen say it in the user's
 * language (the portal's dns `import.issues.<code>`); `message` is the English text.
 */
export type { ZoneIssue }

export type ZoneEvent = { kind: 'record'; record: ZoneRecord } | { kind: 'error'; error: ZoneIssue } | { kind: 'warning'; warning: ZoneIssue }

/** The types a file or form may hold, as a list for messages (SOA is the portal's own). */
export const SUPPORTED_TYPES_TEXT = RECORD_TYPES.join(', ')

/**
 * Our TTL policy on top of RFC 2181's 0..2147483647: below a minute resolvers are hammered for
 * nothing, above a week a mistake lingers too long. See docs/decisions/200-dns-zones.md. `min` is
 * the default of the floor, which is configuration (DNS_TTL_MIN, `deps.dns.ttlMin`).
 */
export const TTL_POLICY = { min: 60, max: 604_800 } as const

/** The TTL floor the deployment configured (DNS_TTL_MIN), else the policy's. */
export const ttlFloor = (deps: { dns?: { ttlMin?: number } }) => deps.dns?.ttlMin ?? TTL_POLICY.min

export type ParseOptions = {
  /** The zone the records belong to (absolute, no trailing dot); also the initial $ORIGIN. */
  zone: string
  /** TTL used until a $TTL line, when a record has none. */
  defaultTtl?: number
  /** Apply TTL_POLICY (true by default); false keeps only the RFC bounds. */
  ttlPolicy?: boolean
  /** The TTL floor (TTL_POLICY.min unless configured): a lower TTL is raised to it with a warning on its line. */
  ttlMin?: number
}

const SPACE = 32
const TAB = 9
const CR = 13
const SEMI = 59
const LPAREN = 40
const RPAREN = 41
const QUOTE = 34
const BACKSLASH = 92

const CLASSES = new Set(['IN', 'CH', 'HS', 'CS', 'ANY', 'NONE'])

/**
 * A streaming RFC 1035 §5 master-file parser: feed it lines (or whole chunks through
 * `parseZone`), it yields records and errors with their line and column. Memory stays constant:
 * only the entry being read (one line, or a parenthesised group of lines) is held.
 */
export class ZoneFileParser {
  private readonly zone: string
  private readonly policy: boolean
  private readonly ttlMin: number
  private origin: string
  private ttl: number | undefined
  private lastOwner: string | undefined
  private lastOwnerText: string | undefined
  private lastOwnerOrigin: string | undefined
  private lastTtl: number | undefined
  private originOutside = false
  private lineNo = 0
  // The entry being read: its tokens, whether its owner is blank, and open parentheses.
  private tokens: Token[] = []
  private tokenLines: number[] = []
  private entryLine = 0
  private ownerBlank = false
  private depth = 0
  private parenLine = 0
  private parenColumn = 0
  private entryFailed = false
  private out: ZoneEvent[] = []

  constructor(options: ParseOptions) {
    this.zone = options.zone
    this.origin = options.zone
    this.ttl = options.defaultTtl
    this.policy = options.ttlPolicy ?? true
    this.ttlMin = options.ttlMin ?? TTL_POLICY.min
  }

  /** Reads one line (without its newline) and returns the events it completed. */
  line(text: string): ZoneEvent[] {
    const events: ZoneEvent[] = []
    this.lineInto(text, events)
    return events
  }

  /** Reads one line, appending completed events to `sink`; records first pass the checker. */
  lineInto(text: string, sink: ZoneEvent[], checker?: ZoneChecker) {
    this.out = sink
    this.lineNo++
    this.lex(text)
    if (this.depth === 0) this.finishEntry(checker)
  }

  /** Tokenises one line of record data (a form or the API) exactly as a zone file line. */
  static tokenize(text: string): { tokens: Token[]; error?: { column: number; message: string } } {
    const parser = new ZoneFileParser({ zone: '', ttlPolicy: false })
    parser.lineNo = 1
    parser.ownerBlank = false
    parser.lex(text)
    const failure = parser.out.find((e) => e.kind === 'error')
    if (failure?.kind === 'error') return { tokens: [], error: { column: failure.error.column, message: failure.error.message } }
    if (parser.depth > 0) return { tokens: [], error: { column: parser.parenColumn, message: "'(' is never closed" } }
    return { tokens: parser.tokens }
  }

  private lex(text: string) {
    const n = text.length
    if (this.depth === 0) {
      this.tokens = []
      this.tokenLines = []
      this.entryLine = this.lineNo
      this.entryFailed = false
      const first = n > 0 ? text.charCodeAt(0) : SPACE
      this.ownerBlank = first === SPACE || first === TAB
    }
    let i = 0
    while (i < n) {
      const c = text.charCodeAt(i)
      if (c === SPACE || c === TAB || c === CR) {
        i++
        continue
      }
      if (c === SEMI) break
      if (c === LPAREN) {
        if (this.depth > 0) this.fail(this.lineNo, i + 1, "'(' inside parentheses")
        this.depth = 1
        this.parenLine = this.lineNo
        this.parenColumn = i + 1
        i++
        continue
      }
      if (c === RPAREN) {
        if (this.depth === 0) this.fail(this.lineNo, i + 1, "')' without a matching '('")
        this.depth = 0
        i++
        continue
      }
      if (c === QUOTE) {
        const start = i + 1
        let j = start
        while (j < n) {
          const d = text.charCodeAt(j)
          if (d === BACKSLASH) j += 2
          else if (d === QUOTE) break
          else j++
        }
        if (j >= n) {
          this.fail(this.lineNo, i + 1, 'unterminated quoted string (a string cannot span lines)')
          break
        }
        this.push(text.slice(start, j), true, i + 1)
        i = j + 1
        continue
      }
      const start = i
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d === BACKSLASH) {
          i += 2
          continue
        }
        if (d === SPACE || d === TAB || d === CR || d === SEMI || d === LPAREN || d === RPAREN || d === QUOTE) break
        i++
      }
      if (i > n) {
        this.fail(this.lineNo, n, 'the line ends with a lone backslash')
        i = n
      }
      this.push(text.slice(start, i), false, start + 1)
    }
  }

  /** Ends the input: reports a parenthesis left open. */
  end(): ZoneEvent[] {
    this.out = []
    if (this.depth > 0) {
      this.error(this.parenLine, this.parenColumn, "'(' is never closed")
      this.depth = 0
    }
    return this.out
  }

  private push(text: string, quoted: boolean, column: number) {
    this.tokens.push({ text, quoted, column })
    this.tokenLines.push(this.lineNo)
  }

  private fail(line: number, column: number, message: string) {
    if (!this.entryFailed) this.error(line, column, message)
    this.entryFailed = true
  }

  private error(line: number, column: number, message: string) {
    this.out.push({ kind: 'error', error: { line, column, message } })
  }

  private errorAt(index: number, message: string, code?: Pick<ZoneIssue, 'code' | 'params'>) {
    const token = this.tokens[index]
    let line: number
    let column: number
    if (token) {
      line = this.tokenLines[index]!
      column = token.column
    } else {
      const last = this.tokens.length - 1
      const lastToken = this.tokens[last]
      line = this.tokenLines[last] ?? this.entryLine
      column = lastToken ? lastToken.column + lastToken.text.length : 1
    }
    this.out.push({ kind: 'error', error: { line, column, message, ...code } })
  }

  private finishEntry(checker?: ZoneChecker) {
    const tokens = this.tokens
    if (this.entryFailed || tokens.length === 0) return
    const first = tokens[0]!
    if (!this.ownerBlank && !first.quoted && first.text.charCodeAt(0) === 36 /* $ */) {
      this.directive()
      return
    }
    let index = 0
    let owner: string
    if (this.ownerBlank) {
      if (this.lastOwner === undefined) {
        this.errorAt(0, 'the first record needs an owner name')
        return
      }
      owner = this.lastOwner
    } else if (first.text === this.lastOwnerText && this.origin === this.lastOwnerOrigin && this.lastOwner !== undefined) {
      // Zone files repeat an owner on consecutive lines; it resolves the same way.
      owner = this.lastOwner
      index = 1
    } else {
      try {
        owner = resolveName(first.text, this.origin, 'owner')
      } catch (error) {
        if (error instanceof NameError) this.errorAt(0, `owner name: ${error.message}`, error.code ? { code: error.code, params: { name: first.text } } : undefined)
        else throw error
        return
      }
      if (!inZone(owner, this.zone)) {
        // Under a $ORIGIN of another zone that line said it once: not once more per record.
        if (!this.originOutside) this.errorAt(0, `${owner || '.'} is outside the zone ${this.zone}`, { code: 'outside-zone', params: { name: owner || '.', zone: this.zone } })
        return
      }
      index = 1
      this.lastOwner = owner
      this.lastOwnerText = first.text
      this.lastOwnerOrigin = this.origin
    }
    // TTL and class may come in either order, each at most once.
    let ttl: number | undefined
    let sawClass = false
    for (let k = 0; k < 2; k++) {
      const t = tokens[index]
      if (!t || t.quoted) break
      const c = t.text.charCodeAt(0)
      if (c >= 48 && c <= 57 && ttl === undefined) {
        const value = parseTtl(t.text)
        if (value === -2) return this.errorAt(index, `TTL ${t.text} is above ${TTL_MAX}`)
        if (value < 0) return this.errorAt(index, `TTL '${t.text}' is not a number of seconds`)
        ttl = value
        index++
        continue
      }
      if (!sawClass && t.text === 'IN') {
        sawClass = true
        index++
        continue
      }
      const upper = t.text.toUpperCase()
      if (!sawClass && CLASSES.has(upper)) {
        if (upper !== 'IN') return this.errorAt(index, `class ${upper} is not supported; only IN`)
        sawClass = true
        index++
        continue
      }
      break
    }
    const typeToken = tokens[index]
    if (!typeToken) return this.errorAt(index, 'missing record type')
    const type = isRecordType(typeToken.text) ? typeToken.text : typeToken.text.toUpperCase()
    if (!isRecordType(type)) {
      // LOC, SPF, DNAME, URI, CERT, HINFO, RP… are served by PowerDNS but not managed here: the
      // line is refused by its number and type, and nothing of the file is written.
      return this.errorAt(index, `record type ${typeToken.text.toUpperCase()} is not supported; the portal manages ${SUPPORTED_TYPES_TEXT}`, {
        code: 'type-unsupported',
        params: { type: typeToken.text.toUpperCase(), supported: SUPPORTED_TYPES_TEXT },
      })
    }
    const rdataStart = index + 1
    let rdata
    try {
      rdata = parseRdata(type, rdataStart === 0 ? tokens : tokens.slice(rdataStart), this.origin)
    } catch (error) {
      if (!(error instanceof RdataError)) throw error
      const at = error.column === undefined ? tokens.length : tokens.findIndex((t, k) => k >= rdataStart && t.column === error.column)
      // An address where a name belongs is said in the reader's words (the rest in the parser's own).
      this.errorAt(at < 0 ? tokens.length : at, error.message, error.code === 'target-address' ? { code: error.code, params: { ...error.params, type } } : undefined)
      return
    }
    if (ttl === undefined) {
      // RFC 2308: $TTL, else the previous record's TTL; a SOA may fall back to its minimum.
      ttl = this.ttl ?? this.lastTtl
      if (ttl === undefined && type === 'SOA') ttl = Number(rdata.content.slice(rdata.content.lastIndexOf(' ') + 1))
      if (ttl === undefined) return this.errorAt(index, 'no TTL: give one on the record or set $TTL first')
    } else {
      if (this.policy && ttl > TTL_POLICY.max) {
        const ttlIndex = tokens.findIndex((t) => parseTtl(t.text) === ttl)
        return this.errorAt(ttlIndex, `TTL ${ttl} is outside the allowed ${this.ttlMin}–${TTL_POLICY.max} seconds`)
      }
      if (this.policy && ttl < this.ttlMin) {
        // Below the floor: raised to it, said on its line in the preview; the file is not refused for it.
        const ttlIndex = tokens.findIndex((t) => parseTtl(t.text) === ttl)
        this.ttlRaised(this.tokenLines[ttlIndex] ?? this.entryLine, tokens[ttlIndex]?.column ?? 1, ttl)
        ttl = this.ttlMin
      }
      this.lastTtl = ttl
    }
    const record: ZoneRecord = { name: owner, type, ttl, content: rdata.content, priority: rdata.priority, line: this.entryLine }
    const problem = checker?.check(record)
    if (problem) return this.error(this.entryLine, 1, problem)
    const adjusted = checker?.ttlOf(record)
    if (adjusted) {
      const params = { name: owner, type, given: ttl, ttl: adjusted.ttl, first: adjusted.line }
      this.out.push({
        kind: 'warning',
        warning: {
          line: this.entryLine,
          column: 1,
          message: `${owner} ${type}: TTL ${ttl} set to ${adjusted.ttl}, the TTL of the record set from line ${adjusted.line} (one TTL per record set)`,
          code: 'rrset-ttl',
          params,
        },
      })
      record.ttl = adjusted.ttl
    }
    this.out.push({ kind: 'record', record })
  }

  private ttlRaised(line: number, column: number, given: number) {
    this.out.push({
      kind: 'warning',
      warning: { line, column, message: `TTL ${given} is below the lowest allowed, ${this.ttlMin} seconds: raised to ${this.ttlMin}`, code: 'ttl-raised', params: { given, ttl: this.ttlMin } },
    })
  }

  private directive() {
    const tokens = this.tokens
    const keyword = tokens[0]!.text.toUpperCase()
    const arg = tokens[1]
    if (keyword === '$INCLUDE') {
      return this.errorAt(0, '$INCLUDE is not supported: paste the included file into the import instead')
    }
    if (keyword === '$ORIGIN') {
      if (!arg) return this.errorAt(1, '$ORIGIN needs a domain name')
      try {
        this.origin = resolveName(arg.text, this.origin, 'owner')
      } catch (error) {
        if (error instanceof NameError) return this.errorAt(1, `$ORIGIN: ${error.message}`)
        throw error
      }
      if (tokens[2]) return this.errorAt(2, `unexpected '${tokens[2].text}' after $ORIGIN`)
      this.originOutside = !inZone(this.origin, this.zone)
      if (this.originOutside) {
        return this.errorAt(1, `$ORIGIN ${this.origin || '.'} is outside the zone ${this.zone}: the file is for another zone`, {
          code: 'origin-outside',
          params: { origin: this.origin || '.', zone: this.zone },
        })
      }
      return
    }
    if (keyword === '$TTL') {
      if (!arg) return this.errorAt(1, '$TTL needs a number of seconds')
      const value = parseTtl(arg.text)
      if (value === -2) return this.errorAt(1, `TTL ${arg.text} is above ${TTL_MAX}`)
      if (value < 0) return this.errorAt(1, `$TTL '${arg.text}' is not a number of seconds`)
      if (this.policy && value > TTL_POLICY.max) {
        return this.errorAt(1, `TTL ${value} is outside the allowed ${this.ttlMin}–${TTL_POLICY.max} seconds`)
      }
      if (tokens[2]) return this.errorAt(2, `unexpected '${tokens[2].text}' after $TTL`)
      if (this.policy && value < this.ttlMin) {
        this.ttlRaised(this.tokenLines[1] ?? this.entryLine, arg.column, value)
        this.ttl = this.ttlMin
        return
      }
      this.ttl = value
      return
    }
    this.errorAt(0, `unknown directive ${tokens[0]!.text} (supported: $ORIGIN, $TTL)`)
  }
}

/**
 * Zone-wide rules that need more than one record: CNAME alone at its name and never at the apex,
 * one SOA at the apex.
 *
 * It keeps a few bits per owner name. For a million names a Map of strings cost most of the
 * parse time, so owners are keyed by two independent 30- and 27-bit hashes instead (a Map of
 * small integers): two different names collide on both with a probability of about n²/2^58
 * (3·10⁻⁶ for a million names), and the only effect of a collision would be a refused zone
 * whose message names the record, never a bad zone accepted.
 */
export class ZoneChecker {
  private readonly zone: string
  // h1 → (h2 << 3 | bits); bit 1 = has a CNAME, bit 2 = has other data, bit 4 = reported.
  private readonly owners = new Map<number, number>()
  // Owners whose h1 is shared with another name: keyed by both hashes.
  private readonly overflow = new Map<string, number>()
  private soaCount = 0
  // The TTL each RRset got from its first record, and that line; the last RRset seen is kept
  // apart, since a file lists an RRset's records one after the other nearly always.
  private readonly rrsetTtls = new KeyValues(1 << 12)
  private lastSet = ''
  private lastSetTtl = 0
  private lastSetLine = 0

  constructor(zone: string) {
    this.zone = zone
  }

  /**
   * RFC 2181 §5.2: an RRset has one TTL. Answers the TTL (and the line that set it) a record must
   * take when its RRset already has another one — BIND's "TTL set to prior TTL" — else null.
   * Two different RRsets whose 64-bit hashes match (odds about 1 in 3·10^7 for a million RRsets)
   * would have the second take the first one's TTL, with a warning naming its line in the preview.
   */
  ttlOf(record: { name: string; type: string; ttl: number; line: number }): { ttl: number; line: number } | null {
    const key = `${record.name}\t${record.type}`
    if (key !== this.lastSet) {
      const slot = this.rrsetTtls.claim(key, record.ttl, record.line)
      this.lastSet = key
      this.lastSetTtl = slot < 0 ? record.ttl : this.rrsetTtls.first(slot)
      this.lastSetLine = slot < 0 ? record.line : this.rrsetTtls.second(slot)
    }
    return record.ttl === this.lastSetTtl ? null : { ttl: this.lastSetTtl, line: this.lastSetLine }
  }

  /** Returns the problem this record adds to the zone, if any. */
  check(record: { name: string; type: RecordType }): string | null {
    const name = record.name
    if (record.type === 'SOA') {
      if (name !== this.zone) return 'a SOA record belongs at the zone apex only'
      this.soaCount++
      return this.soaCount > 1 ? 'the zone has more than one SOA record' : null
    }
    if (record.type === 'CNAME' && name === this.zone) return 'a CNAME cannot be at the zone apex (it would hide the SOA and NS records)'
    if (record.type === 'DS' && name === this.zone) return 'a DS record belongs in the parent zone, not at the apex of this one'
    let h1 = 0x811c9dc5 | 0
    let h2 = 5381
    for (let i = 0; i < name.length; i++) {
      const c = name.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 16777619)
      h2 = (Math.imul(h2, 33) + c) | 0
    }
    const k1 = h1 & 0x3fffffff
    const k2 = h2 & 0x7ffffff
    const stored = this.owners.get(k1)
    let bits: number
    let overflowKey: string | undefined
    if (stored === undefined) bits = 0
    else if (stored >>> 3 === k2) bits = stored & 7
    else {
      overflowKey = `${k1}:${k2}`
      bits = this.overflow.get(overflowKey) ?? 0
    }
    const mine = record.type === 'CNAME' ? 1 : 2
    let problem: string | null = null
    let next = bits | mine
    if (record.type === 'CNAME' && bits & 1) {
      problem = `${name} already has a CNAME; a name has at most one`
      next |= 4
    } else if ((next & 3) === 3 && !(bits & 4)) {
      problem = `${name} has a CNAME and other records; a CNAME must be alone at its name`
      next |= 4
    }
    if (next !== bits) {
      if (overflowKey) this.overflow.set(overflowKey, next)
      else this.owners.set(k1, (k2 << 3) | next)
    }
    return problem
  }
}

/**
 * Parses a master file from a stream of chunks and yields, per chunk, the records and errors
 * (each with line and column) it completed; zone-wide rules are checked on the way. Batches keep
 * the per-record cost free of promise overhead; memory stays at one chunk plus the per-owner
 * bits of the zone checker.
 */
export async function* parseZoneBatches(source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>, options: ParseOptions): AsyncGenerator<ZoneEvent[]> {
  const parser = new ZoneFileParser(options)
  const checker = new ZoneChecker(options.zone)
  const decoder = new TextDecoder('utf-8', { fatal: true })
  let rest = ''
  const run = (text: string, final: boolean): ZoneEvent[] => {
    const batch: ZoneEvent[] = []
    let start = 0
    let nl = text.indexOf('\n')
    while (nl >= 0) {
      parser.lineInto(text.slice(start, nl), batch, checker)
      start = nl + 1
      nl = text.indexOf('\n', start)
    }
    rest = text.slice(start)
    if (final) {
      if (rest.length) parser.lineInto(rest, batch, checker)
      rest = ''
      for (const event of parser.end()) batch.push(event)
    }
    return batch
  }
  for await (const chunk of source) {
    const batch = run(rest + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })), false)
    if (batch.length) yield batch
  }
  const batch = run(rest + decoder.decode(), true)
  if (batch.length) yield batch
}

/** Like parseZoneBatches, one event at a time. */
export async function* parseZone(source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>, options: ParseOptions): AsyncGenerator<ZoneEvent> {
  for await (const batch of parseZoneBatches(source, options)) yield* batch
}

/** Parses a whole text at once (small inputs, tests). */
export async function parseZoneText(text: string, options: ParseOptions): Promise<{ records: ZoneRecord[]; errors: ZoneIssue[]; warnings: ZoneIssue[] }> {
  const records: ZoneRecord[] = []
  const errors: ZoneIssue[] = []
  const warnings: ZoneIssue[] = []
  for await (const event of parseZone([text], options)) {
    if (event.kind === 'record') records.push(event.record)
    else if (event.kind === 'warning') warnings.push(event.warning)
    else errors.push(event.error)
  }
  return { records, errors, warnings }
}

/** Tokenises one line of record data (from a form or the API) the way a zone file would. */
export function tokenizeRdata(text: string) {
  if (/[\r\n]/.test(text)) return { tokens: [], error: { column: 1, message: 'record data is one line' } }
  return ZoneFileParser.tokenize(text)
}
