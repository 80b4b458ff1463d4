import { ChargeConfirmation as Confirmation } from '#app/components/charge-confirmation.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { formatMoney } from '#common/money.ts'
import type { Answer } from '#app/lib/platform-api.ts'

/** The engine's quote of a renewal, a restore or the registry lock's fee (GET …/renew/quote, …/restore/quote, …/registry-lock/quote): what the confirmation shows and posts back. */
export type ChargeQuote = Answer<'/groups/{context}/domains/{id}/renew/quote'>

/**
 * A domain's renewal, restore or registry lock asked once, at the engine's price (the shared
 * ChargeConfirmation, issue 28). The lock, a change of the domain, posts the version read (`version`).
 */
export function ChargeConfirmation({ quote, busy, version }: { quote: ChargeQuote; busy: boolean; version?: number }) {
  const { t, i18n } = useTranslation('domains')
  const price = quote.price ? formatMoney(quote.price.amount_minor, quote.price.currency, i18n.language) : t('detail.noCharge')
  const question =
    quote.action === 'renew'
      ? t('detail.renewConfirm', { name: quote.name, count: quote.period, price })
      : quote.action === 'restore'
        ? t('detail.restoreConfirm', { name: quote.name, price })
        : t('detail.lockConfirm', { name: quote.name, price })
  return (
    <Confirmation
      question={question}
      note={t('detail.chargeNote')}
      confirmLabel={t('detail.confirmCharge')}
      cancelLabel={t('detail.cancelCharge')}
      intent={`${quote.action}-confirmed`}
      fields={{ id: quote.domain_id, period: quote.period, ...(version !== undefined ? { version } : {}) }}
      price={quote.price}
      busy={busy}
      testId={quote.action}
    />
  )
}
