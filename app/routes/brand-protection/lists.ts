import { BRAND_CANDIDATES_LIST } from '#common/lists/brand.ts'
import { columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /brand-protection: the lookalikes of the account's brands (issue 30). */
export const brandCandidatesList: ListDefinition = {
  id: 'brand-candidates',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/brand-candidates`,
  columns: columnsOf(BRAND_CANDIDATES_LIST, {
    unicode_name: true,
    name: false,
    'brand.label': true,
    fuzzers: true,
    score: true,
    status: true,
    price_minor: true,
    tld: false,
    mx: false,
    certificates: false,
    registrar: false,
    new: false,
    changed_by: false,
    changed_at: false,
    first_seen_at: false,
    checked_at: true,
  }),
  fixedFilters: [],
  defaultSort: '-score,name',
  trayType: null,
  rowLabel: (row) => String(row.unicode_name ?? row.name ?? row.id),
}
