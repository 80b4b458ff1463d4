import { expect, test, ACME_ADMIN, CLIENT_ADMIN_ROLES, hydrated, ownSignedInUser, signedIn } from './support.ts'

test.describe('the orders tab', () => {
  // The cart is the user's: an Acme user of the test's own orders.
  ownSignedInUser('domains-extra', { by: ACME_ADMIN, roles: CLIENT_ADMIN_ROLES })

  test('the orders tab of a domain lists the order that registered it, and only that one', async ({ page }) => {
    const name = `e2e-tab-${Date.now().toString(36)}.com`
    await page.goto('/domains/order')
    await hydrated(page)
    await page.getByLabel('Domain name').fill(name)
    await page.getByLabel('Order type').selectOption('register')
    await page.getByLabel('Period').first().selectOption('1')
    await page.getByRole('button', { name: 'Add to cart' }).click()
    await expect(page.getByTestId('cart-row').filter({ hasText: name })).toBeVisible()
    await hydrated(page)
    await page.getByTestId('checkout-contacts').getByLabel('Registrant', { exact: true }).selectOption({ label: 'Olivia Carter (Acme Corp)' })
    await page.getByRole('button', { name: 'Place order' }).click()
    await page.waitForURL(/\/domains\/orders\/[0-9a-f-]{36}/)
    const orderPath = new URL(page.url()).pathname
    await expect(page.getByTestId('order-item').filter({ hasText: name }).getByTestId('item-state')).toHaveText('Completed', { timeout: 60_000 })

    await page.goto('/domains')
    await hydrated(page)
    // The builder sits behind the list's one Filter button.
    await page.getByTestId('filter-toggle').click()
    const builder = page.getByTestId('filter-builder')
    await builder.locator('select[name="f_field"]').selectOption('name')
    await builder.locator('select[name="f_op"]').selectOption('contains')
    await builder.locator('[name="f_value"]').fill(name)
    await builder.getByRole('button').click()
    await expect(page).toHaveURL(/pql=name/)
    await page.getByTestId('domain-link').filter({ hasText: name }).click()
    await expect(page.getByTestId('domain-name')).toHaveText(name)
    await page.getByTestId('domain-tabs').getByRole('link', { name: 'Orders' }).click()
    await expect(page.getByRole('heading', { name: 'Orders with this domain' })).toBeVisible()
    const rows = page.getByTestId('data-row')
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toContainText(name)
    await rows.first().getByRole('link').first().click()
    // The row opens the order in its account (the list names each row's account: rowAccountHref).
    await expect(page).toHaveURL(new RegExp(`${orderPath}(\\?context=[0-9a-f-]{36})?$`))

    // A demo domain nobody ordered (the seed brought it under management, no spec changes it): the tab's honest empty state.
    await page.goto(`/domains?pql=${encodeURIComponent("name equals 'acme-archive.com'")}`)
    await page.getByTestId('domain-link').filter({ hasText: 'acme-archive.com' }).click()
    await expect(page.getByTestId('domain-name')).toHaveText('acme-archive.com')
    await page.getByTestId('domain-tabs').getByRole('link', { name: 'Orders' }).click()
    await expect(page.getByTestId('domain-orders-empty')).toBeVisible()
  })
})

test.describe('reconciliation', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('the portfolio flags differences from the registry only when there are some, and lists them', async ({ page }) => {
    // The demo preloads the local registry with exactly what we hold, and the other specs change
    // both sides together: no difference, no banner.
    await page.goto('/domains')
    await expect(page.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible()
    await expect(page.getByTestId('reconciliation-banner')).toHaveCount(0)
    await page.goto('/domains/reconciliation')
    await expect(page.getByRole('heading', { level: 1, name: 'Differences from the registry' })).toBeVisible()
    await expect(page.getByTestId('reconciliation-empty')).toBeVisible()
  })
})
