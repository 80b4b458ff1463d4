import { listCatalogue } from '../list-catalogue.ts'
import { AUDIT_AREAS } from '../vocabulary.ts'

/** The audit trail (every /log screen) and the authentication log. */

export const AUDIT_LIST = listCatalogue({
  name: 'audit-entries',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    area: { type: 'enum', filterable: true, sortable: true, choices: AUDIT_AREAS },
    entity_type: { type: 'text', filterable: true, sortable: true },
    entity_id: { type: 'text', filterable: true },
    action: { type: 'text', filterable: true, sortable: true },
    actor_label: { type: 'text', filterable: true, sortable: true },
    actor_user_id: { type: 'uuid', filterable: true },
    request_id: { type: 'text', filterable: true },
    changes: { type: 'json' },
  },
})

export const AUTH_EVENT_KINDS = ['password', 'two_factor', 'sso', 'refresh', 'reset', 'logout'] as const
export const AUTH_EVENT_OUTCOMES = ['success', 'failure'] as const

export const AUTH_EVENTS_LIST = listCatalogue({
  name: 'authentication-events',
  defaultSort: '-created_at',
  fields: {
    id: { type: 'uuid', filterable: true },
    created_at: { type: 'timestamp', filterable: true, sortable: true },
    user_id: { type: 'uuid', filterable: true },
    account_id: { type: 'uuid', filterable: true },
    email: { type: 'text', filterable: true, sortable: true },
    kind: { type: 'enum', filterable: true, sortable: true, choices: AUTH_EVENT_KINDS },
    outcome: { type: 'enum', filterable: true, sortable: true, choices: AUTH_EVENT_OUTCOMES },
    reason: { type: 'text', filterable: true, sortable: true },
    ip: { type: 'text', filterable: true, sortable: true },
    user_agent: { type: 'text', filterable: true },
  },
})
