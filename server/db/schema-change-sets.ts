import type { ColumnType, Generated, Selectable } from 'kysely'
import type { ChangeSetCheck, ChangeSetObjectOutcome, ChangeSetPhase, ChangeSetPreview, ChangeSetState, ChangeSpec, ChangeSetTarget, ObjectPreview } from '#common/change-sets.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
type Json<T> = ColumnType<T, string, string>

/** Migration 1200: a change over the objects a list filter selects, previewed and rolled out in stages (decision 030). */
export interface ChangeSetsTable {
  id: Generated<string>
  account_id: string
  name: string
  target: ChangeSetTarget
  filter: Defaulted<string>
  change: Json<ChangeSpec>
  stages: Defaulted<number[]>
  state: Defaulted<ChangeSetState>
  phase: ChangeSetPhase | null
  current_stage: Defaulted<number>
  stage_jobs: Defaulted<string[]>
  rollback_job: string | null
  checks: ColumnType<ChangeSetCheck[], string | undefined, string>
  check_deadline: Date | null
  preview: ColumnType<ChangeSetPreview | null, string | null | undefined, string | null>
  previewed_at: Date | null
  created_by: string | null
  created_by_label: string
  request_id: string | null
  created_at: Timestamp
  updated_at: Timestamp
  started_at: Date | null
  finished_at: Date | null
  version: Defaulted<number>
  /** Migration 1202: the approval a set waits for (N of its approvers), fixed when asked. */
  approvals_required: number | null
  approvers: Defaulted<string[]>
  approval_reason: 'material' | 'account' | null
  approval_requested_at: Date | null
  approved_at: Date | null
}

export interface ChangeSetObjectsTable {
  id: Generated<string>
  change_set_id: string
  position: number
  account_id: string
  subject_id: string
  name: string
  preview: ObjectPreview
  added: Defaulted<number>
  removed: Defaulted<number>
  diff: Defaulted<string>
  stage: number | null
  outcome: ChangeSetObjectOutcome | null
  error: string | null
  baseline: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>
  finished_at: Date | null
}

export type ChangeSet = Selectable<ChangeSetsTable>
export type ChangeSetObject = Selectable<ChangeSetObjectsTable>

/** Migration 1201: a policy is the state a filter's objects should be in, as a change set's change; its drift, per object. */
export interface ChangeSetPoliciesTable {
  id: Generated<string>
  account_id: string
  name: string
  target: ChangeSetTarget
  filter: Defaulted<string>
  change: Json<ChangeSpec>
  objects: number | null
  drifting: number | null
  evaluated_at: Date | null
  last_error: string | null
  created_by: string | null
  created_by_label: string
  created_at: Timestamp
  updated_at: Timestamp
}

export interface ChangeSetPolicyDriftTable {
  id: Generated<string>
  policy_id: string
  account_id: string
  subject_id: string
  name: string
  state: 'drifting' | 'conflict'
  diff: Defaulted<string>
  since: Date | string
  checked_at: Date | string
}

export type ChangeSetPolicy = Selectable<ChangeSetPoliciesTable>

/** Migration 1202: each approver's decision on a set waiting for approval. */
export interface ChangeSetApprovalsTable {
  change_set_id: string
  account_id: string
  email: string
  user_id: string | null
  decision: 'approve' | 'reject'
  comment: Defaulted<string>
  decided_at: Timestamp
}

/** Migration 1202: per account, how many approvers must approve (N of M) and whether every set waits for them. */
export interface ChangeSetApprovalRulesTable {
  account_id: string
  required: Defaulted<number>
  every_set: Defaulted<boolean>
  updated_at: Timestamp
}
