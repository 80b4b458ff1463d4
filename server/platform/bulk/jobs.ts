import type { PlatformDeps } from '#server/platform/deps.ts'
import { BULK_JOB, runBulkJob } from './service.ts'

/** The bulk actions' job: one job per bulk action, its items run and recorded one by one (decision 102). */
export function registerBulkJobs(deps: PlatformDeps) {
  deps.jobs.register<{ jobId: string }>(BULK_JOB, (data) => runBulkJob(deps, data.jobId))
}
