import type { PlatformDeps } from '#server/platform/deps.ts'
import { INVOICE_JOBS, runInvoices } from './invoices.ts'

/** The billing area's background work: the monthly invoice run (started by staff; idempotent, so a retry resumes it). */
export function registerBillingJobs(deps: PlatformDeps) {
  deps.jobs.register<{ period: string }>(INVOICE_JOBS.run, async (data) => {
    await runInvoices(deps, data.period)
  })
}
