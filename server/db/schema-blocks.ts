import type { ColumnType, Generated, Selectable } from 'kysely'
import type { BlockStoredState } from '#common/blocks.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

/** Migrations 0910 and 0930 (decision 302). */
export interface BlocksTable {
  id: Generated<string>
  account_id: string
  label: string
  label_unicode: string
  product_id: string | null
  product_code: string
  provider_product: string
  period_years: number
  trademark_ref: string
  status: Defaulted<BlockStoredState>
  covered_tlds: Defaulted<string[]>
  provider: string | null
  provider_id: string | null
  placed_at: Date | null
  expires_at: Date | null
  cancelled_at: Date | null
  charge_key: string | null
  failure_reason: string | null
  /** The expiry the last expiry notice was about (once per term). */
  expiry_noticed_for: Defaulted<Date | null>
  created_by: string
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export type Block = Selectable<BlocksTable>
