import { CHANGE_SET_OBJECTS_LIST, CHANGE_SET_POLICIES_LIST, CHANGE_SET_POLICY_DRIFT_LIST, CHANGE_SETS_LIST } from '#common/lists/change-sets.ts'
import { columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /change-sets (decision 030). */
export const changeSetsList: ListDefinition = {
  id: 'change-sets',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/change-sets`,
  columns: columnsOf(CHANGE_SETS_LIST, { name: true, kind: true, target: false, filter: true, state: true, objects: true, created_by_label: true, created_at: true, finished_at: false }),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.id),
}

/** /change-sets/{id}: the set's objects, their diff and outcome; the route sets apiPath to the set's. */
export const changeSetObjectsList: ListDefinition = {
  id: 'change-set-objects',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/change-sets`,
  columns: columnsOf(CHANGE_SET_OBJECTS_LIST, {
    name: true,
    preview: true,
    diff: true,
    added: false,
    removed: false,
    stage: true,
    outcome: true,
    error: true,
    finished_at: false,
    position: false,
    subject_id: false,
  }),
  fixedFilters: [],
  defaultSort: 'position',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.position),
}

/** /change-sets/policies. */
export const changeSetPoliciesList: ListDefinition = {
  id: 'change-set-policies',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/change-set-policies`,
  columns: columnsOf(CHANGE_SET_POLICIES_LIST, { name: true, kind: true, target: false, filter: true, objects: true, drifting: true, evaluated_at: true, created_at: false, id: false }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.id),
}

/** /change-sets/policies/{id}: its drifting objects; the route sets apiPath to the policy's. */
export const policyDriftList: ListDefinition = {
  id: 'change-set-policy-drift',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/change-set-policies`,
  columns: columnsOf(CHANGE_SET_POLICY_DRIFT_LIST, { name: true, state: true, diff: true, since: true, checked_at: false, subject_id: false }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.subject_id),
}
