import { PRODUCTS_LIST, REGISTRAR_TEMPLATES_LIST } from '#common/lists/pricing.ts'
import { columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /products (issue 17). */
export const productsList: ListDefinition = {
  id: 'products',
  apiPath: () => '/products',
  columns: columnsOf(PRODUCTS_LIST, { code: true, name: true, kind: true, action: true, tld: true, tags: true, is_active: true, updated_at: false }),
  fixedFilters: [],
  defaultSort: 'code',
  trayType: null,
  rowLabel: (row) => String(row.code ?? ''),
}

/** /products/registrar-templates. */
export const registrarTemplatesList: ListDefinition = {
  id: 'registrar-templates',
  apiPath: () => '/registrar-templates',
  columns: columnsOf(REGISTRAR_TEMPLATES_LIST, { name: true, products: true, updated_at: true }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? ''),
}
