import { expect, test } from '@playwright/test'
import { signIn } from './support.ts'

test.describe('domain orders', () => {
  test('admin@acme.example orders a name through the cart and sees it completed', async ({ page }) => {
    const name = `e2e-order-${Date.now().toString(36)}.com`
    await signIn(page, 'admin@acme.example', '/domains/order')
    await expect(page.getByRole('heading', { name: 'Order domains' })).toBeVisible()

    // A period the TLD does not allow is refused at cart time, in the user's language.
    await page.getByLabel('Domain name').fill('one-year-only.jp')
    await page.getByLabel('Period').first().selectOption('2')
    await page.getByRole('button', { name: 'Add to cart' }).click()
    await expect(page.getByTestId('field-error')).toContainText('This period is not allowed for the TLD')

    // A transfer without auth code is refused too.
    await page.getByLabel('Domain name').fill('someone-elses.com')
    await page.getByLabel('Order type').selectOption('transfer')
    await page.getByLabel('Period').first().selectOption('1')
    await page.getByRole('button', { name: 'Add to cart' }).click()
    await expect(page.getByTestId('field-error')).toContainText('A transfer needs the auth code')

    await page.getByLabel('Domain name').fill(name)
    await page.getByLabel('Order type').selectOption('register')
    await page.getByLabel('Period').first().selectOption('2')
    await page.getByRole('button', { name: 'Add to cart' }).click()
    const row = page.getByTestId('cart-row').filter({ hasText: name })
    await expect(row).toBeVisible()
    await expect(row).toContainText('€25.98')
    await expect(page.getByTestId('cart-totals')).toContainText('€25.98')

    await page.getByRole('button', { name: 'Place order' }).click()
    await page.waitForURL(/\/domains\/orders\/[0-9a-f-]{36}/)
    const item = page.getByTestId('order-item').filter({ hasText: name })
    await expect(item).toBeVisible()
    // The page refreshes itself while the item runs: no reload here.
    await expect(item.getByTestId('item-state')).toHaveText('Completed', { timeout: 30_000 })
    await expect(page.getByTestId('order-state')).toHaveText('Completed')
    await item.getByText(/^Log/).click()
    await expect(item.getByText(/Registered; expires/)).toBeVisible()

    await page.getByRole('link', { name: 'All orders' }).click()
    await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible()
  })
})
