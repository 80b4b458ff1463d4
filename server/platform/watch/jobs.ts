import { systemScope } from '#server/platform/core/scope.ts'
import type { PlatformDeps } from '#server/platform/deps.ts'
import { captureAll, fingerprintOf } from './capture.ts'
import { pacedByServer } from './pacing.ts'
import { rdapOf, type WithRdap } from './rdap.ts'
import { openCaseNames, runDueWatches, runWatch, sendReminders, WATCH_JOBS } from './service.ts'
import { change } from '#server/platform/core/change.ts'
import { sha256 } from './capture.ts'

/** One RDAP server is asked at most once a second by the re-check (configurable per deployment later). */
export const RDAP_INTERVAL_MS = 1000

/**
 * Re-checks the open cases' names (issue 31): each name's evidence captured again, RDAP servers
 * asked one name at a time each at most every `intervalMs` (servers in parallel), new evidence
 * stored only when what is captured changed. Names with no RDAP server are paced per TLD.
 */
export async function recheckOpenCases(deps: Pick<PlatformDeps, 'db' | 'now' | 'outbound'> & WithRdap, intervalMs = RDAP_INTERVAL_MS, wait?: (ms: number) => Promise<void>) {
  const rows = await openCaseNames(deps.db)
  const unique = [...new Map(rows.map((r) => [r.detection_id, r])).values()]
  const rdap = rdapOf(deps)
  const serverOf = (r: (typeof unique)[number]) => rdap?.serverOf(r.name) ?? `tld:${r.name.slice(r.name.indexOf('.') + 1)}`
  let changed = 0
  await pacedByServer(
    unique,
    serverOf,
    intervalMs,
    async (r) => {
      const capture = await captureAll(deps, r.name, { web: true })
      const fingerprint = fingerprintOf(capture)
      if (fingerprint === r.fingerprint) return
      changed++
      const now = deps.now()
      await change(deps.db, systemScope('watch', r.account_id), async (tx, audit) => {
        const rows: { kind: 'dns' | 'rdap' | 'web'; data: object }[] = [{ kind: 'dns', data: capture.dns }]
        if (capture.rdap) rows.push({ kind: 'rdap', data: capture.rdap })
        if (capture.web) rows.push({ kind: 'web', data: capture.web })
        await tx
          .insertInto('watch_evidence')
          .values(rows.map((x) => ({ detection_id: r.detection_id, account_id: r.account_id, kind: x.kind, captured_at: now, data: JSON.stringify(x.data), sha256: sha256(JSON.stringify(x.data)) })))
          .execute()
        await tx
          .updateTable('watch_detections')
          .set({ fingerprint, changed_at: now, last_seen_at: now, mail_ready: capture.dns.mx.length > 0 })
          .where('id', '=', r.detection_id)
          .execute()
        await audit.record({ area: 'watch', entityType: 'watch', entityId: r.watch_id, action: 'recheck', after: { name: r.name } })
      })
    },
    wait,
  )
  return { names: unique.length, changed }
}

/** Watch's jobs (decision 026): a watch run on demand, the due watches every quarter hour, the open cases re-checked hourly, the reminders hourly. */
export function registerWatchJobs(deps: PlatformDeps) {
  deps.jobs.register<{ watchId: string; accountId: string }>(WATCH_JOBS.run, async (data) => void (await runWatch(deps, systemScope('watch', data.accountId), data.watchId)))
  deps.jobs.register<object>(WATCH_JOBS.due, async () => void (await runDueWatches(deps, (accountId) => systemScope('watch', accountId))))
  deps.jobs.register<object>(WATCH_JOBS.recheck, async () => void (await recheckOpenCases(deps)))
  deps.jobs.register<object>(WATCH_JOBS.reminders, async () => void (await sendReminders(deps)))
  deps.jobs.schedule(WATCH_JOBS.due, '*/15 * * * *')
  deps.jobs.schedule(WATCH_JOBS.recheck, '7 * * * *')
  deps.jobs.schedule(WATCH_JOBS.reminders, '37 * * * *')
}
