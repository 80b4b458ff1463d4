import { expect, test, ACME_ADMIN, hydrated, ownSignedInUser, pageProblems, unique } from './support.ts'

// Brand protection (issue 30): a brand manager opens the area from the menu, adds a brand, sees its
// lookalikes, checks them (a fresh name is available, at the account's price) and puts one in the cart;
// the feeds' new findings are said above the list and shown alone on a click.
test.describe('brand protection', () => {
  ownSignedInUser('brand', { by: ACME_ADMIN, roles: ['brand-admin', 'domain-manager'] })

  test('adds a brand, checks its lookalikes and puts an available one in the cart', async ({ page }) => {
    const label = `e2ebrand${unique()}`
    const problems = pageProblems(page)
    await page.goto('/')
    await page.getByRole('link', { name: 'Brand protection' }).first().click()
    await expect(page.getByRole('heading', { level: 1, name: 'Brand protection' })).toBeVisible()
    await hydrated(page)
    await page.getByTestId('brand-add-open').click()
    const form = page.locator('form#brand-add')
    await form.getByLabel('Brand', { exact: true }).fill(label)
    await form.getByLabel('Protected domains').fill(`${label}.com`)
    await form.getByLabel('Fuzzers').fill('omission')
    // The form is a sheet over the screen (/brand-protection/new), its button in the sheet's foot.
    await page.getByTestId('brand-sheet').getByRole('button', { name: 'Add the brand' }).click()
    await expect(page.getByText(`${label} is protected: its lookalikes are listed below.`)).toBeVisible()
    // Its omissions: one a letter, a doubled letter's two omissions being one name.
    const omissions = new Set([...label].map((_, i) => label.slice(0, i) + label.slice(i + 1)))
    await expect(page.getByTestId(`brand-${label}`)).toContainText(String(omissions.size))

    // One of its omissions, found by the list's filter like any list.
    const omitted = `${label.slice(1)}.com`
    await page.goto(`/brand-protection?pql=${encodeURIComponent(`name equals '${omitted}'`)}`)
    await expect(page.getByTestId('data-row').filter({ hasText: omitted })).toContainText('Not checked')
    await hydrated(page)
    await page.getByTestId('brand-check').click()
    const row = page.getByTestId('data-row').filter({ hasText: omitted })
    await expect(row).toContainText('Available')
    await hydrated(page)
    await row.getByRole('button', { name: `Add ${omitted} to the cart` }).click()
    await expect(page.getByText(`${omitted} is in your cart.`)).toBeVisible()

    // The demo's Certificate Transparency findings (its first start logs lookalike certificates in
    // the local CT log and runs the monitor): said new above the list, shown alone on a click, each
    // flagged beside its name with what the log said of it.
    await page.goto('/brand-protection')
    await expect(page.getByTestId('brand-news')).toContainText('new since the last run of the feeds')
    await page.getByTestId('brand-news-toggle').click()
    const found = page.getByTestId('data-row').filter({ hasText: 'acme-login.com' })
    await expect(found.getByTestId('candidate-new')).toBeVisible()
    await expect(found).toContainText('1 certificate')
    await expect(found).toContainText('Registered by others')
    await expect(page.getByTestId('data-row').filter({ hasText: 'unrelated-shop.net' })).toHaveCount(0)
    expect(problems()).toEqual([])
  })
})
