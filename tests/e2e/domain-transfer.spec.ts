import { expect, test, ACME_ADMIN, CLIENT_ADMIN_ROLES, hydrated, ownSignedInUser } from './support.ts'

// Issue 28, item 16: a transfer in that succeeds in the demo. Another registrar at the embedded
// registry holds acme-rockets.com with the auth code the README gives (server/seed/registry.ts,
// DEMO_TRANSFER) and approves a transfer of it a few seconds after it is asked. Each e2e server
// starts from the seeded template, so the name is the other registrar's when this spec begins.
const NAME = 'acme-rockets.com'
const AUTH_CODE = 'Rocket-Transfer-2026'

test.describe('a transfer in', () => {
  ownSignedInUser('transfer', { by: ACME_ADMIN, roles: CLIENT_ADMIN_ROLES })

  test("an Acme admin transfers the other registrar's name in with its auth code and sees it completed and in the portfolio", async ({ page }) => {
    await page.goto('/domains/add')
    await expect(page.getByRole('heading', { level: 1, name: 'Add domains' })).toBeVisible()
    await page.getByRole('link', { name: 'Transfer in', exact: true }).click()
    await expect(page).toHaveURL(/mode=transfer/)
    await hydrated(page)
    const form = page.locator('#transfer-form')
    await form.getByRole('textbox').first().fill(NAME)
    await form.getByLabel('Auth code').fill(AUTH_CODE)
    await form.getByRole('button', { name: 'Add transfer to cart' }).click()
    await expect(page).toHaveURL(/\/domains\/order/)
    const row = page.getByTestId('cart-row').filter({ hasText: NAME })
    await expect(row).toBeVisible()

    await hydrated(page)
    await page.getByRole('button', { name: 'Place order' }).click()
    await page.waitForURL(/\/domains\/orders\/[0-9a-f-]{36}/)
    const item = page.getByTestId('order-item').filter({ hasText: NAME })
    await expect(item).toBeVisible()
    // The page follows the transfer by itself: asked, approved by the other registrar, recorded.
    await expect(item.getByTestId('item-state')).toHaveText('Completed', { timeout: 60_000 })
    await item.getByText(/^Log/).click()
    await expect(item.getByText(/Transferred in/)).toBeVisible()

    await item.getByRole('link', { name: NAME }).click()
    await expect(page.getByTestId('domain-name')).toHaveText(NAME)
  })
})
