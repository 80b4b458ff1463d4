import { expect, test, ACME_ADMIN, hydrated, pageProblems, signedIn, unique } from './support.ts'

// Issue 28, item 12: on a 390 px phone every list keeps all its columns — each row becomes a card
// of "label: value" lines (the list engine's table, app.css card-rows) — and no page grows wider
// than the phone (/my-profile's tokens table reached 607 px).

/** The label a card row's cell shows before its value (its ::before, from data-label). */
const labelOf = (cell: import('@playwright/test').Locator) => cell.evaluate((td) => getComputedStyle(td, '::before').content.replace(/^"|"$/g, ''))
const pageWidth = (page: import('@playwright/test').Page) => page.evaluate(() => document.scrollingElement!.scrollWidth)

test.describe('lists on a phone', () => {
  test.use({ storageState: signedIn(ACME_ADMIN), viewport: { width: 390, height: 844 } })

  test('a domain is a card with its expiry, a charge a card with its amount, and neither page scrolls sideways', async ({ page }) => {
    const problems = pageProblems(page)
    await page.goto('/domains')
    const domain = page.getByTestId('data-row').first()
    // The headers are for screen readers only; each cell says what it is.
    await expect(page.getByTestId('data-table').locator('thead')).not.toBeInViewport()
    const expires = domain.locator('td[data-label="Expires"]')
    await expect(expires).toBeInViewport()
    await expect(expires).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/)
    expect(await labelOf(expires)).toBe('Expires')
    expect(await pageWidth(page)).toBeLessThanOrEqual(390)

    await page.goto('/invoicing')
    await page.getByRole('link', { name: 'Transactions', exact: true }).first().click()
    await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible()
    const amount = page.getByTestId('data-row').first().locator('td[data-label="Amount"]')
    await expect(amount).toBeInViewport()
    // The one money form: "$63.98", never "USD 63.98".
    await expect(amount).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/)
    expect(await labelOf(amount)).toBe('Amount')
    expect(await pageWidth(page)).toBeLessThanOrEqual(390)
    expect(problems()).toEqual([])
  })

  test('my profile with a token in its table fits the phone', async ({ page }) => {
    const problems = pageProblems(page)
    const name = `e2e phone token with a rather long name ${unique()}`
    await page.goto('/my-profile')
    await hydrated(page)
    const card = page.getByTestId('api-tokens')
    await card.getByTestId('token-new-open').click()
    const sheet = page.getByTestId('token-sheet')
    await sheet.getByLabel('Name').fill(name)
    await sheet.getByTestId('token-permission-domain-viewer').getByRole('checkbox').check()
    await sheet.getByRole('button', { name: 'Create token' }).click()
    await expect(sheet.getByTestId('token-secret')).toBeVisible()
    // The sheet and its secret fit the phone too.
    expect(await pageWidth(page)).toBeLessThanOrEqual(390)
    // Closed, the sheet leaves the profile where it was, its list now holding the token.
    await sheet.getByTestId('sheet-cancel').click()
    await page.waitForURL((url) => url.pathname === '/my-profile')
    const row = card.locator('tr', { hasText: name })
    await row.scrollIntoViewIfNeeded()
    await expect(row).toBeInViewport()
    expect(await pageWidth(page)).toBeLessThanOrEqual(390)
    // Its expiry is on the card, named.
    const expires = row.locator('td[data-label="Expires"]')
    await expect(expires).toBeInViewport()
    expect(await labelOf(expires)).toBe('Expires')

    // The token made here is revoked again.
    await row.getByText('Revoke', { exact: true }).click()
    await row.getByRole('button', { name: 'Revoke token' }).click()
    await expect(page.getByText('Token revoked')).toBeVisible()
    expect(await pageWidth(page)).toBeLessThanOrEqual(390)
    expect(problems()).toEqual([])
  })
})
