import { gzipSync } from 'node:zlib'
import type { Page } from '@playwright/test'
import { expect, test, ACME_ADMIN, CLIENT_ADMIN_ROLES, hydrated, newDomains, ownSignedInUser, signedIn, unique } from './support.ts'

// Demo domains these tests only read (server/seed/demo.ts; no spec changes them): active .com
// registrations of years ago, expiring months from now, auto-renew off, no zone, never ordered
// (QUIET_DEMO_DOMAINS).
const UNTOUCHED = 'acme-archive.com'
const UNTOUCHED_TOO = 'acme-legacy.com'
const byName = (name: string) => `pql=${encodeURIComponent(`name equals '${name}'`)}`

async function addFilter(page: Page, field: string, op: string, value: string, value2?: string) {
  const builder = page.getByTestId('filter-builder')
  // The builder sits behind the list's one Filter button, closed again once the page of the last
  // filter applied renders (which may follow the URL by a moment): open it until it stays open.
  const fieldSelect = builder.locator('select[name="f_field"]')
  // The field and operator are chosen again if the panel was drawn anew meanwhile.
  await expect(async () => {
    if (!(await fieldSelect.isVisible())) await page.getByTestId('filter-toggle').click()
    await fieldSelect.selectOption(field, { timeout: 1_000 })
    await builder.locator('select[name="f_op"]').selectOption(op, { timeout: 1_000 })
  }).toPass({ timeout: 20_000 })
  await builder.locator('[name="f_value"]').fill(value)
  if (value2 !== undefined) await builder.locator('input[name="f_value2"]').fill(value2)
  await builder.getByRole('button').click()
}

test.describe('domain portfolio', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('filter by name and expiry range, sort, and the URL shows the same rows in a fresh browser', async ({ page, browser }) => {
    await page.goto('/domains')
    await expect(page.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
    await hydrated(page)
    await addFilter(page, 'name', 'contains', 'acme-a')
    await expect(page).toHaveURL(/pql=name/)
    // The list drawn for that filter (its count on the Filter button) before the next is added.
    await expect(page.getByTestId('filter-toggle')).toContainText('1')
    // The demo's expiries are relative to today: the next three years hold most of them.
    const day = (years: number) => new Date(Date.now() + years * 365 * 86_400_000).toISOString().slice(0, 10)
    await addFilter(page, 'expires_at', 'between', day(0), day(3))
    await expect(page).toHaveURL(/expires_at/)
    await page.getByRole('columnheader', { name: 'Expires' }).getByRole('link').click()
    await expect(page).toHaveURL(/sort=expires_at/)
    await page.getByRole('columnheader', { name: 'Expires' }).getByRole('link').click()
    await expect(page).toHaveURL(/sort=-expires_at/)
    await expect(page.getByTestId('data-row').first()).toBeVisible()
    const url = new URL(page.url())

    // A fresh browser context holding only the session: no list memory, no client state.
    const state = await page.context().storageState()
    const context = await browser.newContext({ storageState: { cookies: state.cookies.filter((c) => c.name === '__session' || c.name === 'portal_tab_session'), origins: [] } })
    const fresh = await context.newPage()
    await fresh.goto(url.pathname + url.search)
    await expect(fresh.getByTestId('data-row').first()).toBeVisible()
    const rows = await fresh.getByTestId('data-row').allTextContents()
    expect(rows.length).toBeGreaterThan(1)
    for (const row of rows) expect(row).toContain('acme-a')
    // The page that built the filter shows exactly the same rows, in the same order. (It reloads
    // first: background jobs of the demo, such as reconciliation, may move an expiry meanwhile.)
    await page.reload()
    await expect(page.getByTestId('data-row')).toHaveText(rows)
    await context.close()
  })

  test('open a domain, its tabs, reveal the auth code', async ({ page }) => {
    await page.goto(`/domains?${byName(UNTOUCHED)}`)
    await page.getByTestId('domain-link').filter({ hasText: UNTOUCHED }).click()
    await expect(page.getByTestId('domain-name')).toHaveText(UNTOUCHED)
    await expect(page.getByTestId('domain-expires')).not.toHaveText('')
    await expect(page.getByTestId('contact-registrant')).toBeVisible()
    const detail = page.url()

    const tabs = page.getByTestId('domain-tabs')
    await tabs.getByRole('link', { name: 'Log', exact: true }).click()
    await expect(page).toHaveURL(/\/log$/)
    await expect(page.getByTestId('data-table')).toBeVisible()
    // The domain has no zone and was never ordered: each tab says what it is about in its way.
    const shows = { DNS: 'no-zone', DNSSEC: 'no-zone', Orders: 'domain-orders-empty', 'DNS log': 'no-zone', 'DNS statistics': 'no-zone', Transactions: 'list-empty' }
    for (const [tab, testId] of Object.entries(shows)) {
      await tabs.getByRole('link', { name: tab, exact: true }).click()
      await expect(page.getByTestId(testId)).toBeVisible()
      await expect(page.getByTestId('domain-name')).toHaveText(UNTOUCHED)
    }
    await tabs.getByRole('link', { name: 'Overview' }).click()
    await expect(page).toHaveURL(detail)
    await hydrated(page)
    await page.getByTestId('show-auth-code').click()
    await expect(page.getByTestId('auth-code')).toHaveText(/\S{6,}/)
  })

  test('bring names under management by paste: each line settles with its own answer', async ({ page }) => {
    await page.goto('/domains/add?mode=import')
    // A name nobody registered (the registry does not know it), a name that cannot be one, and a
    // name the portfolio already holds.
    const unknown = `e2e-import-${Date.now()}.com`
    await expect(async () => {
      await page.getByTestId('import-names').fill(`${unknown}\nbad--name-.com\n${UNTOUCHED}`)
      await page.getByTestId('import-submit').click()
      await expect(page).toHaveURL(/job=/, { timeout: 3000 })
    }).toPass()
    // The job finishes: every line answered, none of them taken in.
    await expect(page.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed', { timeout: 60_000 })
    await expect(page.getByTestId('job-state')).toHaveText('3 of 3 done — finished')
    const results = page.getByTestId('bulk-result')
    await expect(results).toHaveCount(3)
    const expected = [
      [unknown, `The registry does not know ${unknown} (Object does not exist)`],
      ['bad--name-.com', 'A label starts or ends with a hyphen: bad--name-.com'],
      [UNTOUCHED, 'Already in this portfolio'],
    ]
    for (const [i, [name, answer]] of expected.entries()) {
      await expect(results.nth(i)).toHaveAttribute('data-ok', 'false')
      await expect(results.nth(i)).toContainText(name!)
      await expect(results.nth(i).locator('td').last()).toHaveText(answer!)
    }
  })

  test('the delete flow shows what happens to each domain before confirming', async ({ page }) => {
    // One registration of the test's own, days old (within .com's 5-day add grace), and one of years ago.
    const [fresh] = await newDomains(ACME_ADMIN, [`e2e-delete-${Date.now().toString(36)}.com`])
    await page.goto('/domains/delete')
    // Typing before hydration can be lost: retry until the preview is asked for.
    await expect(async () => {
      await page.getByTestId('delete-names').fill([fresh!.name, UNTOUCHED_TOO].join('\n'))
      await page.getByRole('button', { name: 'Show what will happen' }).click()
      await expect(page).toHaveURL(/names=[a-z]/, { timeout: 2000 })
    }).toPass()
    const rows = page.getByTestId('delete-plan-row')
    await expect(rows).toHaveCount(2)
    await expect(rows.filter({ hasText: fresh!.name }).getByTestId('delete-consequence')).toHaveText('Deleted at once and the registration refunded (within the 5-day add grace period).')
    await expect(rows.filter({ hasText: UNTOUCHED_TOO }).getByTestId('delete-consequence')).toHaveText(
      'Enters redemption for 30 days (it can be restored, for a fee), then pending delete for 5 days, then it is released.',
    )
    // Nothing is deleted before the confirmation is ticked.
    await expect(page.getByTestId('delete-outcomes')).toHaveCount(0)
    await expect(page.getByTestId('delete-confirm')).not.toBeChecked()
  })

  test('the first load of /domains ships at most 150 KB of JavaScript, gzipped', async ({ browser }) => {
    // 148.7 KB (was 230.5, then 160.8, then 150.0): only the active language's texts ship, zod left the root, the
    // error screen is lazy, dates use Intl instead of dayjs, cn() is our own small merge instead of
    // tailwind-merge, and the first load's icons are one cached SVG sprite (app/components/icon.tsx), not lucide's components. What remains is React DOM 64.8, React Router 42.7, i18next 15.8 and the screens.
    const context = await browser.newContext({ storageState: signedIn(ACME_ADMIN) })
    const fresh = await context.newPage()
    const scripts: Promise<{ url: string; gzip: number }>[] = []
    fresh.on('response', (response) => {
      const url = response.url()
      if (response.request().resourceType() === 'script' || url.endsWith('.js')) scripts.push(response.body().then((b) => ({ url: new URL(url).pathname, gzip: gzipSync(b).length })))
    })
    await fresh.goto('/domains')
    await expect(fresh.getByTestId('data-row').first()).toBeVisible()
    await fresh.waitForLoadState('networkidle')
    const sizes = await Promise.all(scripts)
    const total = sizes.reduce((sum, s) => sum + s.gzip, 0)
    test.info().annotations.push({ type: 'js-gzip-bytes', description: String(total) })
    // Which files, largest first, so a failure says where the weight came from (compare `npm run budget:js`).
    for (const s of sizes.toSorted((a, b) => b.gzip - a.gzip)) console.log(`${(s.gzip / 1024).toFixed(1).padStart(6)} KB  ${s.url}`)
    console.log(`first load of /domains: ${sizes.length} scripts, ${(total / 1024).toFixed(1)} KB gzipped`)
    expect(total).toBeLessThanOrEqual(150 * 1024)
    await context.close()
  })
})

test.describe('adding domains (issue 28, item 10)', () => {
  // A user of this file's own: the names it puts in the cart are in no other spec's cart.
  ownSignedInUser('domains-add', { by: ACME_ADMIN, roles: CLIENT_ADMIN_ROLES })

  test('a name with a space is one refused name, nothing is ticked for the user, and the cart asks an auth code only for a transfer', async ({ page }) => {
    const free = `e2e-add-${unique()}.com`.toLowerCase()
    await page.goto('/domains')
    await hydrated(page)
    await page.getByRole('link', { name: 'Add domains' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Add domains' })).toBeVisible()
    await hydrated(page)
    await page.getByTestId('availability-names').fill(`bad name\n${free}`)
    await page.getByRole('button', { name: 'Check availability' }).click()
    const rows = page.getByTestId('availability-row')
    await expect(rows).toHaveCount(2)
    await expect(rows.nth(0)).toContainText('bad name')
    await expect(rows.nth(0).getByTestId('availability-reason')).toHaveText('A domain name has no spaces: write it without them, or put each name on its own line')
    await expect(rows.nth(1)).toContainText(free)
    await expect(rows.nth(1)).toContainText('Available')
    // The portal's table, with nothing ticked until the user chooses.
    await expect(page.getByTestId('availability-results').locator('table thead th')).toHaveCount(4)
    const tick = rows.nth(1).getByRole('checkbox', { name: `Put ${free} in the cart` })
    await expect(tick).not.toBeChecked()
    await expect(rows.nth(0).getByRole('checkbox')).toHaveCount(0)
    await page.getByRole('button', { name: 'Add to cart' }).click()
    await expect(page.getByTestId('availability-results').getByTestId('field-error')).toHaveText('Tick the names to put in the cart.')
    await expect(rows).toHaveCount(2)
    await hydrated(page)
    await rows.nth(1).getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Add to cart' }).click()
    await page.waitForURL((url) => url.pathname === '/domains/order')
    await expect(page.getByText('1 name added to the cart.')).toBeVisible()
    await expect(page.getByTestId('cart-row').filter({ hasText: free })).toBeVisible()

    // The cart's add form: Register asks no auth code; Transfer in does.
    await hydrated(page)
    await expect(page.getByLabel('Order type')).toHaveValue('register')
    await expect(page.getByLabel('Auth code')).toBeHidden()
    await page.getByLabel('Order type').selectOption('transfer')
    await expect(page.getByLabel('Auth code')).toBeVisible()
    await page.getByLabel('Order type').selectOption('register')
    await expect(page.getByLabel('Auth code')).toBeHidden()
  })
})
