import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely'
import type { DomainStatus } from '#common/lists/domains.ts'

/** Columns with a database default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>

export interface AccountsTable {
  id: Generated<string>
  name: string
  status: Defaulted<'active' | 'suspended'>
  currency: Defaulted<string>
  language: Defaulted<string>
  is_registrar: Defaulted<boolean>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface UsersTable {
  id: Generated<string>
  account_id: string
  email: string
  name: Defaulted<string>
  password_hash: string | null
  roles: Defaulted<string[]>
  abilities: Defaulted<string[]>
  language: Defaulted<string>
  dark_theme: Defaulted<boolean>
  status: Defaulted<'active' | 'disabled'>
  /** Migration 0850: a service user never signs in; it holds API tokens. */
  kind: Defaulted<'person' | 'service'>
  last_sign_in_at: Date | null
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface AuditEntriesTable {
  id: Generated<string>
  occurred_at: Timestamp
  request_id: string | null
  actor_user_id: string | null
  actor_label: string
  account_id: string | null
  area: string
  entity_type: string
  entity_id: string
  action: string
  changes: ColumnType<AuditChanges, string, never>
  created_at: Timestamp
}

export type AuditChanges = { before?: Record<string, unknown>; after?: Record<string, unknown> }

export interface TldsTable {
  id: Generated<string>
  name: string
  unicode_name: string
  kind: Defaulted<'generic' | 'country-code' | 'sponsored' | 'new-generic' | 'infrastructure'>
  registry_operator: Defaulted<string>
  is_offered: Defaulted<boolean>
  periods: Defaulted<number[]>
  list_price_minor: number | null
  currency: Defaulted<string>
  dnssec: Defaulted<boolean>
  idn: Defaulted<boolean>
  registry_lock: Defaulted<boolean>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export type { DomainStatus }

export interface DomainsTable {
  id: Generated<string>
  account_id: string
  name: string
  unicode_name: string
  tld: string
  status: Defaulted<DomainStatus>
  expires_at: Date | null
  auto_renew: Defaulted<boolean>
  registry_lock: Defaulted<boolean>
  dnssec: Defaulted<boolean>
  tags: Defaulted<string[]>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface DB {
  accounts: AccountsTable & import('./schema-pricing.ts').AccountPricingColumns & import('./schema-billing.ts').AccountBillingColumns
  users: UsersTable
  audit_entries: AuditEntriesTable
  tlds: TldsTable & import('./schema-directory.ts').TldCatalogueColumns
  domains: DomainsTable & import('./schema-domains.ts').DomainRegistryColumns
  domain_imports: import('./schema-domains.ts').DomainImportsTable
  domain_import_lines: import('./schema-domains.ts').DomainImportLinesTable
  domain_differences: import('./schema-domains.ts').DomainDifferencesTable
  domain_expiry_notices: import('./schema-domains.ts').DomainExpiryNoticesTable
  dns_zones: import('./schema-dns.ts').DnsZonesTable
  dns_records: import('./schema-dns.ts').DnsRecordsTable
  dns_zone_statistics: import('./schema-dns.ts').DnsZoneStatisticsTable
  dns_statistics_cursor: import('./schema-dns.ts').DnsStatisticsCursorTable
  dns_zone_postures: import('./schema-dns.ts').DnsZonePosturesTable
  auth_tokens: AuthTokensTable
  api_tokens: import('./schema-api-tokens.ts').ApiTokensTable
  api_token_uses: import('./schema-api-tokens.ts').ApiTokenUsesTable
  webhook_endpoints: import('./schema-webhooks.ts').WebhookEndpointsTable
  webhook_events: import('./schema-webhooks.ts').WebhookEventsTable
  webhook_deliveries: import('./schema-webhooks.ts').WebhookDeliveriesTable
  webhook_attempts: import('./schema-webhooks.ts').WebhookAttemptsTable
  portal_sessions: import('./schema-portal.ts').PortalSessionsTable
  portal_rate_limits: import('./schema-portal.ts').PortalRateLimitsTable
  contacts: import('./schema-directory.ts').ContactsTable
  registry_handles: import('./schema-directory.ts').RegistryHandlesTable
  domain_contacts: import('./schema-directory.ts').DomainContactsTable
  user_invites: import('./schema-directory.ts').UserInvitesTable
  user_two_factor: import('./schema-auth.ts').UserTwoFactorTable
  two_factor_recovery_codes: import('./schema-auth.ts').TwoFactorRecoveryCodesTable
  password_resets: import('./schema-auth.ts').PasswordResetsTable
  auth_events: import('./schema-auth.ts').AuthEventsTable
  auth_failure_counters: import('./schema-auth.ts').AuthFailureCountersTable
  cart_items: import('./schema-orders.ts').CartItemsTable & import('./schema-pricing.ts').QuoteColumn
  currency_rates: import('./schema-orders.ts').CurrencyRatesTable & import('./schema-pricing.ts').RateDateColumn
  orders: import('./schema-orders.ts').OrdersTable
  order_items: import('./schema-orders.ts').OrderItemsTable & import('./schema-pricing.ts').QuoteColumn & import('./schema-pricing.ts').TemplateValuesColumn
  order_item_events: import('./schema-orders.ts').OrderItemEventsTable
  registrar_templates: import('./schema-pricing.ts').RegistrarTemplatesTable
  products: import('./schema-pricing.ts').ProductsTable
  product_costs: import('./schema-pricing.ts').ProductCostsTable
  pricing_entities: import('./schema-pricing.ts').PricingEntitiesTable
  pricing_rules: import('./schema-pricing.ts').PricingRulesTable
  price_rise_notices: import('./schema-pricing.ts').PriceRiseNoticesTable
  pulse_configurations: import('./schema-reports.ts').PulseConfigurationsTable
  /** pg-boss's tables (schema pgboss): the jobs area reads them (decision 024). */
  'pgboss.job': import('./schema-jobs.ts').PgBossJobTable
  'pgboss.archive': import('./schema-jobs.ts').PgBossArchiveTable
  report_subscriptions: import('./schema-reports.ts').ReportSubscriptionsTable
  ssl_acme_accounts: import('./schema-ssl.ts').SslAcmeAccountsTable
  ssl_terms: import('./schema-ssl.ts').SslTermsTable
  ssl_certificates: import('./schema-ssl.ts').SslCertificatesTable
  ssl_validations: import('./schema-ssl.ts').SslValidationsTable
  ssl_organisations: import('./schema-ssl.ts').SslOrganisationsTable
  ssl_organisation_documents: import('./schema-ssl.ts').SslOrganisationDocumentsTable
  ssl_ca_pacing: import('./schema-ssl.ts').SslCaPacingTable
  ssl_ca_orders: import('./schema-ssl.ts').SslCaOrdersTable
  blocks: import('./schema-blocks.ts').BlocksTable
  billing_entities: import('./schema-billing.ts').BillingEntitiesTable
  billing_balances: import('./schema-billing.ts').BillingBalancesTable
  billing_payments: import('./schema-billing.ts').BillingPaymentsTable
  transactions: import('./schema-billing.ts').TransactionsTable
  tax_rates: import('./schema-billing.ts').TaxRatesTable
  invoice_runs: import('./schema-billing.ts').InvoiceRunsTable
  invoice_series: import('./schema-billing.ts').InvoiceSeriesTable
  invoices: import('./schema-billing.ts').InvoicesTable
  invoice_lines: import('./schema-billing.ts').InvoiceLinesTable
  brands: import('./schema-brand.ts').BrandsTable
  brand_candidates: import('./schema-brand.ts').BrandCandidatesTable
  brand_feed_runs: import('./schema-brand.ts').BrandFeedRunsTable
  ct_log_positions: import('./schema-brand.ts').CtLogPositionsTable
  zone_feed_positions: import('./schema-brand.ts').ZoneFeedPositionsTable
  intelligence_templates: import('./schema-intelligence.ts').IntelligenceTemplatesTable
  intelligence_items: import('./schema-intelligence.ts').IntelligenceItemsTable
  intelligence_runs: import('./schema-intelligence.ts').IntelligenceRunsTable
  intelligence_cells: import('./schema-intelligence.ts').IntelligenceCellsTable
  watch_templates: import('./schema-watch.ts').WatchTemplatesTable
  watches: import('./schema-watch.ts').WatchesTable
  watch_contacts: import('./schema-watch.ts').WatchContactsTable
  watch_detections: import('./schema-watch.ts').WatchDetectionsTable
  watch_evidence: import('./schema-watch.ts').WatchEvidenceTable
  watch_cases: import('./schema-watch.ts').WatchCasesTable
  watch_case_steps: import('./schema-watch.ts').WatchCaseStepsTable
  watch_sends: import('./schema-watch.ts').WatchSendsTable
  change_sets: import('./schema-change-sets.ts').ChangeSetsTable
  change_set_objects: import('./schema-change-sets.ts').ChangeSetObjectsTable
  change_set_policies: import('./schema-change-sets.ts').ChangeSetPoliciesTable
  change_set_policy_drift: import('./schema-change-sets.ts').ChangeSetPolicyDriftTable
  change_set_approvals: import('./schema-change-sets.ts').ChangeSetApprovalsTable
  change_set_approval_rules: import('./schema-change-sets.ts').ChangeSetApprovalRulesTable
}

export type Account = Selectable<AccountsTable>
export type NewAccount = Insertable<AccountsTable>
export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type AuditEntry = Selectable<AuditEntriesTable>
export type Tld = Selectable<TldsTable>
export type TldEntry = Selectable<DB['tlds']>
export type Domain = Selectable<DomainsTable>

export interface AuthTokensTable {
  id: Generated<string>
  user_id: string
  kind: 'access' | 'refresh' | 'two_factor'
  token_hash: string
  family_id: string
  expires_at: Date
  used_at: Date | null
  revoked_at: Date | null
  created_at: Timestamp
}
