import type { ColumnType } from 'kysely'

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

/** A signed-in portal session; the cookie carries the id whose SHA-256 is `id`. */
export interface PortalSessionsTable {
  id: string
  stage: ColumnType<'two_factor' | 'active', 'two_factor' | 'active' | undefined, 'two_factor' | 'active'>
  user_id: string | null
  access_token: string
  refresh_token: ColumnType<string, string | undefined, string>
  /** UTC 'YYYY-MM-DD HH:mm:ss'. */
  expires: string
  sso_token: string | null
  application_id: string | null
  user_data: ColumnType<Record<string, unknown>, string | undefined, string>
  refreshing_until: Date | null
  created_at: Timestamp
  last_seen_at: Timestamp
}

export interface PortalRateLimitsTable {
  key: string
  window_start: Date
  hits: number
}

export interface PortalDB {
  portal_sessions: PortalSessionsTable
  portal_rate_limits: PortalRateLimitsTable
}
