import { type RouteConfig, index, layout, prefix, route } from '@react-router/dev/routes'

/**
 * Every route of spec §2 with its layout; every area is built (the placeholder screens are gone
 * with watch, issue 31). Ids are explicit where one module serves many paths.
 */
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
  route('reports/:report/export/:format', 'routes/reports/export.ts'),
  route('reports/subscriptions', 'routes/reports/subscriptions.ts'),
  route('invoicing/invoices/:id/:format', 'routes/invoicing/invoice-file.ts'),
  route('domains/:id/dns/export', 'routes/domains/dns/export.ts'),
  route('domains/zones/:zoneId/export', 'routes/domains/dns/export.ts', { id: 'dns-export:standalone' }),

  layout('routes/layouts/login.tsx', [
    route('login', 'routes/auth/login.tsx'),
    route('reset', 'routes/auth/reset.tsx'),
    route('invitations/:token', 'routes/invitations/accept.tsx'),
    route('reports/unsubscribe/:token', 'routes/reports/unsubscribe.tsx'),
    route('logout', 'routes/auth/logout.tsx'),
  ]),

  layout('routes/layouts/docs.tsx', [
    ...prefix('api', [
      index('routes/api/overview.tsx'),
      route('context', 'routes/api/guide.tsx', { id: 'api-guide:context' }),
      route('reference', 'routes/api/reference.tsx'),
      // A page of the reference: an area's operations in full, the webhook events, the errors, the schemas (issue 34).
      route('reference/:section', 'routes/api/reference.tsx', { id: 'api-reference:section' }),
      route('authentication', 'routes/api/guide.tsx', { id: 'api-guide:authentication' }),
    ]),
  ]),

  layout('routes/layouts/material-approval.tsx', [route('approvals/:id', 'routes/approvals/approval.tsx')]),

  layout('routes/layouts/clean.tsx', [
    // A watch's three printable reports (issue 31): one module, the report in the path.
    ...['action', 'detail', 'overview'].map((report) => route(`watch/:id/${report}-report`, 'routes/watch/report.tsx', { id: `watch-report:${report}` })),
    // Each report's print view (issue 29): one module, the report in the path.
    ...['domains', 'dns-records', 'dns', 'ssls', 'renewals-forecast', 'portfolio-activity', 'operations'].map((report) =>
      route(`reports/${report}/print`, 'routes/reports/print.tsx', { id: `report-print:${report}` }),
    ),
  ]),

  // Screens of the default layout show their errors inside the shell (layouts/shell-errors.tsx), and so does an
  // unmatched path for a signed-in person; signed out, the layout answers it 404 on the plain error screen.
  layout('routes/layouts/default.tsx', [
    layout('routes/layouts/shell-errors.tsx', [
      index('routes/home.tsx'),
      route('pulse', 'routes/pulse.tsx'),
      route('tray', 'routes/tray/index.tsx'),
      route('tray/records', 'routes/tray/records.tsx'),
      route('blocks', 'routes/blocks/index.tsx', [route('order', 'routes/blocks/order.tsx')]),
      route('blocks/:id', 'routes/blocks/detail.tsx'),
      route('change-sets', 'routes/change-sets/index.tsx'),
      route('change-sets/new', 'routes/change-sets/new.tsx'),
      route('change-sets/policies', 'routes/change-sets/policies.tsx'),
      route('change-sets/policies/new', 'routes/change-sets/policy-new.tsx'),
      route('change-sets/policies/:id', 'routes/change-sets/policy.tsx'),
      route('change-sets/:id', 'routes/change-sets/detail.tsx'),
      route('brand-protection', 'routes/brand-protection/index.tsx', [route('new', 'routes/brand-protection/new.tsx'), route('import', 'routes/brand-protection/import.tsx')]),
      route('my-profile', 'routes/my-profile.tsx', [route('api-tokens/new', 'routes/users/api-token-new.tsx', { id: 'api-token-new:profile' })]),

      route('ssls', 'routes/ssl/index.tsx', [route('order', 'routes/ssl/order.tsx'), route('import', 'routes/ssl/import.tsx')]),
      route('ssls/:id', 'routes/ssl/detail.tsx'),
      route('ssls/:id/validation', 'routes/ssl/validation.tsx'),
      route('ssls/:id/files', 'routes/ssl/files.tsx'),
      log('ssls/:id/log'),
      route('ssls/:id/transactions', 'routes/ssl/transactions.tsx'),
      route('ssls/organisations', 'routes/ssl/organisations.tsx', [route('new', 'routes/ssl/organisation-new.tsx')]),
      route('ssls/organisations/:id', 'routes/ssl/organisation.tsx', [route('edit', 'routes/ssl/organisation-edit.tsx')]),
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

      route('users', 'routes/users/index.tsx', [route('invite', 'routes/users/invite.tsx'), route('service-users/new', 'routes/users/service-user-new.tsx')]),
      log('users/authentication-log'),
      route('users/:id', 'routes/users/detail.tsx', [route('api-tokens/new', 'routes/users/api-token-new.tsx', { id: 'api-token-new:service' })]),
      log('users/:id/log'),
      log('users/:id/authentication-log'),
      log('users/log'),
      route('accounts', 'routes/accounts/index.tsx', [route('new', 'routes/accounts/new.tsx')]),
      route('accounts/:id', 'routes/accounts/detail.tsx', [route('edit', 'routes/accounts/edit.tsx')]),
      route('accounts/:id/webhooks', 'routes/accounts/webhooks.tsx', [route('new', 'routes/accounts/webhook-new.tsx')]),
      route('accounts/:id/webhooks/:endpointId', 'routes/accounts/webhook.tsx'),
      log('accounts/:id/log'),
      log('accounts/log'),
      // A create or edit form is a side sheet, a child route drawn over its screen (app/components/sheet.tsx).
      route('contacts', 'routes/contacts/index.tsx', [route('new', 'routes/contacts/new.tsx')]),
      route('contacts/:id', 'routes/contacts/detail.tsx', [route('edit', 'routes/contacts/edit.tsx')]),
      log('contacts/:id/log'),
      route('contacts/:id/registry-handles', 'routes/contacts/registry-handles.tsx'),
      log('contacts/log'),

      route('watch', 'routes/watch/index.tsx', [route('new', 'routes/watch/new.tsx')]),
      route('watch/overview', 'routes/watch/all-overview.tsx'),
      route('watch/templates', 'routes/watch/templates.tsx'),
      log('watch/log'),
      route('watch/:id', 'routes/watch/frame.tsx', { id: 'watch-frame' }, [
        index('routes/watch/overview.tsx'),
        route('cases', 'routes/watch/cases.tsx'),
        route('domains', 'routes/watch/domains.tsx'),
        route('contacts', 'routes/watch/contacts.tsx'),
        route('monitored', 'routes/watch/monitored.tsx'),
        log('log', 'watch/:id/log'),
      ]),
      route('watch/:id/cases/:caseId', 'routes/watch/case.tsx', [route('step', 'routes/watch/step.tsx')]),
      // Intelligence (issue 32): the items, the catalogue, the templates, the trail; an item's tabs under its frame.
      route('intelligence', 'routes/intelligence/index.tsx'),
      log('intelligence/log'),
      route('intelligence/modules', 'routes/intelligence/modules.tsx'),
      route('intelligence/templates', 'routes/intelligence/templates.tsx'),
      route('intelligence/:id', 'routes/intelligence/frame.tsx', { id: 'intelligence-frame' }, [
        index('routes/intelligence/overview.tsx'),
        log('log', 'intelligence/:id/log'),
        route('results', 'routes/intelligence/results.tsx'),
        route('patterns', 'routes/intelligence/patterns.tsx'),
        route('ssl-focus', 'routes/intelligence/ssl-focus.tsx'),
        route('traffic-focus', 'routes/intelligence/traffic-focus.tsx'),
        route('registry-lock-focus', 'routes/intelligence/registry-lock-focus.tsx'),
      ]),
      route('reports', 'routes/reports/index.tsx'),
      route('reports/domains', 'routes/reports/domains.tsx'),
      route('reports/dns-records', 'routes/reports/dns-records.tsx'),
      // The figure reports (issue 29): one module, the report in the path.
      ...['dns', 'ssls', 'renewals-forecast', 'portfolio-activity', 'operations'].map((report) => route(`reports/${report}`, 'routes/reports/figures.tsx', { id: `report:${report}` })),
      // The failed background jobs the operations report's failed-job figures open (staff, own group).
      route('reports/operations/failed-jobs', 'routes/reports/failed-jobs.tsx'),
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
