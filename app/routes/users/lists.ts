import { AUTH_EVENTS_LIST } from '#common/lists/audit.ts'
import { USERS_LIST } from '#common/lists/directory.ts'
import { auditList, columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /users: the people of the account (staff: of the accounts they reach). */
export const usersList: ListDefinition = {
  id: 'users',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/users`,
  columns: columnsOf(USERS_LIST, { name: true, email: true, 'account.name': true, roles: true, status: true, two_factor: true, invited: false, last_sign_in_at: true, created_at: false }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.email ?? ''),
}

/** /users/log and, fixed to one user, /users/{id}/log. */
export const usersLogList = auditList('users-log', 'users')

/** /users/authentication-log and, fixed to one user, /users/{id}/authentication-log: the sign-ins. */
export const usersAuthenticationLogList: ListDefinition = {
  id: 'users-authentication-log',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/authentication-events`,
  columns: columnsOf(AUTH_EVENTS_LIST, { created_at: true, email: true, kind: true, outcome: true, reason: true, ip: true, user_agent: false, user_id: false }),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.email ?? ''),
}
