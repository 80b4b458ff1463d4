import type { PlatformDeps } from '#server/platform/deps.ts'
import { PRICING_JOBS, runPriceRiseNotices } from './notices.ts'

/** The pricing area's jobs: the price-rise notices, hourly. */
export function registerPricingJobs(deps: PlatformDeps) {
  deps.jobs.register<object>(PRICING_JOBS.priceRise, async () => void (await runPriceRiseNotices(deps)))
  deps.jobs.schedule(PRICING_JOBS.priceRise, '23 * * * *')
}
