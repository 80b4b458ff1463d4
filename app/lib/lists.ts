import { choicesOf, OPERATORS_BY_TYPE, type CatalogueField, type FieldType, type ListCatalogue } from '#common/list-catalogue.ts'
import { AUDIT_LIST, AUTH_EVENTS_LIST } from '#common/lists/audit.ts'
import { DIFFERENCES_LIST, DOMAINS_LIST } from '#common/lists/domains.ts'
import { ACCOUNTS_LIST, CONTACTS_LIST, REGISTRY_HANDLES_LIST, TLDS_LIST, USERS_LIST } from '#common/lists/directory.ts'
import { DNS_RECORDS_LIST, DNS_ZONE_LOG_LIST } from '#common/lists/dns.ts'
import { MATERIAL_REQUESTS_LIST } from '#common/lists/material-changes.ts'
import { ORDERS_LIST } from '#common/lists/orders.ts'
import { TRAY_DOMAINS_LIST, TRAY_RECORDS_LIST } from '#common/lists/tray.ts'
import { SSL_CERTIFICATES_LIST, SSL_ORGANISATIONS_LIST } from '#common/lists/ssl.ts'
import { BLOCKS_LIST } from '#common/lists/blocks.ts'
import type { Filter, Operator } from '#common/pql.ts'
import { PRICING_ENTITIES_LIST, PRICING_RULES_LIST, PRODUCTS_LIST, REGISTRAR_TEMPLATES_LIST } from '#common/lists/pricing.ts'
import { BILLING_ENTITIES_LIST, INVOICES_LIST, TRANSACTIONS_LIST } from '#common/lists/billing.ts'

/** A field of a list screen: the catalogue's field (common/lists) and whether it shows by default. */
export type ListColumn = {
  key: string
  type: FieldType
  sortable?: boolean
  filterable?: boolean
  choices?: readonly string[]
  /** Shown when the URL names no fields. */
  defaultVisible?: boolean
}

/** One list screen: the API it reads, its columns and the filters its route fixes. */
export type ListDefinition = {
  id: string
  /** Platform path for an account context. */
  apiPath: (groupContext: string) => string
  columns: ListColumn[]
  fixedFilters: Filter[]
  defaultSort: string
  /** Bulk-tray entity type of a row, or null when rows cannot go into the tray. */
  trayType: string | null
  /** Label of a row in the tray. */
  rowLabel: (row: Record<string, unknown>) => string
}

/**
 * The columns of a list screen from the list's catalogue, the one the API's resource is built
 * from (decision 016): `shown` names the fields the screen offers, in order, each with whether it
 * shows by default; types, sorting, filtering and choices come from the catalogue.
 */
export function columnsOf<F extends Record<string, CatalogueField>>(
  catalogue: ListCatalogue<F>,
  shown: { [K in keyof F & string]?: boolean },
  overrides: { [K in keyof F & string]?: Partial<Pick<ListColumn, 'filterable' | 'sortable'>> } = {},
): ListColumn[] {
  return Object.entries(shown).map(([key, visible]) => {
    const field = catalogue.fields[key]!
    const choices = choicesOf(field)
    return {
      key,
      type: field.type,
      ...(field.sortable ? { sortable: true } : {}),
      ...(field.filterable ? { filterable: true } : {}),
      ...(choices ? { choices } : {}),
      defaultVisible: Boolean(visible),
      ...overrides[key as keyof F & string],
    }
  })
}

/**
 * The operators the filter builder offers for a field: the API's for its type (common/), ranges
 * first for dates and times, without "equals" on an instant (never what a person means).
 */
export function builderOperators(type: FieldType): readonly Operator[] {
  const operators = OPERATORS_BY_TYPE[type]
  if (type === 'timestamp' || type === 'date') return ['between', ...operators.filter((o) => o !== 'between' && o !== 'equals')]
  return operators
}

const auditColumns = (withArea: boolean): ListColumn[] =>
  columnsOf(
    AUDIT_LIST,
    { created_at: true, area: withArea, entity_type: true, entity_id: false, action: true, actor_label: true, request_id: false, changes: true },
    { area: { filterable: withArea } },
  )

const auditList = (id: string, area: string | null): ListDefinition => ({
  id,
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/audit-entries`,
  columns: auditColumns(area === null),
  fixedFilters: area ? [{ field: 'area', operator: 'equals', values: [area] }] : [],
  defaultSort: '-created_at',
  trayType: 'audit-entry',
  rowLabel: (row) => `${String(row.entity_type ?? '')} ${String(row.action ?? '')}`,
})

/** Every list screen built on the one mechanism, by id (the CSV export finds them here). */
export const LISTS: Record<string, ListDefinition> = {
  'accounts-log': auditList('accounts-log', null),
  'domains-log': auditList('domains-log', 'domains'),
  'users-log': auditList('users-log', 'users'),
  'contacts-log': auditList('contacts-log', 'contacts'),
}

// --- Domains (issue 6) ---------------------------------------------------------------------

LISTS.domains = {
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

/** /domains/{id}/log: the domains audit trail; the route adds the entity filter per domain. */
LISTS['domain-log'] = { ...auditList('domain-log', 'domains'), trayType: null }

// Issue 5 directory lists (accounts, users, contacts, TLDs, their logs).
const directoryLists: ListDefinition[] = [
  {
    id: 'accounts',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/accounts`,
    columns: columnsOf(ACCOUNTS_LIST, { name: true, status: true, currency: true, language: true, is_registrar: false, created_at: true }),
    fixedFilters: [],
    defaultSort: 'name',
    trayType: null,
    rowLabel: (row) => String(row.name ?? ''),
  },
  {
    id: 'users',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/users`,
    columns: columnsOf(USERS_LIST, { name: true, email: true, 'account.name': true, roles: true, status: true, two_factor: true, invited: false, last_sign_in_at: true, created_at: false }),
    fixedFilters: [],
    defaultSort: 'name',
    trayType: null,
    rowLabel: (row) => String(row.email ?? ''),
  },
  {
    id: 'contacts',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/contacts`,
    columns: columnsOf(CONTACTS_LIST, { name: true, organisation: true, email: true, phone: true, city: false, country_code: true, 'account.name': false, in_use: true, updated_at: false }),
    fixedFilters: [],
    defaultSort: 'name',
    trayType: null,
    rowLabel: (row) => String(row.name ?? ''),
  },
  {
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
  },
  {
    id: 'users-authentication-log',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/authentication-events`,
    columns: columnsOf(AUTH_EVENTS_LIST, { created_at: true, email: true, kind: true, outcome: true, reason: true, ip: true, user_agent: false, user_id: false }),
    fixedFilters: [],
    defaultSort: '-created_at',
    trayType: null,
    rowLabel: (row) => String(row.email ?? ''),
  },
  {
    id: 'contact-registry-handles',
    apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/contacts`,
    columns: columnsOf(REGISTRY_HANDLES_LIST, { registry: true, handle: true, sync_state: true, last_synced_at: true, error: true }),
    fixedFilters: [],
    defaultSort: 'registry',
    trayType: null,
    rowLabel: (row) => String(row.handle ?? ''),
  },
]
for (const def of directoryLists) LISTS[def.id] = def

// --- DNS (issue 7) -----------------------------------------------------------------------------

const dnsRecordColumns = (withZone: boolean): ListColumn[] =>
  columnsOf(DNS_RECORDS_LIST, { ...(withZone ? { 'zone.name': true } : {}), name: true, type: true, ttl: true, content: true, updated_at: false }, { ttl: { filterable: false } })

const dnsRecordLabel = (row: Record<string, unknown>) => `${String(row.name ?? '')} ${String(row.type ?? '')} ${String(row.content ?? '')}`.slice(0, 200)

/** Records of one zone: the route adds the zone as a fixed filter (zone_id). */
LISTS['dns-zone-records'] = {
  id: 'dns-zone-records',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/dns-records`,
  columns: dnsRecordColumns(false),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: 'record',
  rowLabel: dnsRecordLabel,
}
/** /domains/search/records: records across every zone of the account. */
LISTS['dns-records'] = {
  ...LISTS['dns-zone-records'],
  id: 'dns-records',
  columns: dnsRecordColumns(true),
  defaultSort: 'zone.name',
}
/** /domains/dns-log: the audit trail of area dns across zones. */
LISTS['dns-log'] = auditList('dns-log', 'dns')
/** /domains/{id}/dns-log: the route sets apiPath to the zone's log. */
LISTS['dns-zone-log'] = {
  ...auditList('dns-zone-log', 'dns'),
  columns: columnsOf(
    DNS_ZONE_LOG_LIST,
    { created_at: true, area: false, entity_type: true, entity_id: false, action: true, actor_label: true, request_id: false, changes: true },
    { area: { filterable: false } },
  ),
  fixedFilters: [],
}

// --- Domain orders (issue 6): /domains/orders --------------------------------------------------
const orderColumns = { created_at: true, state: true, names: true, item_count: true, completed_count: false, failed_count: false, total_text: true, created_by: true, id: false } as const
const orderCounts = { item_count: { filterable: false }, completed_count: { filterable: false }, failed_count: { filterable: false } } as const
LISTS['domain-orders'] = {
  id: 'domain-orders',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/orders`,
  columns: columnsOf(ORDERS_LIST, orderColumns, orderCounts),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.names ?? row.id ?? ''),
}
/** /domains/{id}/orders: the orders list narrowed to one domain by its route (item_name). */
LISTS['domain-tab-orders'] = {
  ...LISTS['domain-orders'],
  id: 'domain-tab-orders',
  columns: columnsOf(ORDERS_LIST, { ...orderColumns, item_name: false }, { ...orderCounts, item_name: { filterable: false } }),
}

// --- Tray (issue 6): /tray and /tray/records ----------------------------------------------------
/** The domains in the user's server-side tray. */
LISTS.tray = {
  id: 'tray',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/tray`,
  columns: columnsOf(TRAY_DOMAINS_LIST, { name: true, tld: true, status: true, expires_at: true, auto_renew: true, registry_lock: true, is_material: true, added_at: false }),
  fixedFilters: [],
  defaultSort: 'added_at',
  trayType: null,
  rowLabel: (row) => String(row.name ?? row.id),
}
/** The DNS records in the user's server-side tray. */
LISTS['dns-tray-records'] = {
  id: 'dns-tray-records',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/tray?entity_type=record`,
  columns: columnsOf(TRAY_RECORDS_LIST, { zone: true, name: true, type: true, ttl: true, content: true, added_at: false }, { ttl: { filterable: false } }),
  fixedFilters: [],
  defaultSort: 'zone',
  trayType: null,
  rowLabel: dnsRecordLabel,
}

// --- Material-change requests (issue 6): /domains/material-change-requests ---------------------
LISTS['material-change-requests'] = {
  id: 'material-change-requests',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/material-change-requests`,
  columns: columnsOf(MATERIAL_REQUESTS_LIST, { domain_name: true, state: true, requested_by_label: true, created_at: true, expires_at: true, decided_by: true }),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.domain_name ?? row.id),
}

// --- Reconciliation differences across the portfolio (issue 6): /domains/reconciliation ----
LISTS['reconciliation-differences'] = {
  id: 'reconciliation-differences',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/domains/reconciliation-differences`,
  columns: columnsOf(DIFFERENCES_LIST, { domain_name: true, field: true, ours: true, registry: true, detected_at: true, domain_id: false }),
  fixedFilters: [],
  defaultSort: '-detected_at',
  trayType: null,
  rowLabel: (row) => String(row.domain_name ?? row.id ?? ''),
}

// --- Products and pricing (issue 17) -----------------------------------------------------------

LISTS.products = {
  id: 'products',
  apiPath: () => '/products',
  columns: columnsOf(PRODUCTS_LIST, { code: true, name: true, kind: true, action: true, tld: true, tags: true, is_active: true, updated_at: false }),
  fixedFilters: [],
  defaultSort: 'code',
  trayType: null,
  rowLabel: (row) => String(row.code ?? ''),
}
LISTS['pricing-entities'] = {
  id: 'pricing-entities',
  apiPath: () => '/pricing-entities',
  columns: columnsOf(PRICING_ENTITIES_LIST, { name: true, currencies: true, is_default: true, accounts: true, notice_days: false, updated_at: true }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? ''),
}
/** The rule windows of one set; the route fixes the set (level) and the product or custom. */
LISTS['pricing-rules'] = {
  id: 'pricing-rules',
  apiPath: () => '/pricing-rules',
  columns: columnsOf(PRICING_RULES_LIST, {
    rule_name: true,
    level: true,
    'pricing_entity.name': true,
    'product.code': true,
    kind: true,
    currency: false,
    starts_at: true,
    ends_at: true,
    updated_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'rule_name',
  trayType: null,
  rowLabel: (row) => String(row.rule_name ?? ''),
}
/** The /log screens of price lists and rules (the invoicing trail, fixed to one entity by the route). */
LISTS['pricing-log'] = { ...auditList('pricing-log', 'invoicing'), trayType: null }

// --- SSL (issue 19) ------------------------------------------------------------------------------

LISTS.ssls = {
  id: 'ssls',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/ssls`,
  columns: columnsOf(SSL_CERTIFICATES_LIST, {
    common_name: true,
    names: true,
    status: true,
    product: true,
    ca: false,
    key_type: false,
    not_after: true,
    issued_at: false,
    'account.name': false,
    created_at: true,
  }),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => String(row.common_name ?? row.id),
}
// --- Blocks (decision 302) -----------------------------------------------------------------------

LISTS.blocks = {
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
/** /ssls/organisations: the OV/EV organisations and where their validation stands. */
LISTS['ssl-organisations'] = {
  id: 'ssl-organisations',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/ssl-organisations`,
  columns: columnsOf(SSL_ORGANISATIONS_LIST, {
    legal_name: true,
    registration_number: true,
    country: true,
    city: false,
    approver_email: false,
    status: true,
    validated_at: true,
    'account.name': false,
    created_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'legal_name',
  trayType: null,
  rowLabel: (row) => String(row.legal_name ?? row.id),
}
LISTS['registrar-templates'] = {
  id: 'registrar-templates',
  apiPath: () => '/registrar-templates',
  columns: columnsOf(REGISTRAR_TEMPLATES_LIST, { name: true, products: true, updated_at: true }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? ''),
}

// --- Billing (issue 18) --------------------------------------------------------------------------

/** The billing entities (staff: all; a client: the one paying for its account). */
LISTS['billing-entities'] = {
  id: 'billing-entities',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/billing-entities`,
  columns: columnsOf(BILLING_ENTITIES_LIST, {
    name: true,
    country: true,
    vat_id: true,
    currency: true,
    balance_text: true,
    payment_terms_days: false,
    invoice_language: false,
    billing_email: false,
    accounts: true,
    updated_at: false,
  }),
  fixedFilters: [],
  defaultSort: 'name',
  trayType: null,
  rowLabel: (row) => String(row.name ?? ''),
}
const transactionColumns = {
  created_at: true,
  state: true,
  action: true,
  product_code: true,
  object_name: true,
  period: false,
  amount_text: true,
  amount_minor: false,
  currency: false,
  'account.name': true,
  'billing_entity.name': false,
  actor_label: false,
  settled_at: false,
} as const
/** /invoicing/transactions: every billable action, filterable by entity, account, product, state and dates. */
LISTS.transactions = {
  id: 'transactions',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/transactions`,
  columns: columnsOf(TRANSACTIONS_LIST, transactionColumns),
  fixedFilters: [],
  defaultSort: '-created_at',
  trayType: null,
  rowLabel: (row) => `${String(row.product_code ?? '')} ${String(row.object_name ?? '')}`,
}
/** /domains/{id}/transactions and /ssls/{id}/transactions: the route fixes the domain. */
LISTS['domain-transactions'] = { ...LISTS.transactions, id: 'domain-transactions', columns: columnsOf(TRANSACTIONS_LIST, { ...transactionColumns, object_name: false, 'account.name': false }) }
/** /invoicing for a client (issue 28): its invoices and credit notes, each with its PDF and XML (staff in their own group: every entity's). */
LISTS.invoices = {
  id: 'invoices',
  apiPath: (groupContext) => `/groups/${encodeURIComponent(groupContext)}/invoices`,
  columns: columnsOf(INVOICES_LIST, {
    number: true,
    kind: true,
    issued_at: true,
    period: true,
    total_text: true,
    due_at: true,
    status: true,
    currency: false,
    total_minor: false,
    tax_minor: false,
    reverse_charge: false,
    corrects_number: false,
    'billing_entity.name': false,
  }),
  fixedFilters: [],
  defaultSort: '-issued_at',
  trayType: null,
  rowLabel: (row) => String(row.number ?? ''),
}
/** The /log screens of billing entities and transactions (the invoicing trail, fixed by the route). */
LISTS['billing-log'] = { ...auditList('billing-log', 'invoicing'), trayType: null }
