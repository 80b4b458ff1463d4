import { expect, test, ACME_ADMIN, CLIENT_ADMIN_ROLES, STAFF, hydrated, ownSignedInUser, platform, unique } from './support.ts'

// The cart shows what checkout will charge (issue 26): a price changed since a name went into the
// cart is shown at its new amount, with the price when added beside it and a note above the items;
// an order placed from a page showing the old total is refused, nothing ordered. .org, which no
// other browser test prices, so the rule changes no one else's cart.
test.describe('cart prices', () => {
  ownSignedInUser('cart-prices', { by: ACME_ADMIN, roles: CLIENT_ADMIN_ROLES })

  test('a price changed after the name was added is shown at its new amount beside the old one, and the stale page cannot order', async ({ page }) => {
    const name = `e2e-price-${unique()}.org`
    await page.goto('/domains/order')
    await hydrated(page)
    await page.getByLabel('Domain name').fill(name)
    await page.getByRole('button', { name: 'Add to cart' }).click()
    const row = page.getByTestId('cart-row').filter({ hasText: name })
    await expect(row).toBeVisible()
    await expect(row.getByTestId('cart-price-changed')).toHaveCount(0)
    await expect(page.getByTestId('cart-prices-changed')).toHaveCount(0)
    const before = (await page.getByTestId('cart-totals').textContent())!.replace('Total', '')

    const staff = await platform(STAFF)
    const retail = ((await staff.get('/pricing-entities?limit=100')) as { data: { id: string; name: string }[] }).data.find((e) => e.name === 'Retail')!
    const rule = (await staff.post('/pricing-rules/entity', {
      rule_name: `e2e-org-${unique()}`,
      pricing_entity_id: retail.id,
      selector: { tlds: ['org'], actions: ['register'] },
      kind: 'margin',
      percent: 90,
    })) as { rule: { id: string } }
    try {
      // The page still shows the old total: placing the order from it is refused, and the cart comes back at the new price.
      await page.getByTestId('checkout-contacts').getByLabel('Registrant', { exact: true }).selectOption({ label: 'Olivia Carter (Acme Corp)' })
      await page.getByRole('button', { name: 'Place order' }).click()
      await expect(page.getByText('A price changed since the cart was shown, so nothing was ordered')).toBeVisible()
      await expect(row.getByTestId('cart-price-changed')).toHaveText(`Was ${before} when added`)
      await expect(page.getByTestId('cart-prices-changed')).toContainText('A price in the cart changed since the name was added')
      await expect(page.getByTestId('cart-totals')).not.toHaveText(`Total${before}`)
      await expect(page).toHaveURL(/\/domains\/order$/)
    } finally {
      await staff.delete(`/pricing-rules/${rule.rule.id}`)
      await staff.dispose()
    }
    // The rule gone, the price is back to the one it was added at: nothing to say.
    await page.reload()
    await expect(row.getByTestId('cart-price-changed')).toHaveCount(0)
    await page.getByRole('button', { name: 'Remove' }).click()
    await expect(page.getByTestId('cart-empty')).toBeVisible()
  })
})
