import { formatMoney } from '#common/money.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { mailTexts } from '#server/lib/mail-texts.ts'
import { INVOICE_JOBS, mailIssuedInvoices, runInvoices } from './invoices.ts'

export const BILLING_JOBS = { ...INVOICE_JOBS, lowBalance: 'billing.low-balance' } as const

/** The billing area's background work: the monthly invoice run (started by staff), the mail of the documents it issued, and the low-balance warnings. */
export function registerBillingJobs(deps: PlatformDeps) {
  deps.jobs.register<{ period: string }>(BILLING_JOBS.run, async (data) => {
    await runInvoices(deps, data.period)
  })
  deps.jobs.register<object>(BILLING_JOBS.mail, async () => void (await mailIssuedInvoices(deps)))
  deps.jobs.schedule(BILLING_JOBS.mail, '*/5 * * * *')
  deps.jobs.register<object>(BILLING_JOBS.lowBalance, async () => void (await runLowBalanceWarnings(deps)))
  deps.jobs.schedule(BILLING_JOBS.lowBalance, '*/5 * * * *')
}

/**
 * Mails the billing address of each entity whose balance in a currency fell below the threshold
 * staff set, once: the warning is marked before it is mailed, and the mark is cleared when a
 * payment brings the balance back over the threshold or staff change it.
 */
export async function runLowBalanceWarnings(deps: Pick<PlatformDeps, 'db' | 'mailer' | 'logger' | 'now'>): Promise<number> {
  const due = await deps.db
    .updateTable('billing_balances')
    .set({ low_balance_warned_at: deps.now() })
    .where('low_balance_minor', 'is not', null)
    .where('low_balance_warned_at', 'is', null)
    .whereRef('balance_minor', '<', 'low_balance_minor')
    .returning(['billing_entity_id', 'currency', 'balance_minor', 'low_balance_minor', 'credit_limit_minor'])
    .execute()
  for (const row of due) {
    const entity = await deps.db.selectFrom('billing_entities').select(['name', 'billing_email', 'invoice_language']).where('id', '=', row.billing_entity_id).executeTakeFirstOrThrow()
    const currency = row.currency.trim()
    // In the entity's language, the one its invoices are written in.
    const money = (minor: unknown) => formatMoney(Number(minor), currency, entity.invoice_language)
    const t = mailTexts(entity.invoice_language)
    const values = {
      entity: entity.name,
      currency,
      balance: money(row.balance_minor),
      threshold: money(row.low_balance_minor),
      available: money(Number(row.balance_minor) + Number(row.credit_limit_minor)),
    }
    try {
      await deps.mailer.send({ to: entity.billing_email, subject: t('lowBalance.subject', values), text: t('lowBalance.body', values) })
    } catch (error) {
      deps.logger.error('low-balance mail failed', { entity: row.billing_entity_id, currency, error })
    }
  }
  return due.length
}
