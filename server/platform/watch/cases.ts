import type { CaseAction, CaseState, Resolution, Triage } from '#common/watch.ts'

/**
 * A case's state machine (issue 31): new → triaged (false positive, low, high) → action
 * (monitoring, notice sent, takedown requested, UDRP, URS, acquisition, block; one after another)
 * → resolved (taken down, transferred, suspended, expired, dismissed). A triaged false positive
 * may be resolved (dismissed) without an action; a resolved case is final. Pure: the service
 * stores each step with its time and actor.
 */
export type Step = { to: 'triaged'; triage: Triage } | { to: 'action'; action: CaseAction } | { to: 'resolved'; resolution: Resolution }

export type CaseNow = { state: CaseState; triage: Triage | null }

/** Null when the step may be taken; else the refusal's code. */
export function refusalOfStep(current: CaseNow, step: Step): string | null {
  if (current.state === 'resolved') return 'watch.case-resolved'
  if (step.to === 'triaged') return current.state === 'new' || current.state === 'triaged' ? null : 'watch.step-order'
  if (step.to === 'action') {
    if (current.state === 'new') return 'watch.triage-first'
    if (current.triage === 'false-positive') return 'watch.false-positive'
    return null
  }
  return current.state === 'new' && step.resolution !== 'dismissed' ? 'watch.triage-first' : null
}
