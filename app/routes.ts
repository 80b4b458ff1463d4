import { type RouteConfig, index, layout, prefix, route } from '@react-router/dev/routes'

/**
 * Every route of spec §2 with its layout. Screens whose area is not built yet use the one
 * placeholder module (an honest empty state, never sample data); replace a line with the real
 * module when the area lands. Ids are explicit because one module serves many paths.
 */
const AREA = 'routes/area-placeholder.tsx'
const AUDIT_LOG = 'routes/audit-log.tsx'
const placeholder = (path: string) => route(path, AREA, { id: `placeholder:${path}` })
const auditLog = (path: string) => route(path, AUDIT_LOG, { id: `audit-log:${path}` })

const pricingRules = (base: string) => [
  placeholder(base),
  placeholder(`${base}/custom`),
  placeholder(`${base}/custom/:ruleName`),
  placeholder(`${base}/custom/:ruleName/log`),
  placeholder(`${base}/:id`),
  placeholder(`${base}/:id/:ruleName`),
  placeholder(`${base}/:id/:ruleName/log`),
]

export default [
  // Resource routes (no UI): preferences and list helpers. All work as plain form posts.
  ...prefix('preferences', [
    route('theme', 'routes/preferences/theme.ts'),
    route('language', 'routes/preferences/language.ts'),
    route('permission-view', 'routes/preferences/permission-view.ts'),
  ]),
  route('tray/items', 'routes/resources/tray-items.ts'),
  route('export/:list', 'routes/resources/list-export.ts'),

  layout('routes/layouts/login.tsx', [
    route('login', 'routes/auth/login.tsx'),
    route('reset', 'routes/auth/reset.tsx'),
    route('logout', 'routes/auth/logout.tsx'),
  ]),

  layout('routes/layouts/docs.tsx', [
    ...prefix('api', [
      index(AREA, { id: 'placeholder:api' }),
      placeholder('context'),
      placeholder('reference'),
      placeholder('authentication'),
    ]),
  ]),

  layout('routes/layouts/material-approval.tsx', [route('approvals/:id', AREA, { id: 'placeholder:approvals/:id' })]),

  layout('routes/layouts/clean.tsx', [
    placeholder('watch/:id/action-report'),
    placeholder('watch/:id/detail-report'),
    placeholder('watch/:id/overview-report'),
  ]),

  layout('routes/layouts/default.tsx', [
    index('routes/home.tsx'),
    placeholder('pulse'),
    route('tray', 'routes/tray.tsx'),
    placeholder('tray/records'),
    placeholder('blocks'),
    placeholder('blocks/:id'),
    placeholder('brand-protection'),
    route('my-profile', 'routes/my-profile.tsx'),

    ...['ssls', 'ssls/:id', 'ssls/:id/log', 'ssls/:id/files', 'ssls/:id/validation', 'ssls/:id/transactions', 'ssls/organisations', 'ssls/organisations/:id'].map(placeholder),
    placeholder('tlds'),
    placeholder('tlds/:id'),

    ...[
      'domains', 'domains/add', 'domains/delete', 'domains/order', 'domains/orders', 'domains/orders/:id', 'domains/dns-log',
      'domains/contacts', 'domains/bind-import', 'domains/search', 'domains/search/records', 'domains/material-change-requests',
      'domains/material-change-requests/:id', 'domains/:id', 'domains/:id/dns', 'domains/:id/log', 'domains/:id/dnssec',
      'domains/:id/orders', 'domains/:id/dns-log', 'domains/:id/dns-statistics', 'domains/:id/transactions',
    ].map(placeholder),
    auditLog('domains/log'),

    ...['users', 'users/authentication-log', 'users/:id', 'users/:id/log', 'users/:id/authentication-log'].map(placeholder),
    auditLog('users/log'),
    ...['accounts', 'accounts/:id', 'accounts/:id/log'].map(placeholder),
    auditLog('accounts/log'),
    ...['contacts', 'contacts/:id', 'contacts/:id/log', 'contacts/:id/registry-handles'].map(placeholder),
    auditLog('contacts/log'),

    ...['watch', 'watch/log', 'watch/overview', 'watch/templates', 'watch/:id', 'watch/:id/log', 'watch/:id/cases', 'watch/:id/domains', 'watch/:id/contacts', 'watch/:id/monitored'].map(placeholder),
    ...[
      'intelligence', 'intelligence/log', 'intelligence/modules', 'intelligence/templates', 'intelligence/:id', 'intelligence/:id/log',
      'intelligence/:id/results', 'intelligence/:id/patterns', 'intelligence/:id/ssl-focus', 'intelligence/:id/traffic-focus', 'intelligence/:id/registry-lock-focus',
    ].map(placeholder),
    ...['reports', 'reports/dns', 'reports/ssls', 'reports/domains', 'reports/dns-records', 'reports/renewals-forecast', 'reports/portfolio-activity'].map(placeholder),
    ...['products', 'products/:id', 'products/registrar-templates', 'products/registrar-templates/:id'].map(placeholder),
    ...[
      'invoicing', 'invoicing/transactions', 'invoicing/transactions/log', 'invoicing/transactions/:id', 'invoicing/transactions/:id/log',
      'invoicing/billing-entities', 'invoicing/billing-entities/:id', 'invoicing/billing-entities/:id/log', 'invoicing/billing-entities/:id/accounts',
      'invoicing/pricing-entities', 'invoicing/pricing-entities/:id', 'invoicing/pricing-entities/:id/log', 'invoicing/pricing-entities/:id/applicable-rules',
    ].map(placeholder),
    ...pricingRules('invoicing/global-pricing-rules'),
    ...pricingRules('invoicing/pricing-entity-rules'),
  ]),

  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
