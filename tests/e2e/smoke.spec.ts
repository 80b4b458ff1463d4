import { expect, test } from '@playwright/test'

test('the built server serves the login page', async ({ page }) => {
  await page.goto('/login')
  await expect(page).toHaveTitle(/Login/)
  await expect(page.getByRole('button', { name: /sign in/i })).toBeVisible()
})

test('an unknown page shows Page Not Found with status 404', async ({ page }) => {
  const response = await page.goto('/no-such-page')
  expect(response?.status()).toBe(404)
})
