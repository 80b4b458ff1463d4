import { expect, test } from './support.ts'

test('the built server serves the login page', async ({ page }) => {
  await page.goto('/login')
  await expect(page).toHaveTitle('Sign in - Registrar')
  await expect(page.getByRole('button', { name: /sign in/i })).toBeVisible()
})

test('every icon a page names is served (no favicon 404)', async ({ page, request }) => {
  await page.goto('/login')
  const icons = await page.locator('link[rel~="icon"]').evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href))
  expect(icons.length).toBeGreaterThan(0)
  // Browsers also ask for /favicon.ico on their own, whatever the page names.
  for (const icon of new Set([...icons, new URL('/favicon.ico', page.url()).href])) {
    const response = await request.get(icon)
    expect(response.status(), icon).toBe(200)
    expect(response.headers()['content-type'], icon).toMatch(/^image\//)
  }
})

test('an unknown page shows Page Not Found with status 404', async ({ page }) => {
  const response = await page.goto('/no-such-page')
  expect(response?.status()).toBe(404)
})
