import type { PlatformDeps } from '#server/platform/deps.ts'
import { runReportMail } from './subscriptions.ts'

export const REPORTS_JOBS = { mail: 'reports.mail' } as const

/** The reports area's job (decision 026): the scheduled report mails, hourly (each period once per subscription). */
export function registerReportsJobs(deps: PlatformDeps) {
  deps.jobs.register<object>(REPORTS_JOBS.mail, async () => void (await runReportMail(deps, deps.now())))
  deps.jobs.schedule(REPORTS_JOBS.mail, '41 * * * *')
}
