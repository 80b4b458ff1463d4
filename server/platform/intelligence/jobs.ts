import type { PlatformDeps } from '#server/platform/deps.ts'
import { executeRun } from './gap.ts'
import { INTELLIGENCE_JOBS, sweepSchedules } from './service.ts'

/** Intelligence's jobs (decision 026): a run of an item, and the hourly sweep that queues the items on a schedule. */
export function registerIntelligenceJobs(deps: PlatformDeps) {
  deps.jobs.register<{ runId: string }>(INTELLIGENCE_JOBS.run, (data) => executeRun(deps, data.runId))
  deps.jobs.register(INTELLIGENCE_JOBS.sweep, async () => void (await sweepSchedules(deps)))
  deps.jobs.schedule(INTELLIGENCE_JOBS.sweep, '41 * * * *')
}
