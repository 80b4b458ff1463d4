import { listCatalogue } from '../list-catalogue.ts'

/**
 * The failed background jobs (staff: /reports/operations/failed-jobs, decision 016): the jobs that
 * spent their retries, from pg-boss's tables (the live queue and its archive). Their data shows as
 * its keys and the ids it carries (`key=uuid` of an `id`, `…_id` or `…Id` key), never its other values —
 * a job may carry a token or an address; the error is pg-boss's `output.message`, clamped.
 */
export const FAILED_JOBS_LIST = listCatalogue({
  name: 'failed-jobs',
  defaultSort: '-failed_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    queue: { type: 'text', filterable: true, sortable: true },
    failed_at: { type: 'timestamp', filterable: true, sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    retries: { type: 'integer', filterable: true, sortable: true },
    error: { type: 'text', filterable: true },
    data_keys: { type: 'tags', filterable: true },
    data_ids: { type: 'tags', filterable: true },
    archived: { type: 'boolean', filterable: true, sortable: true },
  },
})

/** The longest error message the list answers (the rest is in the server's log). */
export const JOB_ERROR_MAX = 500
