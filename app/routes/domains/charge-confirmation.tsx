import { ChargeConfirmation as Confirmation } from '#app/components/charge-confirmation.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { formatMoney } from '#common/money.ts'
import type { Answer } from '#app/lib/platform-api.ts'

/** The engine's quote of a renewal or a restore (GET …/renew/quote, …/restore/quote): what the confirmation shows and posts back. */
export type ChargeQuote = Answer<'/groups/{context}/domains/{id}/renew/quote'>

/** A domain's renewal or restore asked once, at the engine's price (the shared ChargeConfirmation, issue 28). */
export function ChargeConfirmation({ quote, busy }: { quote: ChargeQuote; busy: boolean }) {
  const { t, i18n } = useTranslation('domains')
  const price = quote.price ? formatMoney(quote.price.amount_minor, quote.price.currency, i18n.language) : t('detail.noCharge')
  return (
    <Confirmation
      question={quote.action === 'renew' ? t('detail.renewConfirm', { name: quote.name, count: quote.period, price }) : t('detail.restoreConfirm', { name: quote.name, price })}
      note={t('detail.chargeNote')}
      confirmLabel={t('detail.confirmCharge')}
      cancelLabel={t('detail.cancelCharge')}
      intent={`${quote.action}-confirmed`}
      fields={{ id: quote.domain_id, period: quote.period }}
      price={quote.price}
      busy={busy}
      testId={quote.action}
    />
  )
}
