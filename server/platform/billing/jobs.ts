import { formatMoney } from '#common/money.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { INVOICE_JOBS, runInvoices } from './invoices.ts'

export const BILLING_JOBS = { ...INVOICE_JOBS, lowBalance: 'billing.low-balance' } as const

/** The billing area's background work: the monthly invoice run (started by staff) and the low-balance warnings. */
export function registerBillingJobs(deps: PlatformDeps) {
  deps.jobs.register<{ period: string }>(BILLING_JOBS.run, async (data) => {
    await runInvoices(deps, data.period)
  })
  deps.jobs.register<object>(BILLING_JOBS.lowBalance, async () => void (await runLowBalanceWarnings(deps)))
  deps.jobs.schedule?.(BILLING_JOBS.lowBalance, '*/5 * * * *')
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
    const entity = await deps.db.selectFrom('billing_entities').select(['name', 'billing_email']).where('id', '=', row.billing_entity_id).executeTakeFirstOrThrow()
    const currency = row.currency.trim()
    const money = (minor: unknown) => formatMoney(Number(minor), currency, 'en')
    try {
      await deps.mailer.send({
        to: entity.billing_email,
        subject: `Low balance: ${entity.name} (${currency})`,
        text: `The ${currency} balance of ${entity.name} is ${money(row.balance_minor)}, below ${money(row.low_balance_minor)}. Available for orders: ${money(Number(row.balance_minor) + Number(row.credit_limit_minor))}.\nA payment keeps orders from being refused.`,
      })
    } catch (error) {
      deps.logger.error('low-balance mail failed', { entity: row.billing_entity_id, currency, error })
    }
  }
  return due.length
}
