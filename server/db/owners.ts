import type { DB } from './schema.ts'

/**
 * Which area owns each table (decision 024): the area (a folder under server/platform/, see
 * FOLDER_AREAS) whose SQL may name it. Another area reads it through the owner's `reads.ts` and changes it through the owner's
 * exported functions. `npm run lint` (scripts/lint-table-owners.ts) holds every area to this map;
 * a table missing here is a type error, so a new table names its owner when it is added to `DB`.
 */
export const TABLE_OWNERS = {
  accounts: 'accounts',
  users: 'users',
  user_invites: 'users',
  audit_entries: 'audit',
  pulse_configurations: 'reports',
  report_subscriptions: 'reports',
  /** pg-boss's tables: the engine (server/jobs/jobs.ts) runs them, the jobs area reads failed jobs and retries them. */
  'pgboss.job': 'jobs',
  'pgboss.archive': 'jobs',
  tlds: 'tlds',
  domains: 'domains',
  domain_imports: 'domains',
  domain_import_lines: 'domains',
  domain_differences: 'domains',
  domain_expiry_notices: 'domains',
  dns_zones: 'dns',
  dns_records: 'dns',
  dns_zone_statistics: 'dns',
  dns_statistics_cursor: 'dns',
  dns_zone_postures: 'dns',
  auth_tokens: 'users',
  user_two_factor: 'users',
  two_factor_recovery_codes: 'users',
  password_resets: 'users',
  auth_events: 'users',
  auth_failure_counters: 'users',
  api_tokens: 'users',
  api_token_uses: 'users',
  webhook_endpoints: 'webhooks',
  webhook_events: 'webhooks',
  webhook_deliveries: 'webhooks',
  webhook_attempts: 'webhooks',
  /** The portal's own tables (app/): no API area reads them. */
  portal_sessions: 'portal',
  portal_rate_limits: 'portal',
  contacts: 'contacts',
  registry_handles: 'contacts',
  domain_contacts: 'contacts',
  cart_items: 'orders',
  orders: 'orders',
  order_items: 'orders',
  order_item_events: 'orders',
  currency_rates: 'pricing',
  registrar_templates: 'pricing',
  products: 'pricing',
  product_costs: 'pricing',
  pricing_entities: 'pricing',
  pricing_rules: 'pricing',
  price_rise_notices: 'pricing',
  ssl_acme_accounts: 'ssl',
  ssl_terms: 'ssl',
  ssl_certificates: 'ssl',
  ssl_validations: 'ssl',
  ssl_organisations: 'ssl',
  ssl_organisation_documents: 'ssl',
  ssl_ca_pacing: 'ssl',
  ssl_ca_orders: 'ssl',
  blocks: 'blocks',
  billing_entities: 'billing',
  billing_balances: 'billing',
  billing_payments: 'billing',
  transactions: 'billing',
  tax_rates: 'billing',
  invoice_runs: 'billing',
  invoice_series: 'billing',
  invoices: 'billing',
  invoice_lines: 'billing',
  tray_items: 'tray',
  bulk_jobs: 'bulk',
  bulk_job_items: 'bulk',
  material_approvers: 'material-changes',
  material_change_requests: 'material-changes',
  material_approval_tokens: 'material-changes',
  brands: 'brand',
  brand_candidates: 'brand',
  brand_feed_runs: 'brand',
  ct_log_positions: 'brand',
  zone_feed_positions: 'brand',
  intelligence_templates: 'intelligence',
  intelligence_items: 'intelligence',
  intelligence_runs: 'intelligence',
  intelligence_cells: 'intelligence',
  watch_templates: 'watch',
  watches: 'watch',
  watch_contacts: 'watch',
  watch_detections: 'watch',
  watch_evidence: 'watch',
  watch_cases: 'watch',
  watch_case_steps: 'watch',
  watch_sends: 'watch',
  change_sets: 'change-sets',
  change_set_objects: 'change-sets',
  change_set_policies: 'change-sets',
  change_set_policy_drift: 'change-sets',
  change_set_approvals: 'change-sets',
  change_set_approval_rules: 'change-sets',
} as const satisfies Record<keyof DB, string>

/**
 * Folders of server/platform/ that are part of another area: the area's tables are theirs too.
 *   auth/      — the users area's sign-in, tokens and second factor: the same people's credentials,
 *                kept beside their directory (users/) only to keep each file to one concern;
 *   api-tokens/ — the users area's API credentials (decision 021): a service user's tokens, read
 *                with their user on every request (one statement: bearer → actor, auth/tokens.ts);
 *   products/  — the pricing area's catalogue (decision 300): products and their costs are what
 *                the pricing engine prices under its rules, read with them in one pass;
 *   approvals/ — the material-changes area's public decision link, a folder of its own because
 *                it applies the change through domains/ (which imports material-changes/).
 */
export const FOLDER_AREAS: Record<string, Area> = { auth: 'users', 'api-tokens': 'users', products: 'pricing', approvals: 'material-changes' }

export type TableName = keyof typeof TABLE_OWNERS
export type Area = (typeof TABLE_OWNERS)[TableName]
