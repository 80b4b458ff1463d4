import type { ColumnType, Generated, Selectable } from 'kysely'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export interface UserTwoFactorTable {
  user_id: string
  secret: string
  enabled_at: Date | null
  last_used_step: number | null
  created_at: Timestamp
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<string>
  user_id: string
  code_hash: string
  used_at: Date | null
  created_at: Timestamp
}

export interface PasswordResetsTable {
  id: Generated<string>
  user_id: string
  token_hash: string
  expires_at: Date
  used_at: Date | null
  requested_ip: string | null
  created_at: Timestamp
}

export type AuthEventKind = 'password' | 'two_factor' | 'sso' | 'refresh' | 'reset' | 'logout'
export type AuthEventOutcome = 'success' | 'failure'

export interface AuthEventsTable {
  id: Generated<string>
  user_id: string | null
  account_id: string | null
  email: string | null
  kind: AuthEventKind
  outcome: AuthEventOutcome
  reason: ColumnType<string, string | undefined, string>
  ip: ColumnType<string, string | undefined, string>
  user_agent: ColumnType<string, string | undefined, string>
  created_at: Timestamp
}

export interface AuthFailureCountersTable {
  key: string
  window_start: Date
  failures: number
  updated_at: Timestamp
}

/** The sign-in tables; merged into the DB interface of schema.ts. */
export interface AuthDB {
  user_two_factor: UserTwoFactorTable
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable
  password_resets: PasswordResetsTable
  auth_events: AuthEventsTable
  auth_failure_counters: AuthFailureCountersTable
}

export type AuthEvent = Selectable<AuthEventsTable>
