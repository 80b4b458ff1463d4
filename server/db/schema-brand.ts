import type { ColumnType, Generated, Selectable } from 'kysely'
import type { CandidateStatus } from '#common/brand.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

/** Migration 1100 (issue 30, decision 029). */
export interface BrandsTable {
  id: Generated<string>
  account_id: string
  label: string
  /** The domains the brand's own names are (ASCII). */
  domains: Defaulted<string[]>
  /** Words of its dictionary fuzzer (combosquatting); none: the default words. */
  dictionary: Defaulted<string[]>
  /** The fuzzers to run; none: every one. */
  fuzzers: Defaulted<string[]>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface BrandCandidatesTable {
  id: Generated<string>
  brand_id: string
  account_id: string
  name: string
  unicode_name: string
  tld: string
  fuzzers: string[]
  score: number
  status: Defaulted<CandidateStatus>
  price_minor: number | null
  currency: string | null
  evidence: ColumnType<CandidateEvidence | null, string | null | undefined, string | null>
  first_seen_at: Timestamp
  checked_at: Date | null
  /** Migration 1102: when a feed (CT, a zone file) last found the candidate new or changed, and which. */
  changed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  changed_by: ColumnType<FeedSource | null, FeedSource | null | undefined, FeedSource | null>
}

export type FeedSource = 'ct' | 'zone'

/** Migration 1102: each run of a feed. */
export interface BrandFeedRunsTable {
  id: Generated<string>
  source: FeedSource
  started_at: Timestamp
  finished_at: Date | null
  read: ColumnType<string, number | undefined, number>
  matched: Defaulted<number>
  error: string | null
}

export interface CtLogPositionsTable {
  log: string
  tree_size: ColumnType<string, number, number>
  updated_at: Timestamp
}

export interface ZoneFeedPositionsTable {
  tld: string
  file: string
  names: number
  updated_at: Timestamp
}

/** What a check found: the DNS answers of a name registered by someone else, the block that covers it. */
export type CandidateEvidence = {
  ns?: string[]
  a?: string[]
  mx?: string[]
  block?: string
  checked?: string
  /** The registry's record (RDAP), when it has one. */
  rdap?: { registrar: string | null; iana_id: string | null; abuse_email: string | null; created: string | null; expires: string | null; statuses: string[] }
  /** Certificates seen in CT for the name, newest first (at most 10). */
  ct?: CtSighting[]
  /** The zone file it was first delegated in. */
  zone?: { tld: string; file: string; seen: string }
}

export type CtSighting = { log: string; index: number; names: string[]; issuer: string; not_before: string; not_after: string; serial: string; seen: string }

export type Brand = Selectable<BrandsTable>
export type BrandCandidate = Selectable<BrandCandidatesTable>
