import { Form, Link, useLocation } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { formatMoney } from '#common/money.ts'

/** The engine's quote of a renewal or a restore (GET …/renew/quote, …/restore/quote): what the confirmation shows and posts back. */
export type ChargeQuote = { action: 'renew' | 'restore'; domain_id: string; name: string; period: number; price: { amount_minor: number; currency: string } | null }

/**
 * Asks once before a domain's charge (issue 28): the action and the price the engine quoted for
 * it, in the account's currency; Confirm posts that price back (the API refuses the charge when it
 * is no longer the quote), Cancel leaves the page as it was with nothing charged. A form and a
 * link: it works without JavaScript.
 */
export function ChargeConfirmation({ quote, busy }: { quote: ChargeQuote; busy: boolean }) {
  const { t, i18n } = useTranslation('domains')
  const location = useLocation()
  const price = quote.price ? formatMoney(quote.price.amount_minor, quote.price.currency, i18n.language) : t('detail.noCharge')
  return (
    <div
      className="w-full rounded-md border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950"
      role="group"
      aria-labelledby={`charge-question-${quote.domain_id}`}
      data-testid={`confirm-${quote.action}`}
    >
      <p id={`charge-question-${quote.domain_id}`} className="font-medium" data-testid="charge-question">
        {quote.action === 'renew' ? t('detail.renewConfirm', { name: quote.name, count: quote.period, price }) : t('detail.restoreConfirm', { name: quote.name, price })}
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400">{t('detail.chargeNote')}</p>
      <Form method="post" className="mt-2 flex gap-2">
        <input type="hidden" name="intent" value={`${quote.action}-confirmed`} />
        <input type="hidden" name="id" value={quote.domain_id} />
        <input type="hidden" name="period" value={quote.period} />
        <input type="hidden" name="amount_minor" value={quote.price?.amount_minor ?? ''} />
        <input type="hidden" name="currency" value={quote.price?.currency ?? ''} />
        <Button type="submit" disabled={busy} data-testid={`${quote.action}-confirm`}>
          {t('detail.confirmCharge')}
        </Button>
        <Button asChild variant="outline">
          <Link to={location.pathname + location.search} replace data-testid={`${quote.action}-cancel`}>
            {t('detail.cancelCharge')}
          </Link>
        </Button>
      </Form>
    </div>
  )
}
