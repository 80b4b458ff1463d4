import { BLOCKS_LIST } from '#common/lists/blocks.ts'
import { columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /blocks (decision 302). */
export const blocksList: ListDefinition = {
  id: 'blocks',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/blocks`,
  columns: columnsOf(BLOCKS_LIST, {
    label_unicode: true,
    label: false,
    product_code: true,
    status: true,
    trademark_ref: true,
    period_years: false,
    covered_tlds: false,
    expires_at: true,
    'account.name': false,
    created_at: true,
    updated_at: false,
  }),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.label_unicode ?? row.label ?? row.id),
}
