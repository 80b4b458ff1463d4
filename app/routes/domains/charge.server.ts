import type { TFunction } from 'i18next'
import { data } from 'react-router'
import { attempt, refusalText } from '#app/lib/refusal.server.ts'
import type { ChargeQuote } from './charge-confirmation.tsx'
import { confirmChargeSchema } from './schemas.ts'
import type { DomainScreen } from './shared.server.ts'

/**
 * A domain's charge asked once (issue 28): the first submit only asks the engine's quote for
 * exactly that action (`quoteCharge`: nothing is charged) and the screen answers it to confirm; the
 * confirmation (`confirmCharge`) posts the price it showed, and the API refuses the charge when its
 * quote is now otherwise — then the new quote is answered to confirm again.
 */
export function quoteCharge(screen: DomainScreen, domainId: string, action: ChargeQuote['action'], period = 1) {
  const path = { context: screen.groupContext, id: domainId }
  return attempt(() => screen.platform.get(`/groups/{context}/domains/{id}/${action}/quote`, { path, ...(action === 'renew' ? { query: { period } } : {}) }))
}

/** The confirmed charge (intent `renew-confirmed` or `restore-confirmed`), or why it was refused with the new quote to confirm. */
export async function confirmCharge(
  screen: DomainScreen,
  t: TFunction,
  form: FormData,
  domainId: string,
): Promise<{ ok: true; action: ChargeQuote['action']; period: number } | { ok: false; status: number; action: ChargeQuote['action']; error: string; confirm?: ChargeQuote }> {
  const parsed = confirmChargeSchema.safeParse(Object.fromEntries(form))
  if (!parsed.success) throw data('Unknown form', { status: 400 })
  const confirmed = parsed.data
  const { period, amount_minor, currency } = confirmed
  const action = confirmed.intent === 'renew-confirmed' ? 'renew' : 'restore'
  const expected = amount_minor === '' ? null : { amount_minor: Number(amount_minor), currency }
  const path = { context: screen.groupContext, id: domainId }
  const result = await attempt(() =>
    action === 'renew'
      ? screen.platform.post('/groups/{context}/domains/{id}/renew', { path, body: { period, expected } })
      : screen.platform.post('/groups/{context}/domains/{id}/restore', { path, body: { expected } }),
  )
  if (result.ok) return { ok: true, action, period }
  // The price changed in between: nothing was charged; the new quote is shown to confirm again.
  const again = result.problem.code === 'billing.quote_changed' ? await quoteCharge(screen, domainId, action, period) : null
  return { ok: false, status: result.status, action, error: refusalText(t, result.problem), ...(again?.ok ? { confirm: again.value } : {}) }
}
