import { INTELLIGENCE_ITEMS_LIST } from '#common/lists/intelligence.ts'
import { auditList, columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /intelligence: the items (issue 32), each with its last run's state and totals. */
export const intelligenceItemsList: ListDefinition = {
  id: 'intelligence-items',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/intelligence/items`,
  columns: columnsOf(INTELLIGENCE_ITEMS_LIST, {
    name: true,
    kind: true,
    'account.name': true,
    brand: true,
    strings: false,
    schedule: false,
    last_status: true,
    last_run_at: true,
    covered: true,
    exposed: true,
    created_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.id),
}

/** /intelligence/log and an item's log: the audit trail of the intelligence area. */
export const intelligenceLogList = auditList('intelligence-log', 'intelligence')
