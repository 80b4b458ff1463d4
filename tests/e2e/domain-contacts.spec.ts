import { expect, test, ACME_ADMIN, ACME_VIEWER, pageProblems, signedIn } from './support.ts'

// Issue 16 item 5: a viewer on /domains/contacts saw a greyed form and no reason. Controls a user
// cannot use are not offered; the page says why, in the user's language.

test.describe('changing domain contacts as the Acme viewer', () => {
  test.use({ storageState: signedIn(ACME_VIEWER) })

  test('is not offered, and the page says why', async ({ page }) => {
    const problems = pageProblems(page)
    // The list offers a viewer no way there; a link someone shared still leads to the page.
    await page.goto('/domains')
    await expect(page.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
    // The list's secondary actions are in its ⋯ menu: open, it has no Change contacts for a viewer.
    const menu = page.getByTestId('header-menu')
    await menu.locator('summary', { hasText: 'More actions' }).click()
    await expect(menu.getByRole('link').first()).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Change contacts' })).toHaveCount(0)
    await page.goto('/domains/contacts')
    await expect(page.getByRole('heading', { level: 1, name: 'Change contacts' })).toBeVisible()
    await expect(page.getByTestId('read-only')).toHaveText(
      "You can see the domains and contacts of this account, but changing a domain's contacts needs the domain manager role. An administrator of your account can give it to you.",
    )
    await expect(page.getByRole('button', { name: 'Change contacts' })).toHaveCount(0)
    await expect(page.getByLabel('Domain names (one per line)')).toHaveCount(0)
    expect(problems()).toEqual([])
  })
})

test.describe('adding and deleting domains as the Acme viewer', () => {
  test.use({ storageState: signedIn(ACME_VIEWER) })

  test('offer no form that ends in access denied, and say why', async ({ page }) => {
    const note = "You can see this account's domains, but adding or deleting domains needs the domain manager role. An administrator of your account can give it to you."
    await page.goto('/domains/add')
    await expect(page.getByRole('heading', { level: 1, name: 'Add domains' })).toBeVisible()
    await expect(page.getByTestId('read-only')).toHaveText(note)
    await expect(page.getByRole('button', { name: 'Check availability' })).toHaveCount(0)
    // Deleting: the preview stays (it only reads), the deletion is not offered, and the page says why.
    await page.goto('/domains/delete')
    await expect(page.getByTestId('read-only')).toHaveText(note)
    await page.getByTestId('delete-names').fill('acme-archive.com')
    await page.getByRole('button', { name: 'Show what will happen' }).click()
    await expect(page.getByTestId('delete-plan')).toContainText('acme-archive.com')
    await expect(page.getByTestId('delete-submit')).toHaveCount(0)
  })
})

test.describe('changing domain contacts as the Acme admin', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('is offered, without the read-only note', async ({ page }) => {
    await page.goto('/domains')
    const menu = page.getByTestId('header-menu')
    await menu.locator('summary', { hasText: 'More actions' }).click()
    await menu.getByRole('link', { name: 'Change contacts' }).click()
    await expect(page).toHaveURL(/\/domains\/contacts$/)
    await expect(page.getByRole('button', { name: 'Change contacts' })).toBeEnabled()
    await expect(page.getByLabel('Domain names (one per line)')).toBeVisible()
    await expect(page.getByTestId('read-only')).toHaveCount(0)
  })
})
