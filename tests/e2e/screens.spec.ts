import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test, ACME_ADMIN, ACME_VIEWER, hydrated, signedIn, STAFF } from './support.ts'

// Issue 16, "How it is checked": every built screen, as the client admin, the viewer and staff,
// renders without a console error, a page error (hydration included) or a failed asset; the key
// screens have no serious or critical accessibility violation (axe-core); and the home page's
// figures lead to lists that hold as many entries as the figure says.

const LISTS = [
  '/',
  '/domains',
  '/domains/add',
  '/domains/delete',
  '/domains/order',
  '/domains/orders',
  '/domains/log',
  '/domains/dns-log',
  '/domains/contacts',
  '/domains/bind-import',
  '/domains/search',
  '/domains/search/records',
  '/domains/material-change-requests',
  '/domains/reconciliation',
  '/tray',
  '/tray/records',
  '/my-profile',
  '/tlds',
  '/change-sets',
  '/change-sets/new',
  '/change-sets/policies',
  '/change-sets/policies/new',
  '/contacts',
  '/contacts/log',
  '/users',
  '/users/log',
  '/users/authentication-log',
  '/accounts',
  '/accounts/log',
]
/** From a list, the first row's page and the tabs below it. */
const DETAILS: { list: string; tabs: string[] }[] = [
  { list: '/domains', tabs: ['', '/log', '/orders', '/dns', '/dnssec', '/dns-log', '/dns-statistics'] },
  { list: '/contacts', tabs: ['', '/log', '/registry-handles'] },
  { list: '/users', tabs: ['', '/log', '/authentication-log'] },
  { list: '/accounts', tabs: ['', '/log', '/webhooks'] },
  { list: '/tlds', tabs: [''] },
  { list: '/domains/orders', tabs: [''] },
  { list: '/domains/material-change-requests', tabs: [''] },
  { list: '/ssls', tabs: ['', '/log', '/files', '/validation', '/transactions'] },
]

type Trouble = string[]

/** Listens to a page for what must not happen; returns the list it fills. */
function watch(page: Page, refused: Set<string>): Trouble {
  const trouble: Trouble = []
  page.on('pageerror', (error) => trouble.push(`page error on ${page.url()}: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    // A screen the user may not open answers 403 by design; Chromium reports the document's status.
    if (/Failed to load resource/.test(message.text()) && refused.has(message.location().url)) return
    trouble.push(`console error on ${page.url()}: ${message.text()}`)
  })
  page.on('requestfailed', (request) => {
    // What the next navigation cancelled (a data request, a module preload) did not fail; an
    // asset that is missing answers 404, which the response check below reports.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return
    trouble.push(`request failed on ${page.url()}: ${request.url()} ${request.failure()?.errorText ?? ''}`)
  })
  page.on('response', (response) => {
    const type = response.request().resourceType()
    if (type !== 'document' && type !== 'fetch' && response.status() >= 400) trouble.push(`${response.status()} for ${type} ${response.url()} on ${page.url()}`)
  })
  return trouble
}

/**
 * Waits until React owns the page: its forms (the shell's sign-out form is on every signed-in
 * screen) carry React's props, so hydration, and whatever error it reports, is over; a screen
 * without a form is done at network idle.
 */
async function settled(page: Page) {
  await page.waitForLoadState('load')
  if ((await page.locator('form').count()) > 0) await hydrated(page)
  else await page.waitForLoadState('networkidle')
}

/** Opens a screen and waits until React owns it; returns the document's status. */
async function visit(page: Page, path: string, refused: Set<string>): Promise<number> {
  const response = await page.goto(path)
  const status = response?.status() ?? 0
  if (status === 403) refused.add(page.url())
  expect(status, `GET ${path}`).toBeLessThan(500)
  await settled(page)
  return status
}

async function passOver(page: Page): Promise<{ trouble: Trouble; visited: string[]; refused: string[] }> {
  const refused = new Set<string>()
  const trouble = watch(page, refused)
  const visited: string[] = []
  for (const path of LISTS) visited.push(`${path} ${await visit(page, path, refused)}`)
  for (const { list, tabs } of DETAILS) {
    if ((await visit(page, list, refused)) !== 200) continue
    const first = page.locator('a[data-row-link]').first()
    if ((await first.count()) === 0) continue
    // The row link a person clicks, then each tab of the page it opens.
    await first.click()
    await page.waitForURL((url) => url.pathname !== list)
    await settled(page)
    const base = new URL(page.url()).pathname
    for (const tab of tabs) visited.push(`${base}${tab} ${await visit(page, `${base}${tab}`, refused)}`)
  }
  return { trouble, visited, refused: [...refused] }
}

for (const [who, email] of [
  ['the client admin', ACME_ADMIN],
  ['the viewer', ACME_VIEWER],
  ['staff', STAFF],
] as const) {
  test.describe(`every built screen as ${who}`, () => {
    test.use({ storageState: signedIn(email) })

    test('renders without a console error, a page error or a failed asset', async ({ page }) => {
      test.setTimeout(240_000)
      const { trouble, visited, refused } = await passOver(page)
      await test.info().attach('screens', { body: visited.join('\n'), contentType: 'text/plain' })
      expect(visited.length).toBeGreaterThan(LISTS.length + 10)
      expect(trouble).toEqual([])
      // The admin and staff may open every screen (the viewer is refused the changing ones: 403, no error).
      if (email !== ACME_VIEWER) expect(refused).toEqual([])
    })
  })
}

test.describe('accessibility of the key screens', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('no serious or critical axe-core violation, light and dark', async ({ page }) => {
    test.setTimeout(180_000)
    await page.goto('/domains')
    const domain = await page.getByTestId('domain-link').first().getAttribute('href')
    const screens = ['/', '/domains', domain!, `${domain!}/dns`, '/domains/orders', '/domains/material-change-requests', '/contacts', '/contacts/new', '/users', '/tlds']
    const found: string[] = []
    for (const theme of ['light', 'dark']) {
      await page.context().addCookies([{ name: 'theme', value: theme, url: page.url() }])
      for (const path of screens) {
        await page.goto(path)
        await settled(page)
        const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
        for (const violation of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
          found.push(
            `${theme} ${path}: ${violation.id} (${violation.impact}) — ${violation.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(' | ')}`,
          )
        }
      }
    }
    expect(found).toEqual([])
  })

  test('the sign-in page has none either', async ({ browser }) => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } })
    const page = await context.newPage()
    await page.goto('/login')
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
    await context.close()
  })
})

test.describe('the home page', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('each figure of expiring domains leads to the list filtered the same way, as many entries as it says', async ({ page }) => {
    await page.goto('/')
    await hydrated(page)
    await expect(page.getByTestId('home-expiring')).toBeVisible()
    for (const days of [30, 60, 90]) {
      await page.goto('/')
      const all = page.getByTestId(`home-expiring-${days}`).getByTestId('home-expiring-all')
      const count = Number(/\d+/.exec((await all.textContent()) ?? '')?.[0])
      await all.click()
      await expect(page).toHaveURL(/\/domains\?.*pql=expires_at\+between/)
      if (count === 0) await expect(page.getByTestId('list-empty')).toBeVisible()
      else await expect(page.getByTestId('list-total')).toHaveText(count === 1 ? '1 entry' : `${count} entries`)
      // The filter shows as a chip the person can remove.
      await expect(page.getByTestId('filter-chip')).toHaveCount(1)
    }
  })

  test('the viewer sees the figures too, and the recent activity of the account', async ({ browser }) => {
    const context = await browser.newContext({ storageState: signedIn(ACME_VIEWER) })
    const page = await context.newPage()
    await page.goto('/')
    await expect(page.getByTestId('home-expiring')).toBeVisible()
    await expect(page.getByTestId('home-orders')).toBeVisible()
    await expect(page.getByTestId('home-activity')).toBeVisible()
    await context.close()
  })
})
