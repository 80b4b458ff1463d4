import { TLDS_LIST } from '#common/lists/directory.ts'
import { columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /tlds: the extensions, whether they are offered and their list price. */
export const tldsList: ListDefinition = {
  id: 'tlds',
  apiPath: () => '/tlds',
  columns: columnsOf(
    TLDS_LIST,
    { name: true, unicode_name: true, kind: true, registry_operator: true, is_offered: true, dnssec: false, idn: false, registry_lock: false, list_price_minor: true, currency: false },
    { list_price_minor: { filterable: false } },
  ),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? ''),
}
