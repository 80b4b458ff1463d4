import { expect, test, ACME_ADMIN, ACME_VIEWER, hydrated, signedIn } from './support.ts'

// Issue 28, Look: every list's toolbar has a search box (its text a "name contains" filter in the
// list's query, so the address can be shared), and the domain list has one primary action with the
// others behind a "⋯" menu that opens without JavaScript too.

test.describe('the list search box', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('narrows the domain list to names holding the text, and an emptied box lists them all again', async ({ page }) => {
    await page.goto('/domains')
    await hydrated(page)
    const firstName = (await page.getByTestId('domain-link').first().textContent())!.trim()
    // A part of a name that is not the whole list: the name without its TLD.
    const part = firstName.slice(0, firstName.indexOf('.'))
    const search = page.getByTestId('list-search').getByRole('searchbox', { name: 'Search by domain' })
    await search.fill(part)
    await search.press('Enter')
    await expect(page).toHaveURL(/pql=name\+contains\+%27/)
    // The chip is the new page's: its rows are drawn with it.
    await expect(page.getByTestId('filter-chip')).toHaveCount(1)
    const names = await page.getByTestId('domain-link').allTextContents()
    expect(names.length).toBeGreaterThan(0)
    for (const name of names) expect(name).toContain(part)
    // The box shows what it searched for; emptied, the filter goes.
    await expect(search).toHaveValue(part)
    await search.fill('')
    await search.press('Enter')
    await expect(page.getByTestId('filter-chip')).toHaveCount(0)
    await expect(page).not.toHaveURL(/pql=/)
    await expect(page.getByTestId('list-total')).toBeVisible()
  })

  test('is in the toolbar of other lists: contacts', async ({ page }) => {
    await page.goto('/contacts')
    await hydrated(page)
    const search = page.getByTestId('list-search').getByRole('searchbox')
    await expect(search).toBeVisible()
    await search.fill('zz-no-contact-is-called-this')
    await search.press('Enter')
    await expect(page.getByTestId('list-empty')).toBeVisible()
    await page.getByTestId('filter-clear').click()
    await expect(page.getByTestId('data-row').first()).toBeVisible()
  })
})

test.describe('the domain list’s actions', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('one primary action, the others in the ⋯ menu, which leads to them and closes on Escape', async ({ page }) => {
    await page.goto('/domains')
    await hydrated(page)
    const header = page.getByTestId('page-header')
    await expect(header.getByRole('link', { name: 'Add domains' })).toBeVisible()
    await expect(header.getByRole('link', { name: 'Delete domains' })).toBeHidden()
    const menu = page.getByTestId('header-menu')
    await menu.locator('summary', { hasText: 'More actions' }).click()
    await expect(menu.getByRole('link', { name: 'Delete domains' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(menu.getByRole('link', { name: 'Delete domains' })).toBeHidden()
    await menu.locator('summary', { hasText: 'More actions' }).click()
    await menu.getByRole('link', { name: 'Domain log' }).click()
    await expect(page).toHaveURL(/\/domains\/log/)
  })
})

test.describe('the ⋯ menu without JavaScript', () => {
  test.use({ storageState: signedIn(ACME_VIEWER), javaScriptEnabled: false })

  test('opens and leads on; a viewer finds no action that changes domains', async ({ page }) => {
    await page.goto('/domains')
    const menu = page.getByTestId('header-menu')
    await menu.locator('summary', { hasText: 'More actions' }).click()
    await expect(menu.getByRole('link', { name: 'Search domains' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Delete domains' })).toHaveCount(0)
    await menu.getByRole('link', { name: 'Search domains' }).click()
    await expect(page).toHaveURL(/\/domains\/search/)
  })
})
