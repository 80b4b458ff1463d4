import { WATCH_CASES_LIST, WATCH_DETECTIONS_LIST, WATCH_TEMPLATES_LIST, WATCHES_LIST } from '#common/lists/watch.ts'
import { auditList, columnsOf, type ListDefinition } from '#app/lib/lists.ts'

const groupPath = (path: string) => (groupContext: string) => `/groups/${encodeURIComponent(groupContext)}/${path}`

/** /watch: the account's watches (issue 31). */
export const watchesList: ListDefinition = {
  id: 'watches',
  apiPath: groupPath('watches'),
  columns: columnsOf(WATCHES_LIST, {
    name: true,
    'brand.label': true,
    sources: false,
    interval_hours: false,
    detections: true,
    critical: true,
    open_cases: true,
    last_run_at: true,
    next_run_at: false,
    created_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.id),
}

/** A watch's detections (its overview tab). */
export const watchDetectionsList: ListDefinition = {
  id: 'watch-detections',
  apiPath: groupPath('watch-detections'),
  columns: columnsOf(WATCH_DETECTIONS_LIST, {
    unicode_name: true,
    name: false,
    tld: false,
    fuzzers: false,
    similarity: false,
    points: true,
    risk: true,
    mail_ready: true,
    web_ready: true,
    registrar: true,
    cluster: true,
    cluster_size: false,
    case_id: true,
    first_seen_at: false,
    changed_at: true,
  }),
  fixedFilters: [],
  defaultSort: '-points,name',
  trayType: null,
  rowLabel: (row) => String(row.unicode_name ?? row.name ?? row.id),
}

/** Cases: of a watch (its cases tab), or the account's open ones (/watch). */
export const watchCasesList: ListDefinition = {
  id: 'watch-cases',
  apiPath: groupPath('watch-cases'),
  columns: columnsOf(WATCH_CASES_LIST, {
    name: true,
    'watch.name': true,
    names: false,
    tld: false,
    risk: true,
    state: true,
    triage: false,
    action: true,
    resolution: false,
    notice_to: false,
    notice_sent_at: false,
    opened_at: true,
    resolved_at: false,
  }),
  fixedFilters: [],
  defaultSort: '-opened_at',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.id),
}

/** The open cases, as a list query. */
export const OPEN_CASES_PQL = "state equals 'new,triaged,action'"

/** /watch/templates. */
export const watchTemplatesList: ListDefinition = {
  id: 'watch-templates',
  apiPath: groupPath('watch-templates'),
  columns: columnsOf(WATCH_TEMPLATES_LIST, {
    name: true,
    shared: true,
    sources: true,
    interval_hours: true,
    min_similarity: true,
    threshold_high: true,
    threshold_critical: true,
    created_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.id),
}

/** /watch/log and /watch/{id}/log: the audit trail's watch entries. */
export const watchLogList = auditList('watch-log', 'watch')
