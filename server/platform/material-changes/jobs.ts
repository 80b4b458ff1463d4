import type { PlatformDeps } from '#server/platform/deps.ts'
import { expireRequests, MATERIAL_JOBS, notifyApprovers, unnotifiedRequests } from './service.ts'

/** The material change requests' jobs: the approvers' mail, and every 10 minutes the expiry and any request not yet mailed. */
export function registerMaterialJobs(deps: PlatformDeps) {
  deps.jobs.register<{ requestId: string }>(MATERIAL_JOBS.notify, (data) => notifyApprovers(deps, data.requestId))
  deps.jobs.register(MATERIAL_JOBS.sweep, async () => {
    await expireRequests(deps.db, deps.now())
    for (const id of await unnotifiedRequests(deps.db)) await notifyApprovers(deps, id)
  })
  deps.jobs.schedule(MATERIAL_JOBS.sweep, '*/10 * * * *')
}
