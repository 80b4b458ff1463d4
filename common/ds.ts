import { z } from 'zod'
import { codedErrors, codedRules, GENERAL_WORDS, type CodedIssue, type SayCode } from './coded-schema.ts'

/**
 * A DS record (RFC 4034 §5) a customer gives for a domain whose zone is signed where it is hosted,
 * sent to the registry over EPP secDNS (RFC 5910): the one statement of its rules, parsed by the
 * portal's form and by the Platform API (which answers each refusal's code and English words).
 */

/**
 * DNSSEC algorithms a DS may name (RFC 8624 §3.1): every assigned signing algorithm except those
 * it says MUST NOT be used (1 RSAMD5, 3 DSA, 6 DSA-NSEC3-SHA1, 12 ECC-GOST), with their mnemonics.
 */
export const DS_ALGORITHMS = {
  5: 'RSASHA1',
  7: 'RSASHA1-NSEC3-SHA1',
  8: 'RSASHA256',
  10: 'RSASHA512',
  13: 'ECDSAP256SHA256',
  14: 'ECDSAP384SHA384',
  15: 'ED25519',
  16: 'ED448',
} as const satisfies Record<number, string>

/**
 * Digest types a DS may use (RFC 8624 §3.3: SHA-256 MUST, SHA-384 MAY; SHA-1 and GOST MUST NOT be
 * used to make one), with the digest's length in hexadecimal digits.
 */
export const DS_DIGEST_TYPES = {
  2: { name: 'SHA-256', hexLength: 64 },
  4: { name: 'SHA-384', hexLength: 96 },
} as const satisfies Record<number, { name: string; hexLength: number }>

/** At most this many DS records on one domain (keys in a rollover, each with a digest or two). */
export const MAX_DS_RECORDS = 8

export const DS_FIELDS = ['key_tag', 'alg', 'digest_type', 'digest'] as const

const WORDS: Record<string, (values: { max?: number }) => string> = {
  ...GENERAL_WORDS,
  'ds.key-tag': () => 'The key tag is a whole number from 0 to 65535',
  'ds.algorithm': () => 'Choose one of the algorithms offered (RFC 8624 forbids the others)',
  'ds.digest-type': () => 'Choose SHA-256 or SHA-384 (RFC 8624 forbids SHA-1 and GOST)',
  'ds.digest-hex': () => 'The digest is hexadecimal: the digits 0–9 and the letters A–F',
  'ds.digest-length-sha256': () => 'A SHA-256 digest has 64 hexadecimal digits',
  'ds.digest-length-sha384': () => 'A SHA-384 digest has 96 hexadecimal digits',
}

/** The English words of a DS refusal code: the API's message, the portal's fallback. */
export const dsWords: SayCode = (code, values = {}) => WORDS[code]?.(values) ?? code

const LATER = ['ds.key-tag', 'ds.algorithm', 'ds.digest-type', 'ds.digest-hex', 'ds.digest-length-sha256', 'ds.digest-length-sha384']

/**
 * The DS as given (numbers as numbers or text, the digest with any spaces a copy brought): the key
 * tag 0–65535, an algorithm and digest type RFC 8624 allows, the digest hexadecimal of its type's
 * length. Gives back the record with the digest upper case and without spaces.
 */
export function dsRecordSchema(say: SayCode = dsWords) {
  const rules = codedRules(say, LATER)
  const whole = (code: string, ok: (n: number) => boolean) =>
    z.union([z.number(), z.string()], rules.coded('field.required')).transform((value, ctx) => {
      const text = String(value).trim()
      if (text === '') {
        rules.issue(ctx, 'field.required')
        return z.NEVER
      }
      const n = Number(text)
      if (!/^\d+$/.test(text) || !ok(n)) {
        rules.issue(ctx, code)
        return z.NEVER
      }
      return n
    })
  return z
    .object({
      key_tag: whole('ds.key-tag', (n) => n <= 65535),
      alg: whole('ds.algorithm', (n) => n in DS_ALGORITHMS),
      digest_type: whole('ds.digest-type', (n) => n in DS_DIGEST_TYPES),
      digest: rules.requiredText(200).transform((value) => value.replace(/\s+/g, '').toUpperCase()),
    })
    .superRefine((ds, ctx) => {
      if (!/^[0-9A-F]+$/.test(ds.digest)) return rules.issue(ctx, 'ds.digest-hex', { path: ['digest'] })
      const type = DS_DIGEST_TYPES[ds.digest_type as keyof typeof DS_DIGEST_TYPES]
      if (type && ds.digest.length !== type.hexLength) rules.issue(ctx, ds.digest_type === 2 ? 'ds.digest-length-sha256' : 'ds.digest-length-sha384', { path: ['digest'] })
    })
}

export type DsRecordInput = z.input<ReturnType<typeof dsRecordSchema>>
export type DsRecordValue = z.output<ReturnType<typeof dsRecordSchema>>

/** A DS as given, checked: the record, or its refusals (field, code, English words) in the fields' order. */
export function parseDsRecord(input: unknown): { ok: true; ds: DsRecordValue } | { ok: false; errors: CodedIssue[] } {
  const parsed = dsRecordSchema().safeParse(input)
  return parsed.success ? { ok: true, ds: parsed.data } : { ok: false, errors: codedErrors(parsed.error, DS_FIELDS) }
}

/** A DS's identity in a path (`{key_tag}-{alg}-{digest_type}-{DIGEST}`), as the remove operation takes it. */
export const dsKey = (ds: { key_tag: number; alg: number; digest_type: number; digest: string }) => `${ds.key_tag}-${ds.alg}-${ds.digest_type}-${ds.digest.toUpperCase()}`
