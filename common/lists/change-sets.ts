import { listCatalogue } from '../list-catalogue.ts'
import { CHANGE_SET_STATES, CHANGE_SET_TARGETS, OBJECT_OUTCOMES, OBJECT_PREVIEWS } from '../change-sets.ts'

/** Field catalogues of the change sets (/change-sets) and of one set's objects (its preview and outcomes). */

export const CHANGE_SETS_LIST = listCatalogue({
  name: 'change-sets',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    target: { type: 'enum', filterable: true, sortable: true, choices: CHANGE_SET_TARGETS },
    filter: { type: 'text' },
    kind: { type: 'text', filterable: true },
    state: { type: 'enum', filterable: true, sortable: true, choices: CHANGE_SET_STATES },
    objects: { type: 'integer', sortable: true },
    created_by_label: { type: 'text', filterable: true, sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    finished_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const CHANGE_SET_OBJECTS_LIST = listCatalogue({
  name: 'change-set-objects',
  defaultSort: 'position',
  fields: {
    position: { type: 'integer', sortable: true },
    subject_id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    preview: { type: 'enum', filterable: true, sortable: true, choices: OBJECT_PREVIEWS },
    added: { type: 'integer', filterable: true, sortable: true },
    removed: { type: 'integer', filterable: true, sortable: true },
    diff: { type: 'text', filterable: true },
    stage: { type: 'integer', filterable: true, sortable: true },
    outcome: { type: 'enum', filterable: true, sortable: true, choices: OBJECT_OUTCOMES },
    error: { type: 'text', filterable: true },
    finished_at: { type: 'timestamp', sortable: true },
  },
})

export const CHANGE_SET_POLICIES_LIST = listCatalogue({
  name: 'change-set-policies',
  defaultSort: 'name',
  fields: {
    id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    target: { type: 'enum', filterable: true, sortable: true, choices: CHANGE_SET_TARGETS },
    filter: { type: 'text' },
    kind: { type: 'text', filterable: true },
    objects: { type: 'integer', sortable: true },
    drifting: { type: 'integer', filterable: true, sortable: true },
    evaluated_at: { type: 'timestamp', sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})

export const POLICY_DRIFT_STATES = ['drifting', 'conflict'] as const

export const CHANGE_SET_POLICY_DRIFT_LIST = listCatalogue({
  name: 'change-set-policy-drift',
  defaultSort: 'name',
  fields: {
    subject_id: { type: 'uuid', filterable: true },
    name: { type: 'text', filterable: true, sortable: true },
    state: { type: 'enum', filterable: true, sortable: true, choices: POLICY_DRIFT_STATES },
    diff: { type: 'text', filterable: true },
    since: { type: 'timestamp', filterable: true, sortable: true },
    checked_at: { type: 'timestamp', sortable: true },
  },
})
