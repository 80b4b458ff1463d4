import { DIFFERENCES_LIST, DOMAINS_LIST } from '#common/lists/domains.ts'
import { MATERIAL_REQUESTS_LIST } from '#common/lists/material-changes.ts'
import { ORDERS_LIST } from '#common/lists/orders.ts'
import { auditList, columnsOf, type ListDefinition } from '#app/lib/lists.ts'

/** /domains: the portfolio (issue 6). */
export const domainsList: ListDefinition = {
  id: 'domains',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/domains`,
  columns: columnsOf(DOMAINS_LIST, {
    name: true,
    tld: true,
    status: true,
    expires_at: true,
    registrant_name: true,
    auto_renew: true,
    registry_lock: true,
    registrar_lock: false,
    dnssec: false,
    tags: true,
    created_at: false,
    updated_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: 'domain',
  rowLabel: (row) => String(row.unicode_name ?? row.name ?? row.id),
}

/** /domains/log: the audit trail of area domains. */
export const domainsLogList = auditList('domains-log', 'domains')

/** /domains/{id}/log: the domains audit trail; the route adds the entity filter per domain. */
export const domainLogList: ListDefinition = { ...auditList('domain-log', 'domains'), trayType: null }

const orderColumns = {
  created_at: true,
  state: true,
  names: true,
  item_count: true,
  completed_count: false,
  failed_count: false,
  total_text: true,
  created_by: true,
  'account.name': false,
  id: false,
} as const
const orderCounts = { item_count: { filterable: false }, completed_count: { filterable: false }, failed_count: { filterable: false } } as const

/** /domains/orders. */
export const domainOrdersList: ListDefinition = {
  id: 'domain-orders',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/orders`,
  columns: columnsOf(ORDERS_LIST, orderColumns, orderCounts),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.names ?? row.id ?? ''),
}

/** /domains/{id}/orders: the orders list narrowed to one domain by its route (item_name). */
export const domainTabOrdersList: ListDefinition = {
  ...domainOrdersList,
  id: 'domain-tab-orders',
  columns: columnsOf(ORDERS_LIST, { ...orderColumns, item_name: false }, { ...orderCounts, item_name: { filterable: false } }),
}

/** /domains/material-change-requests. */
export const materialChangeRequestsList: ListDefinition = {
  id: 'material-change-requests',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/material-change-requests`,
  columns: columnsOf(MATERIAL_REQUESTS_LIST, { domain_name: true, state: true, requested_by_label: true, created_at: true, expires_at: true, decided_by: true }),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.domain_name ?? row.id),
}

/** /domains/reconciliation: the differences with the registries across the portfolio. */
export const reconciliationDifferencesList: ListDefinition = {
  id: 'reconciliation-differences',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/domains/reconciliation-differences`,
  columns: columnsOf(DIFFERENCES_LIST, { domain_name: true, field: true, ours: true, registry: true, detected_at: true, domain_id: false }),
  fixedFilters: [],
  defaultSort: '-detected_at',
  trayType: null,
  rowLabel: (row) => String(row.domain_name ?? row.id ?? ''),
}
