// The key screens as a person sees them, for looking at before calling a screen done (issue 16):
// builds the portal (under /tmp/e2e.lock, as the e2e run does), starts the real server on a copy of
// the seeded e2e template and a free port, signs the demo users in through /login, and writes one
// PNG per screen and variant — light, dark, Japanese (1440 px) and a 390 px phone — to screenshots/.
// Usage: npm run screenshots -- [--only <name>] [--no-build] [--out <dir>]
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { SERVER_ENV } from '#tests/e2e/env.ts'
import { prepareDataDir, snapshotBuild, spawnServer } from '#tests/e2e/template.ts'

const args = process.argv.slice(2)
const option = (name: string) => {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}
const only = option('--only')
const outDir = path.resolve(option('--out') ?? 'screenshots')
const PASSWORD = 'portal-demo-2026'

type Variant = { name: string; width: number; height: number; theme: 'light' | 'dark'; lng: string }
const VARIANTS: Variant[] = [
  { name: 'light', width: 1440, height: 900, theme: 'light', lng: 'en' },
  { name: 'dark', width: 1440, height: 900, theme: 'dark', lng: 'en' },
  { name: 'ja', width: 1440, height: 900, theme: 'light', lng: 'ja' },
  { name: 'phone', width: 390, height: 844, theme: 'light', lng: 'en' },
]

/**
 * A screen: who looks at it and where; `path` may be a function of the first domain's id; `open`, the test id of a folded form's title clicked open before the shot;
 * `submit`, a form (its test id) whose controls (CSS selectors) are filled and which is submitted before the shot, to see its refusals.
 */
type Screen = {
  name: string
  user: string
  path: string | ((ids: Ids) => string)
  open?: string
  // A form posted before the picture: its fields filled (and selects chosen), the button pressed (its
  // value, when the form has several), and the test id of what to wait for (a field error by default).
  submit?: { form: string; fill: Record<string, string>; choose?: Record<string, string>; check?: string[]; button?: string; waitFor?: string }
  // What the screen needs in place before it is opened (the tray's domains), and what takes it away after the shot.
  prepare?: (page: Page) => Promise<void>
  cleanup?: (page: Page) => Promise<void>
}
type Ids = {
  watch: string
  watchCase: string
  domain: string
  zoneDomain: string
  quietDomain: string
  order: string | null
  block: string
  entity: string
  sslOrganisation: string
  account: string
  contact: string
  tld: string
  intelligence: string
}
const SCREENS: Screen[] = [
  { name: 'login', user: '', path: '/login' },
  { name: 'home-admin', user: 'admin@acme.example', path: '/' },
  { name: 'home-staff', user: 'staff@example.com', path: '/' },
  { name: 'not-found-signed-in', user: 'admin@acme.example', path: '/no-such-page' },
  { name: 'domains', user: 'admin@acme.example', path: '/domains' },
  { name: 'domains-filtered', user: 'admin@acme.example', path: '/domains?pql=status%20%3D%20active' },
  { name: 'domains-staff', user: 'staff@example.com', path: '/domains' },
  { name: 'domains-menu', user: 'admin@acme.example', path: '/domains', open: 'header-menu' },
  { name: 'domain-overview', user: 'admin@acme.example', path: (ids) => `/domains/${ids.domain}` },
  // Turning the registry lock on asks once with its fee (issue 28).
  {
    name: 'domain-lock-confirm',
    user: 'admin@acme.example',
    path: (ids) => `/domains/${ids.domain}`,
    submit: { form: 'domain-lock', fill: {}, waitFor: 'confirm-registry-lock' },
  },
  { name: 'domain-dns', user: 'admin@acme.example', path: (ids) => `/domains/${ids.zoneDomain}/dns` },
  {
    name: 'domain-dns-refused',
    user: 'admin@acme.example',
    path: (ids) => `/domains/${ids.zoneDomain}/dns`,
    submit: {
      form: 'record-editor',
      fill: { '[data-testid=editor-row]:not([data-saved]) input[name$=".name"]': 'alias', '[data-testid=editor-row]:not([data-saved]) input[name$=".content"]': '192.0.2.159' },
      choose: { '[data-testid=editor-row]:not([data-saved]) select[name$=".type"]': 'CNAME' },
      button: 'preview',
    },
  },
  { name: 'domain-overview-editing', user: 'admin@acme.example', path: (ids) => `/domains/${ids.domain}`, open: 'edit-contacts' },
  { name: 'domain-overview-unset', user: 'admin@acme.example', path: (ids) => `/domains/${ids.quietDomain}`, open: 'edit-contacts' },
  { name: 'domain-dnssec-elsewhere', user: 'admin@acme.example', path: (ids) => `/domains/${ids.quietDomain}/dnssec` },
  { name: 'domain-overview-live-lookup', user: 'admin@acme.example', path: (ids) => `/domains/${ids.quietDomain}?lookup=registry` },
  {
    name: 'domain-dnssec-elsewhere-refused',
    user: 'admin@acme.example',
    path: (ids) => `/domains/${ids.quietDomain}/dnssec`,
    submit: { form: 'ds-form', fill: { 'input[name=key_tag]': '70000', 'input[name=digest]': 'abc' } },
  },
  {
    name: 'domains-add-checked',
    user: 'admin@acme.example',
    path: '/domains/add',
    submit: { form: 'availability-form', fill: { textarea: 'bad name\nacme-new-product.com\nacme-archive.com' }, waitFor: 'availability-row' },
  },
  { name: 'domains-order', user: 'admin@acme.example', path: '/domains/order' },
  { name: 'orders', user: 'admin@acme.example', path: '/domains/orders' },
  { name: 'material-changes', user: 'admin@acme.example', path: '/domains/material-change-requests' },
  { name: 'reconciliation', user: 'admin@acme.example', path: '/domains/reconciliation' },
  { name: 'bind-import', user: 'admin@acme.example', path: '/domains/bind-import' },
  { name: 'dns-search-records', user: 'admin@acme.example', path: '/domains/search/records' },
  { name: 'contacts', user: 'admin@acme.example', path: '/contacts' },
  // The side sheets (issue 28, Look): a new contact's over the list, a contact's details read-only and its edit over them.
  { name: 'contact-new-sheet', user: 'admin@acme.example', path: '/contacts/new' },
  { name: 'contact-detail', user: 'admin@acme.example', path: (ids) => `/contacts/${ids.contact}` },
  { name: 'contact-edit-sheet', user: 'admin@acme.example', path: (ids) => `/contacts/${ids.contact}/edit` },
  { name: 'users', user: 'admin@acme.example', path: '/users' },
  // The invite form's roles by their names from the permission registry (issue 27, item 3), and an invite without a role refused beside them.
  // The invitation and a new service user are sheets over the users list (issue 28, Look).
  { name: 'users-invite', user: 'admin@acme.example', path: '/users/invite' },
  { name: 'users-invite-staff', user: 'staff@example.com', path: '/users/invite' },
  {
    name: 'users-invite-refused',
    user: 'admin@acme.example',
    path: '/users/invite',
    submit: { form: 'user-invite-sheet', fill: { '#invite-email': 'new.person@acme.example', '#invite-name': 'New Person' } },
  },
  { name: 'users-service-user-sheet', user: 'admin@acme.example', path: '/users/service-users/new' },
  { name: 'accounts-staff', user: 'staff@example.com', path: '/accounts' },
  { name: 'account-new-sheet', user: 'staff@example.com', path: '/accounts/new' },
  { name: 'tlds', user: 'admin@acme.example', path: '/tlds' },
  {
    name: 'tld-staff-refused',
    user: 'staff@example.com',
    path: (ids) => `/tlds/${ids.tld}`,
    submit: { form: 'tld-edit', fill: { '#tld-redemption_days': '400', '#tld-list_price': '12.345', '#tld-currency': 'XYZ' } },
  },
  { name: 'products-staff', user: 'staff@example.com', path: '/products' },
  { name: 'products-staff-refused', user: 'staff@example.com', path: '/products', submit: { form: 'cost-upload', fill: {} } },
  { name: 'exchange-rates', user: 'staff@example.com', path: '/invoicing/exchange-rates' },
  { name: 'billing-entities-staff', user: 'staff@example.com', path: '/invoicing/billing-entities' },
  { name: 'billing-entity-staff', user: 'staff@example.com', path: (ids) => `/invoicing/billing-entities/${ids.entity}` },
  { name: 'billing-entity-log-client', user: 'admin@acme.example', path: (ids) => `/invoicing/billing-entities/${ids.entity}/log` },
  { name: 'billing-transactions', user: 'admin@acme.example', path: '/invoicing/transactions' },
  { name: 'ssls', user: 'admin@acme.example', path: '/ssls' },
  { name: 'ssl-organisations', user: 'admin@acme.example', path: '/ssls/organisations' },
  { name: 'ssl-organisations-staff', user: 'staff@example.com', path: '/ssls/organisations' },
  { name: 'ssl-organisation', user: 'admin@acme.example', path: (ids) => `/ssls/organisations/${ids.sslOrganisation}` },
  { name: 'ssl-organisation-staff', user: 'staff@example.com', path: (ids) => `/ssls/organisations/${ids.sslOrganisation}` },
  { name: 'blocks', user: 'admin@acme.example', path: '/blocks' },
  { name: 'blocks-staff', user: 'staff@example.com', path: '/blocks' },
  // The block order, the certificate order and import, and an organisation's add and edit are sheets (issue 28, Look): a label with a dot
  // refused beside it, and each order's one question with the engine's price before it charges.
  { name: 'block-order-sheet', user: 'admin@acme.example', path: '/blocks/order' },
  {
    name: 'block-order-refused',
    user: 'admin@acme.example',
    path: '/blocks/order',
    submit: { form: 'block-order-sheet', fill: { 'input[name=label]': 'acme.com', 'input[name=trademark_ref]': 'TMCH-1234567' } },
  },
  {
    name: 'block-order-confirm',
    user: 'admin@acme.example',
    path: '/blocks/order',
    submit: { form: 'block-order-sheet', fill: { 'input[name=label]': 'acme-shots', 'input[name=trademark_ref]': 'TMCH-1234567' }, waitFor: 'confirm-block-order' },
  },
  { name: 'ssl-order-sheet', user: 'admin@acme.example', path: '/ssls/order' },
  {
    name: 'ssl-order-confirm',
    user: 'admin@acme.example',
    path: '/ssls/order',
    submit: { form: 'ssl-order-sheet', fill: { 'textarea[name=names]': 'www.acme.example' }, waitFor: 'confirm-ssl-order' },
  },
  { name: 'ssl-import-sheet', user: 'admin@acme.example', path: '/ssls/import' },
  { name: 'ssl-organisation-new-sheet', user: 'admin@acme.example', path: '/ssls/organisations/new' },
  { name: 'ssl-organisation-edit-sheet', user: 'admin@acme.example', path: (ids) => `/ssls/organisations/${ids.sslOrganisation}/edit` },
  { name: 'change-sets', user: 'admin@acme.example', path: '/change-sets' },
  { name: 'change-set-new', user: 'admin@acme.example', path: '/change-sets/new' },
  { name: 'change-set-policies', user: 'admin@acme.example', path: '/change-sets/policies' },
  { name: 'change-set-policy-new', user: 'admin@acme.example', path: '/change-sets/policies/new' },
  {
    name: 'change-set-new-refused',
    user: 'admin@acme.example',
    path: '/change-sets/new',
    submit: { form: 'change-set-form', fill: { 'input[name=name]': 'Mail to Google', 'input[name=stages]': '50, 20', 'textarea[name=operations]': 'add www A 192.0.2.1\nchange @ MX' } },
  },
  { name: 'brand-protection', user: 'brand@acme.example', path: '/brand-protection' },
  // Watch (issue 31): the watches, one watch, its case, and a printable report.
  { name: 'watch-list', user: 'brand@acme.example', path: '/watch' },
  { name: 'watch-detail', user: 'brand@acme.example', path: (ids) => `/watch/${ids.watch}` },
  { name: 'watch-domains', user: 'brand@acme.example', path: (ids) => `/watch/${ids.watch}/domains` },
  { name: 'watch-case', user: 'brand@acme.example', path: (ids) => `/watch/${ids.watch}/cases/${ids.watchCase}` },
  { name: 'watch-case-step', user: 'brand@acme.example', path: (ids) => `/watch/${ids.watch}/cases/${ids.watchCase}/step` },
  { name: 'watch-overview-all', user: 'brand@acme.example', path: '/watch/overview' },
  { name: 'watch-report-detail', user: 'brand@acme.example', path: (ids) => `/watch/${ids.watch}/detail-report` },
  // Intelligence (issue 32): the items, Acme's gap matrix and security score as staff read them, the catalogue as the registrar's sales user.
  { name: 'intelligence-items', user: 'staff@example.com', path: '/intelligence' },
  { name: 'intelligence-overview', user: 'staff@example.com', path: (ids) => `/intelligence/${ids.intelligence}` },
  { name: 'intelligence-results', user: 'staff@example.com', path: (ids) => `/intelligence/${ids.intelligence}/results` },
  { name: 'intelligence-score', user: 'staff@example.com', path: (ids) => `/intelligence/${ids.intelligence}/registry-lock-focus` },
  { name: 'intelligence-modules', user: 'sales@registrar.example', path: '/intelligence/modules' },
  { name: 'brand-protection-add', user: 'brand@acme.example', path: '/brand-protection/new' },
  { name: 'brand-protection-import', user: 'brand@acme.example', path: '/brand-protection/import' },
  { name: 'reports', user: 'admin@acme.example', path: '/reports' },
  { name: 'reports-domains', user: 'admin@acme.example', path: '/reports/domains' },
  { name: 'reports-domains-staff', user: 'staff@example.com', path: '/reports/domains' },
  { name: 'reports-dns-records', user: 'admin@acme.example', path: '/reports/dns-records' },
  { name: 'reports-domains-print', user: 'admin@acme.example', path: '/reports/domains/print' },
  { name: 'pulse-admin', user: 'admin@acme.example', path: '/pulse' },
  { name: 'pulse-staff', user: 'staff@example.com', path: '/pulse' },
  { name: 'reports-operations', user: 'staff@example.com', path: '/reports/operations' },
  // The failed background jobs its failed-job figures open (the demo's failed publish), with Retry per row.
  { name: 'reports-operations-failed-jobs', user: 'staff@example.com', path: '/reports/operations/failed-jobs' },
  { name: 'reports-dns', user: 'admin@acme.example', path: '/reports/dns' },
  { name: 'reports-ssls', user: 'admin@acme.example', path: '/reports/ssls' },
  { name: 'reports-renewals-forecast', user: 'admin@acme.example', path: '/reports/renewals-forecast' },
  { name: 'reports-renewals-forecast-staff', user: 'staff@example.com', path: '/reports/renewals-forecast' },
  { name: 'reports-portfolio-activity', user: 'staff@example.com', path: '/reports/portfolio-activity?days=90' },
  { name: 'reports-renewals-forecast-print', user: 'admin@acme.example', path: '/reports/renewals-forecast/print' },
  { name: 'block-detail', user: 'admin@acme.example', path: (ids) => `/blocks/${ids.block}` },
  { name: 'account-webhooks', user: 'admin@acme.example', path: (ids) => `/accounts/${ids.account}/webhooks` },
  { name: 'account-webhook-new-sheet', user: 'admin@acme.example', path: (ids) => `/accounts/${ids.account}/webhooks/new` },
  { name: 'tray', user: 'admin@acme.example', path: '/tray' },
  // The tray's bulk registry lock asks once with each domain's fee and the total (issue 28).
  {
    name: 'tray-lock-confirm',
    user: 'admin@acme.example',
    path: '/tray',
    prepare: async (page) => {
      await page.goto('/domains?sort=name')
      const items = await page
        .getByTestId('domain-link')
        .evaluateAll((links) => links.slice(0, 3).map((a) => `domain|${/\/domains\/([^/?]+)/.exec(a.getAttribute('href') ?? '')?.[1]}|${a.textContent}`))
      await trayPost(page, [...items.map((item) => ['item', item]), ['redirectTo', '/tray']])
    },
    submit: { form: 'bulk-form', fill: {}, check: ['input[name=action][value=lock]'], waitFor: 'confirm-bulk' },
    cleanup: (page) =>
      trayPost(page, [
        ['intent', 'clear'],
        ['entity_type', 'domain'],
        ['redirectTo', '/tray'],
      ]),
  },
  { name: 'domains-log', user: 'admin@acme.example', path: '/domains/log' },
  { name: 'viewer-domains', user: 'viewer@acme.example', path: '/domains' },
  { name: 'my-profile', user: 'admin@acme.example', path: '/my-profile' },
  { name: 'my-profile-token-sheet', user: 'admin@acme.example', path: '/my-profile/api-tokens/new' },
  // An account's details read as text, its form a sheet over them (issue 28, Look).
  { name: 'account-detail', user: 'admin@acme.example', path: (ids) => `/accounts/${ids.account}` },
  { name: 'account-edit-sheet', user: 'admin@acme.example', path: (ids) => `/accounts/${ids.account}/edit` },
  { name: 'client-invoices', user: 'admin@acme.example', path: '/invoicing' },
  { name: 'pricing-entities-staff', user: 'staff@example.com', path: '/invoicing/pricing-entities' },
  { name: 'pricing-rule-new-staff', user: 'staff@example.com', path: '/invoicing/global-pricing-rules/custom' },
  { name: 'account-detail-staff', user: 'staff@example.com', path: (ids) => `/accounts/${ids.account}` },
  { name: 'api-overview', user: '', path: '/api' },
  { name: 'api-context', user: '', path: '/api/context' },
  { name: 'api-reference', user: '', path: '/api/reference?q=ssl%20revoke' },
  { name: 'api-reference-contents', user: '', path: '/api/reference' },
  { name: 'api-reference-area', user: '', path: '/api/reference/ssl-certificates' },
]

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

async function waitReady(base: string, server: ReturnType<typeof spawnServer>) {
  const deadline = Date.now() + 180_000
  for (;;) {
    const status = await fetch(`${base}/readyz`).then(
      (r) => r.status,
      () => 0,
    )
    if (status === 200) return
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`)
    if (Date.now() > deadline) throw new Error('the server was not ready within 180 s')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

async function signedInContext(browser: Browser, base: string, email: string, variant: Variant): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: variant.width, height: variant.height }, deviceScaleFactor: 1, locale: variant.lng })
  const host = new URL(base).hostname
  await context.addCookies([
    { name: 'theme', value: variant.theme, domain: host, path: '/' },
    { name: 'lng', value: variant.lng, domain: host, path: '/' },
  ])
  if (!email) return context
  const page = await context.newPage()
  await page.goto('/login')
  await page.locator('#login-username').fill(email)
  await page.locator('#login-password').fill(PASSWORD)
  await page.locator('#login').getByRole('button').last().click()
  await page.waitForURL((url) => url.pathname !== '/login')
  // Sign-in sets the language of the profile; the variant's wins.
  await context.addCookies([
    { name: 'theme', value: variant.theme, domain: host, path: '/' },
    { name: 'lng', value: variant.lng, domain: host, path: '/' },
  ])
  await page.close()
  return context
}

/** A post to the tray's selection form (/tray/items) as the signed-in user's browser sends it. */
async function trayPost(page: Page, fields: string[][]) {
  const origin = new URL(page.url()).origin
  const response = await page.request.post(`${origin}/tray/items`, {
    data: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    maxRedirects: 0,
  })
  if (response.status() >= 400) throw new Error(`/tray/items answered ${response.status()}`)
  // Its flash shown here, not over the next shot.
  await page.goto(`${origin}/tray`, { waitUntil: 'networkidle' })
}

async function firstIds(page: Page): Promise<Ids> {
  await page.goto('/domains')
  const domainHref = await page.getByTestId('domain-link').first().getAttribute('href')
  // The demo's flagship domain, whose zone the seed fills (the DNS editor's screens).
  await page.goto(`/domains?pql=${encodeURIComponent("name equals 'acme-corp.com'")}`)
  const zoneDomainHref = await page
    .getByTestId('domain-link')
    .first()
    .getAttribute('href')
    .catch(() => null)
  // A demo domain the seed leaves without contacts or tags (the overview's Set contacts).
  await page.goto(`/domains?pql=${encodeURIComponent("name equals 'acme-archive.com'")}`)
  const quietDomainHref = await page
    .getByTestId('domain-link')
    .first()
    .getAttribute('href')
    .catch(() => null)
  await page.goto('/domains/orders')
  const orderHref = await page
    .locator('a[data-row-link]')
    .first()
    .getAttribute('href')
    .catch(() => null)
  await page.goto(`/blocks?pql=${encodeURIComponent("status equals 'active'")}`)
  const blockHref = await page
    .locator('a[data-row-link]')
    .first()
    .getAttribute('href')
    .catch(() => null)
  // The first client's billing entity (a client sees its own only).
  await page.goto('/invoicing/billing-entities')
  const entityHref = await page
    .locator('a[data-row-link]')
    .first()
    .getAttribute('href')
    .catch(() => null)
  // The first SSL organisation the first screen's user sees (Acme's, validated, with its EV details).
  await page.goto('/ssls/organisations')
  const organisationHref = await page
    .locator('a[data-row-link]')
    .first()
    .getAttribute('href')
    .catch(() => null)
  // The first screen's user's own account (the demo's Acme Corp).
  await page.goto('/accounts')
  const accountHref = await page
    .getByRole('link', { name: 'Acme Corp', exact: true })
    .first()
    .getAttribute('href')
    .catch(() => null)
  // The first screen's user's first contact (Acme's, in use).
  await page.goto('/contacts?sort=name')
  const contactHref = await page
    .locator('a[data-row-link]')
    .first()
    .getAttribute('href')
    .catch(() => null)
  // The .com TLD (every user sees the catalogue).
  await page.goto(`/tlds?pql=${encodeURIComponent("name equals 'com'")}`)
  const tldHref = await page
    .locator('a[data-row-link]')
    .first()
    .getAttribute('href')
    .catch(() => null)
  // The demo's intelligence item of Acme's brand, as staff read it (the first screen's user may hold no prospect role).
  const staff = await signedInContext(page.context().browser()!, new URL(page.url()).origin, 'staff@example.com', VARIANTS[0]!)
  const staffPage = await staff.newPage()
  await staffPage.goto('/intelligence?sort=name')
  const intelligenceHref = await staffPage
    .getByRole('link', { name: /^Acme/ })
    .first()
    .getAttribute('href')
    .catch(() => null)
  await staff.close()
  // The demo's watch and its case, as the brand manager reads them.
  const brand = await signedInContext(page.context().browser()!, new URL(page.url()).origin, 'brand@acme.example', VARIANTS[0]!)
  const brandPage = await brand.newPage()
  await brandPage.goto('/watch')
  const caseHref = await brandPage
    .locator('a[href*="/cases/"]')
    .first()
    .getAttribute('href')
    .catch(() => null)
  await brand.close()
  const watchCase = /\/watch\/([^/?]+)\/cases\/([^/?]+)/.exec(caseHref ?? '')
  return {
    watch: watchCase?.[1] ?? 'none',
    watchCase: watchCase?.[2] ?? 'none',
    intelligence: /\/intelligence\/([^/?]+)/.exec(intelligenceHref ?? '')?.[1] ?? 'none',
    tld: /\/tlds\/([^/?]+)/.exec(tldHref ?? '')?.[1] ?? 'none',

    account: /\/accounts\/([^/?]+)/.exec(accountHref ?? '')?.[1] ?? 'none',
    contact: /\/contacts\/([^/?]+)/.exec(contactHref ?? '')?.[1] ?? 'none',
    domain: /\/domains\/([^/?]+)/.exec(domainHref ?? '')?.[1] ?? 'none',
    zoneDomain: /\/domains\/([^/?]+)/.exec(zoneDomainHref ?? '')?.[1] ?? 'none',
    quietDomain: /\/domains\/([^/?]+)/.exec(quietDomainHref ?? '')?.[1] ?? 'none',
    order: orderHref,
    block: /\/blocks\/([^/?]+)/.exec(blockHref ?? '')?.[1] ?? 'none',
    entity: /\/billing-entities\/([^/?]+)/.exec(entityHref ?? '')?.[1] ?? 'none',
    sslOrganisation: /\/ssls\/organisations\/([^/?]+)/.exec(organisationHref ?? '')?.[1] ?? 'none',
  }
}

async function main() {
  if (!args.includes('--no-build')) {
    const built = spawnSync('flock', ['/tmp/e2e.lock', 'npm', 'run', 'build'], { stdio: 'inherit' })
    if (built.status !== 0) throw new Error('the build failed')
  }
  const port = await freePort()
  const work = path.resolve(`data/screenshots-${port}`)
  const dataDir = `${work}/data`
  snapshotBuild(work)
  await prepareDataDir(dataDir, work)
  // A local Pebble CA (when `pebble` is installed), so that the certificate order's sheet shows its form rather than "no CA".
  const server = spawnServer(work, { ...process.env, ...SERVER_ENV, ACME_LOCAL_PEBBLE: '1', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir })
  const base = `http://127.0.0.1:${port}`
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] })
  try {
    await waitReady(base, server)
    mkdirSync(outDir, { recursive: true })
    let ids: Ids | null = null
    const screens = SCREENS.filter((s) => !only || only.split(',').some((o) => s.name.includes(o)))
    for (const variant of VARIANTS) {
      const contexts = new Map<string, BrowserContext>()
      for (const screen of screens) {
        let context = contexts.get(screen.user)
        if (!context) {
          context = await signedInContext(browser, base, screen.user, variant)
          contexts.set(screen.user, context)
        }
        const page = await context.newPage()
        if (!ids && screen.user) ids = await firstIds(page)
        const target = typeof screen.path === 'function' ? screen.path(ids!) : screen.path
        if (screen.prepare) await screen.prepare(page)
        const response = await page.goto(target, { waitUntil: 'networkidle' })
        if (screen.open) await page.getByTestId(screen.open).click()
        if (screen.submit) {
          const form = page.getByTestId(screen.submit.form)
          for (const [selector, value] of Object.entries(screen.submit.fill)) await form.locator(selector).fill(value)
          for (const [selector, value] of Object.entries(screen.submit.choose ?? {})) await form.locator(selector).selectOption(value)
          for (const selector of screen.submit.check ?? []) await form.locator(selector).check()
          await (screen.submit.button ? form.locator(`button[type=submit][value="${screen.submit.button}"]`).last() : form.locator('button[type=submit]')).click()
          await page
            .getByTestId(screen.submit.waitFor ?? 'field-error')
            .first()
            .waitFor()
          // The revalidation after the post done, so that its buttons are drawn idle.
          await page.waitForLoadState('networkidle')
          // The sticky header would stand where the page was scrolled to.
          await page.evaluate(() => window.scrollTo(0, 0))
        }
        const file = path.join(outDir, `${screen.name}-${variant.name}.png`)
        await page.screenshot({ path: file, fullPage: true })
        process.stdout.write(`${response?.status() ?? '?'} ${target} → ${path.relative('.', file)}\n`)
        if (screen.cleanup) await screen.cleanup(page)
        await page.close()
      }
      for (const context of contexts.values()) await context.close()
    }
  } finally {
    await browser.close()
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve))
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
