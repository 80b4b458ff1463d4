import { type RouteConfig, index, layout, prefix, route } from '@react-router/dev/routes'

/**
 * Every route of spec §2 with its layout. Screens whose area is not built yet use the one
 * placeholder module (an honest empty state, never sample data); replace a line with the real
 * module when the area lands. Ids are explicit because one module serves many paths.
 */
const AREA = 'routes/area-placeholder.tsx'
const placeholder = (path: string) => route(path, AREA, { id: `placeholder:${path}` })
/** Every log screen is the one module; what differs per route (list, columns, title, way back) is its data, by pattern (routes/entity-log.server.ts). */
const log = (path: string, id = path) => route(path, 'routes/entity-log.tsx', { id: `log:${id}` })

// One module per screen of both rule sets (global, per pricing entity); the set is the path's.
const pricingRules = (base: string) => [
  route(base, 'routes/invoicing/rules.tsx', { id: `rules:${base}` }),
  route(`${base}/custom`, 'routes/invoicing/rules.tsx', { id: `rules:${base}/custom` }),
  route(`${base}/custom/:ruleName`, 'routes/invoicing/rule.tsx', { id: `rule:${base}/custom` }),
  log(`${base}/custom/:ruleName/log`),
  route(`${base}/:id`, 'routes/invoicing/rules.tsx', { id: `rules:${base}/product` }),
  route(`${base}/:id/:ruleName`, 'routes/invoicing/rule.tsx', { id: `rule:${base}/product` }),
  log(`${base}/:id/:ruleName/log`),
]

export default [
  // Resource routes (no UI): preferences and list helpers. All work as plain form posts.
  ...prefix('preferences', [route('theme', 'routes/preferences/theme.ts'), route('language', 'routes/preferences/language.ts'), route('permission-view', 'routes/preferences/permission-view.ts')]),
  route('tray/items', 'routes/resources/tray-items.ts'),
  route('export/:list', 'routes/resources/list-export.ts'),
  route('invoicing/invoices/:id/:format', 'routes/invoicing/invoice-file.ts'),
  route('domains/:id/dns/export', 'routes/domains/dns/export.ts'),
  route('domains/zones/:zoneId/export', 'routes/domains/dns/export.ts', { id: 'dns-export:standalone' }),

  layout('routes/layouts/login.tsx', [
    route('login', 'routes/auth/login.tsx'),
    route('reset', 'routes/auth/reset.tsx'),
    route('invitations/:token', 'routes/invitations/accept.tsx'),
    route('logout', 'routes/auth/logout.tsx'),
  ]),

  layout('routes/layouts/docs.tsx', [
    ...prefix('api', [
      index('routes/api/overview.tsx'),
      route('context', 'routes/api/guide.tsx', { id: 'api-guide:context' }),
      route('reference', 'routes/api/reference.tsx'),
      route('authentication', 'routes/api/guide.tsx', { id: 'api-guide:authentication' }),
    ]),
  ]),

  layout('routes/layouts/material-approval.tsx', [route('approvals/:id', 'routes/approvals/approval.tsx')]),

  layout('routes/layouts/clean.tsx', [placeholder('watch/:id/action-report'), placeholder('watch/:id/detail-report'), placeholder('watch/:id/overview-report')]),

  // Screens of the default layout show their errors inside the shell (layouts/shell-errors.tsx), and so does an
  // unmatched path for a signed-in person; signed out, the layout answers it 404 on the plain error screen.
  layout('routes/layouts/default.tsx', [
    layout('routes/layouts/shell-errors.tsx', [
      index('routes/home.tsx'),
      placeholder('pulse'),
      route('tray', 'routes/tray/index.tsx'),
      route('tray/records', 'routes/tray/records.tsx'),
      route('blocks', 'routes/blocks/index.tsx'),
      route('blocks/:id', 'routes/blocks/detail.tsx'),
      placeholder('brand-protection'),
      route('my-profile', 'routes/my-profile.tsx'),

      route('ssls', 'routes/ssl/index.tsx'),
      route('ssls/:id', 'routes/ssl/detail.tsx'),
      route('ssls/:id/validation', 'routes/ssl/validation.tsx'),
      route('ssls/:id/files', 'routes/ssl/files.tsx'),
      log('ssls/:id/log'),
      route('ssls/:id/transactions', 'routes/ssl/transactions.tsx'),
      route('ssls/organisations', 'routes/ssl/organisations.tsx'),
      route('ssls/organisations/:id', 'routes/ssl/organisation.tsx'),
      route('tlds', 'routes/tlds/index.tsx'),
      route('tlds/:id', 'routes/tlds/detail.tsx'),

      route('domains/material-change-requests', 'routes/domains/material-change-requests/list.tsx'),
      route('domains/material-change-requests/:id', 'routes/domains/material-change-requests/detail.tsx'),
      log('domains/log'),
      route('domains/order', 'routes/domains/order.tsx'),
      route('domains/orders', 'routes/domains/orders/index.tsx'),
      route('domains/orders/:id', 'routes/domains/orders/detail.tsx'),
      log('domains/dns-log'),
      route('domains/bind-import', 'routes/domains/dns/bind-import.tsx'),
      route('domains/zones/:zoneId', 'routes/domains/dns/zone.tsx', { id: 'dns-zone:standalone' }),
      route('domains/search/records', 'routes/domains/dns/search-records.tsx'),
      route('domains', 'routes/domains/list.tsx'),
      route('domains/add', 'routes/domains/add.tsx'),
      route('domains/delete', 'routes/domains/delete.tsx'),
      route('domains/contacts', 'routes/domains/contacts.tsx'),
      route('domains/search', 'routes/domains/search.tsx'),
      route('domains/reconciliation', 'routes/domains/reconciliation.tsx'),
      route('domains/:id', 'routes/domains/frame.tsx', { id: 'domain-frame' }, [
        index('routes/domains/overview.tsx'),
        log('log', 'domains/:id/log'),
        route('orders', 'routes/domains/orders-tab.tsx'),
        route('transactions', 'routes/domains/transactions-tab.tsx'),
        route('dns', 'routes/domains/dns/zone.tsx'),
        route('dnssec', 'routes/domains/dns/dnssec.tsx'),
        log('dns-log', 'domains/:id/dns-log'),
        route('dns-statistics', 'routes/domains/dns/statistics.tsx'),
      ]),

      route('users', 'routes/users/index.tsx'),
      log('users/authentication-log'),
      route('users/:id', 'routes/users/detail.tsx'),
      log('users/:id/log'),
      log('users/:id/authentication-log'),
      log('users/log'),
      route('accounts', 'routes/accounts/index.tsx'),
      route('accounts/:id', 'routes/accounts/detail.tsx'),
      route('accounts/:id/webhooks', 'routes/accounts/webhooks.tsx'),
      route('accounts/:id/webhooks/:endpointId', 'routes/accounts/webhook.tsx'),
      log('accounts/:id/log'),
      log('accounts/log'),
      route('contacts', 'routes/contacts/index.tsx'),
      route('contacts/:id', 'routes/contacts/detail.tsx'),
      log('contacts/:id/log'),
      route('contacts/:id/registry-handles', 'routes/contacts/registry-handles.tsx'),
      log('contacts/log'),

      ...['watch', 'watch/log', 'watch/overview', 'watch/templates', 'watch/:id', 'watch/:id/log', 'watch/:id/cases', 'watch/:id/domains', 'watch/:id/contacts', 'watch/:id/monitored'].map(
        placeholder,
      ),
      ...[
        'intelligence',
        'intelligence/log',
        'intelligence/modules',
        'intelligence/templates',
        'intelligence/:id',
        'intelligence/:id/log',
        'intelligence/:id/results',
        'intelligence/:id/patterns',
        'intelligence/:id/ssl-focus',
        'intelligence/:id/traffic-focus',
        'intelligence/:id/registry-lock-focus',
      ].map(placeholder),
      ...['reports', 'reports/dns', 'reports/ssls', 'reports/domains', 'reports/dns-records', 'reports/renewals-forecast', 'reports/portfolio-activity'].map(placeholder),
      route('products', 'routes/products/index.tsx'),
      route('products/:id', 'routes/products/detail.tsx'),
      route('products/registrar-templates', 'routes/products/templates.tsx'),
      route('products/registrar-templates/:id', 'routes/products/template.tsx'),
      route('invoicing', 'routes/invoicing/home.tsx'),
      route('invoicing/transactions', 'routes/invoicing/transactions.tsx'),
      log('invoicing/transactions/log'),
      route('invoicing/transactions/:id', 'routes/invoicing/transaction.tsx'),
      log('invoicing/transactions/:id/log'),
      route('invoicing/billing-entities', 'routes/invoicing/billing-entities.tsx'),
      route('invoicing/billing-entities/:id', 'routes/invoicing/billing-entity.tsx'),
      log('invoicing/billing-entities/:id/log'),
      route('invoicing/billing-entities/:id/accounts', 'routes/invoicing/billing-accounts.tsx'),
      route('invoicing/exchange-rates', 'routes/invoicing/exchange-rates.tsx'),
      route('invoicing/pricing-entities', 'routes/invoicing/pricing-entities.tsx'),
      route('invoicing/pricing-entities/:id', 'routes/invoicing/pricing-entity.tsx'),
      log('invoicing/pricing-entities/:id/log'),
      route('invoicing/pricing-entities/:id/applicable-rules', 'routes/invoicing/applicable-rules.tsx'),
      ...pricingRules('invoicing/global-pricing-rules'),
      ...pricingRules('invoicing/pricing-entity-rules'),
      route('*', 'routes/not-found.tsx'),
    ]),
  ]),
] satisfies RouteConfig
