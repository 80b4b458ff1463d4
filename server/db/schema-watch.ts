import type { ColumnType, Generated, Selectable } from 'kysely'
import type { CaseAction, CaseState, EvidenceKind, Resolution, Risk, Triage } from '#common/watch.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type Json<T> = ColumnType<T, string | undefined, string>

/** Migration 1300 (issue 31, decision 032). */
export interface WatchTemplatesTable {
  id: Generated<string>
  /** Null: staff's, offered to every account. */
  account_id: string | null
  name: string
  sources: Defaulted<string[]>
  interval_hours: Defaulted<number>
  min_similarity: Defaulted<number>
  threshold_high: Defaulted<number>
  threshold_critical: Defaulted<number>
  notice_text: string | null
  created_at: Timestamp
}

export type RunSummary = { candidates: number; asked: number; found: number; new: number; changed: number; ms: number }

export interface WatchesTable {
  id: Generated<string>
  account_id: string
  brand_id: string
  brand_label: string
  template_id: string | null
  name: string
  sources: Defaulted<string[]>
  interval_hours: Defaulted<number>
  min_similarity: Defaulted<number>
  threshold_high: Defaulted<number>
  threshold_critical: Defaulted<number>
  notice_text: string | null
  last_run_at: Date | null
  last_run: ColumnType<RunSummary | null, string | null | undefined, string | null>
  next_run_at: Timestamp
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface WatchContactsTable {
  id: Generated<string>
  watch_id: string
  account_id: string
  email: string
  name: string | null
  language: Defaulted<string>
  created_at: Timestamp
}

export type StoredReason = { code: string; points: number; detail?: string }

export interface WatchDetectionsTable {
  id: Generated<string>
  watch_id: string
  account_id: string
  name: string
  unicode_name: string
  tld: string
  fuzzers: Defaulted<string[]>
  similarity: number
  points: number
  risk: Risk
  reasons: Json<StoredReason[]>
  mail_ready: Defaulted<boolean>
  web_ready: Defaulted<boolean>
  registrar: string | null
  abuse_email: string | null
  cluster: string
  cluster_size: Defaulted<number>
  fingerprint: string
  first_seen_at: Timestamp
  last_seen_at: Timestamp
  changed_at: Timestamp
}

export interface WatchEvidenceTable {
  id: Generated<string>
  detection_id: string
  account_id: string
  kind: EvidenceKind
  captured_at: Timestamp
  data: Json<Record<string, unknown>>
  sha256: string
}

export interface WatchCasesTable {
  id: Generated<string>
  watch_id: string
  account_id: string
  detection_id: string
  names: string[]
  tld: string
  risk: Risk
  state: Defaulted<CaseState>
  triage: Triage | null
  action: CaseAction | null
  resolution: Resolution | null
  notice_to: string | null
  notice_language: string | null
  notice_sent_at: Date | null
  udrp_commenced_at: Date | null
  udrp_panel_at: Date | null
  udrp_decided_at: Date | null
  urs_noticed_at: Date | null
  opened_at: Timestamp
  resolved_at: Date | null
  version: Defaulted<number>
  updated_at: Timestamp
}

export interface WatchCaseStepsTable {
  id: Generated<string>
  case_id: string
  account_id: string
  state: string
  detail: string | null
  note: string | null
  actor_label: string
  at: Timestamp
}

export interface WatchSendsTable {
  case_id: string
  step: string
  account_id: string
  recipient: string
  subject: string
  sent_at: Timestamp
}

export type Watch = Selectable<WatchesTable>
export type WatchTemplate = Selectable<WatchTemplatesTable>
export type WatchDetection = Selectable<WatchDetectionsTable>
export type WatchCase = Selectable<WatchCasesTable>
export type WatchEvidence = Selectable<WatchEvidenceTable>
