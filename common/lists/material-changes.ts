import { listCatalogue } from '../list-catalogue.ts'

/** Field catalogue of the material-change requests (/domains/material-change-requests). */

export const MATERIAL_STATES = ['pending', 'approved', 'rejected', 'expired', 'applied'] as const
export type MaterialState = (typeof MATERIAL_STATES)[number]

export const MATERIAL_REQUESTS_LIST = listCatalogue({
  name: 'material-change-requests',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    domain_id: { type: 'uuid', filterable: true },
    domain_name: { type: 'text', filterable: true, sortable: true },
    state: { type: 'enum', filterable: true, sortable: true, choices: MATERIAL_STATES },
    requested_by_label: { type: 'text', filterable: true, sortable: true },
    decided_by: { type: 'text', filterable: true, sortable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    expires_at: { type: 'timestamp', filterable: true, sortable: true },
    decided_at: { type: 'timestamp', filterable: true, sortable: true },
  },
})
