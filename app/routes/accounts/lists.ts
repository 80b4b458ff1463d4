import { ACCOUNTS_LIST } from '#common/lists/directory.ts'
import { auditList, columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /accounts: the accounts staff or a registrar reach. */
export const accountsList: ListDefinition = {
  id: 'accounts',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/accounts`,
  columns: columnsOf(ACCOUNTS_LIST, { name: true, status: true, currency: true, language: true, is_registrar: false, created_at: true }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? ''),
}

/** /accounts/log: the audit trail of every area; /accounts/{id}/log reads it in that account. */
export const accountsLogList = auditList('accounts-log', null)
