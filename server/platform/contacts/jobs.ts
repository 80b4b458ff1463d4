import type { PlatformDeps } from '#server/platform/deps.ts'
import { CONTACT_SYNC_JOB, syncContactHandles } from './registry-sync.ts'

/** The contacts' jobs: edited contacts go to the registries that hold a copy, every two minutes. */
export function registerContactJobs(deps: PlatformDeps) {
  deps.jobs.register<object>(CONTACT_SYNC_JOB, async () => void (await syncContactHandles(deps)))
  deps.jobs.schedule(CONTACT_SYNC_JOB, '*/2 * * * *')
}
