import type { ColumnType, Generated, Selectable } from 'kysely'
import type { MaterialState } from '#common/lists/material-changes.ts'
import type { TrayEntityType } from '#common/lists/tray.ts'

export type { MaterialState, TrayEntityType }

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type Json<T> = ColumnType<T, string, string>

export interface TrayItemsTable {
  user_id: string
  account_id: string
  entity_type: TrayEntityType
  entity_id: string
  added_at: Timestamp
}

export const BULK_ACTIONS = ['renew', 'auto_renew_on', 'auto_renew_off', 'lock', 'unlock', 'set_contacts', 'set_nameservers'] as const
/** The domain actions; the job table also holds the record replacements of the DNS area (migration 0693) and the stages of change sets (1200). */
export type BulkAction = (typeof BULK_ACTIONS)[number]
export type BulkJobAction = BulkAction | 'replace_record_content' | 'change_set_stage' | 'change_set_rollback'
export type BulkJobState = 'queued' | 'running' | 'completed' | 'failed'

export interface BulkJobsTable {
  id: Generated<string>
  account_id: string
  user_id: string | null
  actor_label: string
  action: BulkJobAction
  params: Json<Record<string, unknown>>
  state: Defaulted<BulkJobState>
  total: number
  done: Defaulted<number>
  request_id: string | null
  created_at: Timestamp
  started_at: Date | null
  finished_at: Date | null
}

export interface BulkJobItemsTable {
  job_id: string
  position: number
  /** The item's subject: a domain, or a zone (exactly one of the two). */
  domain_id: string | null
  zone_id: string | null
  name: string
  state: Defaulted<'pending' | 'done'>
  ok: boolean | null
  /** What happened when ok. */
  outcome: 'applied' | 'unchanged' | 'approval_requested' | null
  /** Records a zone item changed. */
  records: number | null
  error: string | null
  finished_at: Date | null
}

/** Column migration 0680 adds to `domains`. */
export interface DomainMaterialColumns {
  is_material: Defaulted<boolean>
}

export interface MaterialApproversTable {
  account_id: string
  email: string
  created_at: Timestamp
}

/** A change that needs approval on a material domain (the PATCH's contacts and nameservers). */
export type MaterialChange = {
  contacts?: Partial<Record<'registrant' | 'admin' | 'tech' | 'billing', string>>
  nameservers?: string[]
}

export interface MaterialChangeRequestsTable {
  id: Generated<string>
  account_id: string
  domain_id: string
  domain_name: string
  change: Json<MaterialChange>
  state: Defaulted<MaterialState>
  requested_by: string | null
  requested_by_label: string
  approvers: Defaulted<string[]>
  notified_at: Date | null
  expires_at: Date
  decided_at: Date | null
  decided_by: string | null
  comment: string | null
  applied_at: Date | null
  error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

export interface MaterialApprovalTokensTable {
  token_hash: string
  request_id: string
  email: string
  used_at: Date | null
  created_at: Timestamp
}

export interface TrayTables {
  tray_items: TrayItemsTable
  bulk_jobs: BulkJobsTable
  bulk_job_items: BulkJobItemsTable
  material_approvers: MaterialApproversTable
  material_change_requests: MaterialChangeRequestsTable
  material_approval_tokens: MaterialApprovalTokensTable
}

export type BulkJob = Selectable<BulkJobsTable>
export type BulkJobItem = Selectable<BulkJobItemsTable>
export type MaterialChangeRequest = Selectable<MaterialChangeRequestsTable>

// The tables join `DB` (and `is_material` joins `domains`) by declaration merging, so that the
// shared schema file needs no edit while other areas change it at the same time.
declare module './schema.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merging is the point
  interface DB extends TrayTables {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merging is the point
  interface DomainsTable extends DomainMaterialColumns {}
}
