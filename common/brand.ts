/**
 * Brand protection's vocabulary (issue 30): the fuzzers of the lookalike engine, in the order a
 * person reads them. Every fuzzer of dnstwist, under dnstwist's names, and `confusable`: Unicode's
 * confusables (UTS #39) written in a script the candidate's TLD takes.
 */
export const DNSTWIST_FUZZERS = [
  'addition',
  'bitsquatting',
  'cyrillic',
  'homoglyph',
  'hyphenation',
  'insertion',
  'omission',
  'repetition',
  'replacement',
  'subdomain',
  'transposition',
  'vowel-swap',
  'various',
  'dictionary',
  'tld-swap',
] as const

export const FUZZERS = [...DNSTWIST_FUZZERS, 'confusable'] as const
export type Fuzzer = (typeof FUZZERS)[number]

export const isFuzzer = (name: string): name is Fuzzer => (FUZZERS as readonly string[]).includes(name)

/** The words a brand's dictionary (combosquatting) starts with: editable per brand. */
export const DEFAULT_DICTIONARY = ['login', 'secure', 'support', 'pay', 'shop', 'mail', 'account', 'online', 'verify', 'help', 'app', 'web', 'my', 'official', 'store', 'service'] as const

/** At most this many candidates in one page of `GET /v1/lookalikes`. */
export const LOOKALIKES_PAGE_LIMIT = 1000

/**
 * What is known of a candidate (issue 30): not checked yet, ours (in the account's portfolio),
 * blocked (an active block covers it), registered by someone else (with the DNS answers as
 * evidence), available (with the account's price to register it), or marked safe by a person.
 */
export const CANDIDATE_STATUSES = ['unchecked', 'ours', 'blocked', 'registered', 'available', 'safe'] as const
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number]
