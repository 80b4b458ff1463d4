import type { ColumnType, Generated, Selectable } from 'kysely'
import type { WebhookEventType } from '#common/webhooks.ts'

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

/** Migration 0851: webhooks (issue 20). */
export interface WebhookEndpointsTable {
  id: Generated<string>
  account_id: string
  url: string
  description: Defaulted<string>
  events: string[]
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | null
  enabled: Defaulted<boolean>
  disabled_reason: string | null
  failing_since: Date | null
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface WebhookEventsTable {
  id: Generated<string>
  account_id: string
  type: WebhookEventType
  data: ColumnType<Record<string, unknown>, string, string>
  occurred_at: Timestamp
  dispatched_at: Date | null
}

export interface WebhookDeliveriesTable {
  id: Generated<string>
  event_id: string
  endpoint_id: string
  state: Defaulted<'pending' | 'succeeded' | 'failed'>
  attempts: Defaulted<number>
  /** Due at (pending); now by default (migration 0890). */
  next_attempt_at: ColumnType<Date | null, Date | null | undefined, Date | null>
  /** Held by a sender until then, renewed while it lives (migration 0890). */
  claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>
  last_status: number | null
  last_error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}

export interface WebhookAttemptsTable {
  id: Generated<string>
  delivery_id: string
  endpoint_id: string
  attempted_at: Timestamp
  status: number | null
  response_excerpt: Defaulted<string>
  error: string | null
  duration_ms: Defaulted<number>
}

export type WebhookEndpoint = Selectable<WebhookEndpointsTable>
