import type { ReactNode } from 'react'
import { Form, Link, useLocation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'

/** A price the pricing engine quoted and the screen showed (null: no charge), posted back with the confirmation. */
export type ShownPrice = { amount_minor: number; currency: string } | null

/**
 * Asks once before a charge (issue 28): the action and the price the engine quoted for exactly it
 * (`question`, its money in the app's format), then Confirm — the form posts `intent` with `fields`
 * and the price shown (`amount_minor`, `currency`: empty for no charge), which the API holds the
 * charge to (409 billing.quote_changed when its quote is now otherwise) — or Cancel, a link back to
 * the page as it was, with nothing charged. A form and a link: it works without JavaScript.
 */
export function ChargeConfirmation({
  question,
  note,
  confirmLabel,
  cancelLabel,
  intent,
  fields,
  price,
  busy,
  testId,
  details,
}: {
  question: string
  note: string
  confirmLabel: string
  cancelLabel: string
  intent: string
  fields: Record<string, string | number>
  price: ShownPrice
  busy: boolean
  /** `confirm-{testId}` on the box, `{testId}-confirm` and `{testId}-cancel` on its two choices. */
  testId: string
  /** What the price is made of (a bulk action's price per domain), under the question. */
  details?: ReactNode
}) {
  const location = useLocation()
  return (
    <div
      className="w-full rounded-md border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950"
      role="group"
      aria-labelledby={`charge-question-${testId}`}
      data-testid={`confirm-${testId}`}
    >
      <p id={`charge-question-${testId}`} className="font-medium" data-testid="charge-question">
        {question}
      </p>
      {details}
      <p className="text-xs text-slate-600 dark:text-slate-400">{note}</p>
      <Form method="post" className="mt-2 flex gap-2">
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="amount_minor" value={price?.amount_minor ?? ''} />
        <input type="hidden" name="currency" value={price?.currency ?? ''} />
        <Button type="submit" disabled={busy} data-testid={`${testId}-confirm`}>
          {confirmLabel}
        </Button>
        <Button asChild variant="outline">
          <Link to={location.pathname + location.search} replace data-testid={`${testId}-cancel`}>
            {cancelLabel}
          </Link>
        </Button>
      </Form>
    </div>
  )
}

/** The price a confirmation posted back (`amount_minor`, `currency`; empty: no charge), as the API's `expected`, or undefined when the form holds none. */
export function shownPriceOf(form: FormData): ShownPrice | undefined {
  const amount = form.get('amount_minor')
  const currency = String(form.get('currency') ?? '')
  if (typeof amount !== 'string') return undefined
  if (amount === '') return null
  if (!/^\d{1,15}$/.test(amount) || !/^[A-Z]{3}$/.test(currency)) return undefined
  return { amount_minor: Number(amount), currency }
}
