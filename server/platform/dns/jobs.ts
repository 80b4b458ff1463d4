import type { PlatformDeps } from '#server/platform/deps.ts'
import { BULK_REPLACE_JOB, runReplaceJob } from './bulk-replace.ts'
import { publishZone, removeDs, signZone, sweepDrift, unpublishZone, unsignZone } from './publish.ts'
import { collectStatistics, STATISTICS_JOB } from './statistics.ts'
import { refreshZonePostures } from './postures.ts'
import { DNS_JOBS, powerDnsSettings } from './zones.ts'

/** The DNS area's jobs: publication and DNSSEC steps of a zone, the bulk replace, and (with PowerDNS) the drift sweep and the statistics. */
export function registerDnsJobs(deps: PlatformDeps) {
  deps.jobs.register<{ zoneId: string }>(DNS_JOBS.publish, (data) => publishZone(deps, data.zoneId))
  deps.jobs.register<{ zoneId: string }>(DNS_JOBS.sign, (data) => signZone(deps, data.zoneId))
  deps.jobs.register<{ zoneId: string }>(DNS_JOBS.removeDs, (data) => removeDs(deps, data.zoneId))
  deps.jobs.register<{ zoneId: string }>(DNS_JOBS.unsign, (data) => unsignZone(deps, data.zoneId))
  deps.jobs.register<{ name: string }>(DNS_JOBS.unpublish, (data) => unpublishZone(deps, data.name))
  deps.jobs.register(DNS_JOBS.driftSweep, async () => void (await sweepDrift(deps)))
  deps.jobs.register(STATISTICS_JOB, async () => void (await collectStatistics(deps)))
  deps.jobs.register<{ jobId: string }>(BULK_REPLACE_JOB, (data) => runReplaceJob(deps, data.jobId))
  // The DNS report's posture rollup (dns/postures.ts), every 10 minutes: the zones changed since.
  deps.jobs.register(DNS_JOBS.postureRollup, async () => void (await refreshZonePostures(deps.db)))
  deps.jobs.schedule(DNS_JOBS.postureRollup, '*/10 * * * *')
  // Only where PowerDNS is configured: without it there is nothing to count or compare.
  if (powerDnsSettings(deps)) {
    // Statistics every minute; drift every 10 minutes, DRIFT_SWEEP_ZONES zones at a time.
    deps.jobs.schedule(STATISTICS_JOB, '* * * * *')
    deps.jobs.schedule(DNS_JOBS.driftSweep, '*/10 * * * *')
  }
}
