import type { PlatformDeps } from '#server/platform/deps.ts'
import { APPROVAL_JOBS, notifySetApprovers } from './approvals.ts'
import { evaluatePolicy, POLICY_JOBS, sweepPolicies } from './policies.ts'
import { CHANGE_SET_JOBS, runCheck, runRollback, runStage } from './rollout.ts'

/** The change sets' jobs (decision 030): a stage's objects, the health check after it, a failing stage's rollback; each policy's evaluation, and the hourly sweep that queues them. */
export function registerChangeSetJobs(deps: PlatformDeps) {
  deps.jobs.register<{ jobId: string }>(CHANGE_SET_JOBS.stage, (data) => runStage(deps, data.jobId))
  deps.jobs.register<{ setId: string; stage: number }>(CHANGE_SET_JOBS.check, (data) => runCheck(deps, data.setId, data.stage))
  deps.jobs.register<{ jobId: string }>(CHANGE_SET_JOBS.rollback, (data) => runRollback(deps, data.jobId))
  deps.jobs.register<{ setId: string }>(APPROVAL_JOBS.notify, (data) => notifySetApprovers(deps, data.setId))
  deps.jobs.register<{ policyId: string }>(POLICY_JOBS.evaluate, async (data) => void (await evaluatePolicy(deps, data.policyId)))
  deps.jobs.register(POLICY_JOBS.sweep, async () => void (await sweepPolicies(deps)))
  deps.jobs.schedule(POLICY_JOBS.sweep, '17 * * * *')
}
