/** Webhooks (issue 20): the events an endpoint can want, and the rules both sides state. */
export const WEBHOOK_EVENT_TYPES = [
  'domain.registered',
  'domain.renewed',
  'domain.deleted',
  'domain.expiring',
  'domain.transferred_in',
  'domain.transferred_out',
  'order.completed',
  'order.failed',
  'dns.zone.published',
  'dns.zone.failed',
  'dns.zone.drifted',
  'registry.difference_found',
  'ssl.issued',
  'ssl.expiring',
  'ssl.failed',
  'invoice.issued',
  'block.placed',
  'block.failed',
  'block.renewed',
  'block.expiring',
  'block.expired',
  'block.cancelled',
  'brand.detection',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | 'webhook.test'

/** Waits before each retry (Standard Webhooks' schedule): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const WEBHOOK_RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000] as const
/** An endpoint failing for this long is disabled and its account's admins told. */
export const WEBHOOK_DISABLE_AFTER_DAYS = 5
export const WEBHOOK_URL_MAX = 2000
/** At most so many endpoints per account. */
export const WEBHOOK_ENDPOINTS_MAX = 20

export type WebhookEndpointView = {
  id: string
  account_id: string
  url: string
  description: string
  events: string[]
  enabled: boolean
  disabled_reason: string | null
  failing_since: string | null
  rotating_until: string | null
  version: number
  created_at: string
}

export type WebhookAttemptView = {
  id: string
  delivery_id: string
  event_id: string
  event_type: string
  attempted_at: string
  status: number | null
  response_excerpt: string
  error: string | null
  duration_ms: number
  delivery_state: 'pending' | 'succeeded' | 'failed'
}
