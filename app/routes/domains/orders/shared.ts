import type { TFunction } from 'i18next'

/** Reasons the Platform API gives when it refuses an order item (server/platform/orders/service.ts). */
const REASONS = new Set([
  'invalid-name',
  'tld-not-offered',
  'period-not-allowed',
  'auth-code-required',
  'unavailable',
  'not-registered',
  'already-held',
  'in-cart',
  'no-registry',
  'not-held',
  'cart-empty',
  'not-retryable',
  'nothing-to-cancel',
  'no-exchange-rate',
])

type Refusal = { reason?: unknown; allowed_periods?: unknown; from_currency?: unknown; to_currency?: unknown; detail?: unknown; errors?: { field?: string; message?: string }[] } | null | undefined

/** The refusal in the user's language when its reason is known, else the API's own text. */
export function refusalMessage(t: TFunction, body: unknown, fallback: string): string {
  const refusal = body as Refusal
  const reason = typeof refusal?.reason === 'string' ? refusal.reason : null
  if (reason && REASONS.has(reason)) {
    const allowed = Array.isArray(refusal?.allowed_periods) ? refusal.allowed_periods.map((y) => t('orders:cart.years', { count: Number(y) })).join(', ') : ''
    const text = t(`orders:errors.${reason}`, { allowed, from: String(refusal?.from_currency ?? ''), to: String(refusal?.to_currency ?? '') })
    // The registry's reason (e.g. "In use") adds to an unavailable name.
    return reason === 'unavailable' && typeof (refusal as { registry_reason?: unknown }).registry_reason === 'string'
      ? `${text} (${(refusal as { registry_reason: string }).registry_reason})`
      : text
  }
  const detail = typeof refusal?.detail === 'string' ? refusal.detail : fallback
  const fields = refusal?.errors?.map((e) => e.message).filter(Boolean) ?? []
  return [detail, ...fields].join(' — ')
}

/** The field a refusal is about (name, period or auth_code), for placing its message. */
export function refusalField(body: unknown): 'name' | 'period' | 'auth_code' | null {
  const field = (body as Refusal)?.errors?.[0]?.field ?? ''
  const last = field.split('.').at(-1)
  return last === 'name' || last === 'period' || last === 'auth_code' ? last : null
}

export const ITEM_STATES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const
export const isRunning = (state: string) => state === 'pending' || state === 'processing'

export const stateColor = (state: string) =>
  (({ pending: 'grey', processing: 'blue', completed: 'green', failed: 'red', cancelled: 'amber', partial: 'yellow' }) as const)[state as 'pending'] ?? 'grey'

export type MoneyTotal = { currency: string; minor: number }
