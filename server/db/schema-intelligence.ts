import type { ColumnType, Generated, Selectable } from 'kysely'
import type { CellState, GapTotals, IntelligenceModule, ItemKind, Pattern, RunStatus, Schedule, TldGroup } from '#common/intelligence.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type Json<T> = ColumnType<T, string, string>

/** Migration 1400 (issue 32, decision 033). */
export interface IntelligenceTemplatesTable {
  id: Generated<string>
  account_id: string
  name: string
  modules: Defaulted<IntelligenceModule[]>
  tld_groups: Defaulted<TldGroup[]>
  keywords: Defaulted<string[]>
  lookalike_min_score: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface IntelligenceItemsTable {
  id: Generated<string>
  /** Where the item is kept: the client's account, or for a prospect the registrar's account whose people work it. */
  account_id: string
  kind: ItemKind
  name: string
  brand: string
  strings: Defaulted<string[]>
  keywords: Defaulted<string[]>
  /** The names the brand says it holds (at another registrar, or a prospect's portfolio). */
  known_domains: Defaulted<string[]>
  priority_cctlds: Defaulted<string[]>
  tld_groups: Defaulted<TldGroup[]>
  modules: Defaulted<IntelligenceModule[]>
  lookalike_min_score: Defaulted<number>
  template_id: string | null
  schedule: Defaulted<Schedule>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export type RunSummary = GapTotals & { score: number | null; domains: number }

export interface IntelligenceRunsTable {
  id: Generated<string>
  item_id: string
  account_id: string
  status: Defaulted<RunStatus>
  trigger: Defaulted<'manual' | 'schedule' | 'seed'>
  done: Defaulted<number>
  total: Defaulted<number>
  patterns: ColumnType<Pattern[], string | undefined, string>
  summary: ColumnType<RunSummary | null, string | null | undefined, string | null>
  error: string | null
  created_by: Defaulted<string>
  created_at: Timestamp
  started_at: Date | null
  finished_at: Date | null
}

/** What a cell's state rests on: the registry's answer, the DNS answers, the block, the source asked. */
export type CellEvidence = { registry?: { available: boolean; reason?: string }; ns?: string[]; a?: string[]; mx?: string[]; block?: { id: string; product: string }; source?: string }

export interface IntelligenceCellsTable {
  id: Generated<string>
  run_id: string
  account_id: string
  pattern: string
  name: string
  unicode_name: string
  tld: string
  tld_group: TldGroup
  state: CellState
  evidence: Json<CellEvidence>
  price_minor: number | string | null
  currency: string | null
  checked_at: Timestamp
}

export type IntelligenceItem = Selectable<IntelligenceItemsTable>
export type IntelligenceRun = Selectable<IntelligenceRunsTable>
export type IntelligenceCell = Selectable<IntelligenceCellsTable>
export type IntelligenceTemplate = Selectable<IntelligenceTemplatesTable>
