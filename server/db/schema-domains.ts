import type { ColumnType, Generated } from 'kysely'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

/** Columns migration 0600 adds to `domains`: what the registry last told us. */
export interface DomainRegistryColumns {
  registry: string | null
  registry_roid: string | null
  registry_statuses: Defaulted<string[]>
  nameservers: Defaulted<string[]>
  ds_data: ColumnType<DsRecord[], string | undefined, string>
  registered_at: Date | null
  deletion_requested_at: Date | null
  reconciled_at: Date | null
}

export type DsRecord = { key_tag: number; alg: number; digest_type: number; digest: string }

export type ImportState = 'queued' | 'running' | 'completed' | 'failed'

export interface DomainImportsTable {
  id: Generated<string>
  account_id: string
  state: Defaulted<ImportState>
  total: number
  done: Defaulted<number>
  created_by: string | null
  created_at: Timestamp
  finished_at: Date | null
}

export interface DomainImportLinesTable {
  import_id: string
  line: number
  name: string
  ok: boolean | null
  error: string | null
  domain_id: string | null
}

export type DifferenceField = 'exists' | 'expires_at' | 'statuses' | 'nameservers' | 'ds'

export interface DomainDifferencesTable {
  id: Generated<string>
  domain_id: string
  account_id: string
  field: DifferenceField
  ours: string
  registry: string
  detected_at: Timestamp
  resolved_at: Date | null
}

export interface DomainExpiryNoticesTable {
  domain_id: string
  threshold_days: number
  expires_at: Date
  sent_at: Timestamp
}
