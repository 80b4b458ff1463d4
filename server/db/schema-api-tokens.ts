import type { ColumnType, Generated, Selectable } from 'kysely'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

/** Migration 0850: API tokens of the Platform API (issue 20). */
export interface ApiTokensTable {
  id: Generated<string>
  number: ColumnType<number, never, never>
  user_id: string
  created_by: string | null
  name: string
  token_hash: string
  hint: string
  permissions: string[]
  account_id: string | null
  domain_tags: Defaulted<string[]>
  cidrs: Defaulted<string[]>
  expires_at: Timestamp
  revoked_at: Date | null
  created_at: Timestamp
}

export interface ApiTokenUsesTable {
  token_id: string
  used_at: Timestamp
  address: string
}

export type ApiToken = Selectable<ApiTokensTable>
