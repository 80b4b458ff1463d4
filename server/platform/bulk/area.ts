import { approvalsRouter } from '#server/platform/approvals/http.ts'
import { createRouter } from '#server/platform/core/http.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { materialRouter } from '#server/platform/material-changes/http.ts'
import { registerMaterialJobs } from '#server/platform/material-changes/service.ts'
import { trayRouter } from '#server/platform/tray/http.ts'
import { bulkRouter } from './http.ts'
import { registerBulkJobs } from './service.ts'

/** The tray, bulk actions, material change requests and public approvals: their routes and jobs. */
export const trayArea = {
  routes: createRouter().route('/', trayRouter).route('/', bulkRouter).route('/', materialRouter).route('/', approvalsRouter),
  jobs(deps: PlatformDeps) {
    registerBulkJobs(deps)
    registerMaterialJobs(deps)
  },
}
