import type { PlatformDeps } from '#server/platform/deps.ts'
import { runCtMonitor, runZoneFeeds } from './feeds.ts'

export const BRAND_JOBS = { ctMonitor: 'brand.ct-monitor', zoneFeeds: 'brand.zone-feeds' } as const

/**
 * Brand protection's feeds (issue 30): the CT monitor hourly (each log from where it left off),
 * the zone feed daily after CZDS publishes the day's files (each TLD's newest file against the last).
 * Neither does anything where no log or folder is configured.
 */
export function registerBrandJobs(deps: PlatformDeps) {
  deps.jobs.register(BRAND_JOBS.ctMonitor, async () => {
    await runCtMonitor(deps)
  })
  deps.jobs.register(BRAND_JOBS.zoneFeeds, async () => {
    await runZoneFeeds(deps)
  })
  deps.jobs.schedule(BRAND_JOBS.ctMonitor, '7 * * * *')
  deps.jobs.schedule(BRAND_JOBS.zoneFeeds, '40 4 * * *')
}
