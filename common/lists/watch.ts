import { CASE_ACTIONS, CASE_STATES, RESOLUTIONS, RISKS, TRIAGES } from '../watch.ts'
import { listCatalogue } from '../list-catalogue.ts'

/** An account's watches (/watch, issue 31): each with its open cases and its last run. */
export const WATCHES_LIST = listCatalogue({
  name: 'watches',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    'brand.label': { type: 'text', filterable: true, sortable: true },
    sources: { type: 'tags', filterable: true },
    interval_hours: { type: 'integer', filterable: true, sortable: true },
    detections: { type: 'integer', sortable: true },
    critical: { type: 'integer', sortable: true },
    open_cases: { type: 'integer', filterable: true, sortable: true },
    last_run_at: { type: 'timestamp', filterable: true, sortable: true },
    next_run_at: { type: 'timestamp', filterable: true, sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

/** A watch's detections: registered lookalikes, rated with their reasons and clustered. */
export const WATCH_DETECTIONS_LIST = listCatalogue({
  name: 'watch-detections',
  defaultSort: '-points,name',
  fields: {
    id: { type: 'uuid', filterable: true },
    watch_id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    unicode_name: { type: 'text', filterable: true, sortable: true },
    tld: { type: 'text', filterable: true, sortable: true },
    fuzzers: { type: 'tags', filterable: true },
    similarity: { type: 'integer', filterable: true, sortable: true },
    points: { type: 'integer', filterable: true, sortable: true },
    risk: { type: 'enum', filterable: true, sortable: true, choices: RISKS },
    mail_ready: { type: 'boolean', filterable: true, sortable: true },
    web_ready: { type: 'boolean', filterable: true, sortable: true },
    registrar: { type: 'text', filterable: true, sortable: true },
    cluster: { type: 'text', filterable: true, sortable: true },
    cluster_size: { type: 'integer', filterable: true, sortable: true },
    case_id: { type: 'uuid', filterable: true },
    first_seen_at: { type: 'timestamp', filterable: true, sortable: true },
    changed_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

/** Cases: one detection (or its cluster) from triage to the end. */
export const WATCH_CASES_LIST = listCatalogue({
  name: 'watch-cases',
  defaultSort: '-opened_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    watch_id: { type: 'uuid', filterable: true },
    'watch.name': { type: 'text', filterable: true, sortable: true },
    name: { type: 'text', filterable: true, sortable: true },
    names: { type: 'tags', filterable: true },
    tld: { type: 'text', filterable: true, sortable: true },
    risk: { type: 'enum', filterable: true, sortable: true, choices: RISKS },
    state: { type: 'enum', filterable: true, sortable: true, choices: CASE_STATES },
    triage: { type: 'enum', filterable: true, sortable: true, choices: TRIAGES },
    action: { type: 'enum', filterable: true, sortable: true, choices: CASE_ACTIONS },
    resolution: { type: 'enum', filterable: true, sortable: true, choices: RESOLUTIONS },
    notice_to: { type: 'text', filterable: true },
    notice_sent_at: { type: 'timestamp', filterable: true, sortable: true },
    opened_at: { type: 'timestamp', filterable: true, sortable: true },
    resolved_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

/** Templates a new watch starts from: staff's and the account's. */
export const WATCH_TEMPLATES_LIST = listCatalogue({
  name: 'watch-templates',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    shared: { type: 'boolean', filterable: true, sortable: true },
    sources: { type: 'tags', filterable: true },
    interval_hours: { type: 'integer', filterable: true, sortable: true },
    min_similarity: { type: 'integer', filterable: true, sortable: true },
    threshold_high: { type: 'integer', sortable: true },
    threshold_critical: { type: 'integer', sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})
