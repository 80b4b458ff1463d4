import type { ColumnType } from 'kysely'
import type { PulseWidget } from '#common/pulse.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>

/** A user's pulse dashboard (migration 1000): the widgets in order; no row is the role's defaults. */
export interface PulseConfigurationsTable {
  user_id: string
  widgets: ColumnType<PulseWidget[], string, string>
  version: Defaulted<number>
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

/** A report mailed on a schedule (migration 1001): `last_period` is the period last mailed (claimed before sending). */
export interface ReportSubscriptionsTable {
  id: ColumnType<string, string | undefined, never>
  user_id: string
  account_id: string
  report: string
  filters: ColumnType<{ tag?: string | null; days?: number | null; months?: number | null }, string | undefined, string>
  frequency: 'weekly' | 'monthly' | 'quarterly'
  last_period: string | null
  unsubscribe_token: string
  created_at: ColumnType<Date, Date | string | undefined, never>
}
