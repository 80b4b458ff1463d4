import { pruneRateLimits } from '#server/platform/core/rate-limit.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'

const PRUNE_JOB = 'api-tokens.prune-rate-limits'

/** The API tokens' jobs: their per-minute counters are dropped once a day old (hourly), so the table stays small. */
export function registerApiTokenJobs(deps: PlatformDeps): void {
  deps.jobs.register(PRUNE_JOB, async () => {
    const pruned = await pruneRateLimits(deps.db, new Date(deps.now().getTime() - 24 * 3600_000))
    if (pruned) deps.logger.info('rate-limit windows pruned', { pruned })
  })
  deps.jobs.schedule(PRUNE_JOB, '17 * * * *')
}
