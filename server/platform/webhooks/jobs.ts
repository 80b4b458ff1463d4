import type { PlatformDeps } from '#server/platform/deps.ts'
import { DELIVER_JOB, dispatchPending, SWEEP_JOB } from './delivery.ts'

/** The webhooks' jobs: the delivery job and the minute's sweep of the outbox (what no process heard at commit). */
export function registerWebhookJobs(deps: PlatformDeps): void {
  // Deliveries are sent by the worker's sender (delivery.ts); a job queued for one before 0890 is done by it too.
  deps.jobs.register(DELIVER_JOB, async () => {})
  deps.jobs.register(SWEEP_JOB, async () => void (await dispatchPending(deps)))
  deps.jobs.schedule(SWEEP_JOB, '* * * * *')
}
