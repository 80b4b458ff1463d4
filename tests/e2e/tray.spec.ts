import { expect, test } from '@playwright/test'
import { hydrated, signIn } from './support.ts'

const ADMIN = 'admin@acme.example'

test('domains selected into the tray survive a reload and a new sign-in; a bulk auto-renew off reports per domain', async ({ page, browser }) => {
  await signIn(page, ADMIN, '/domains', { waitForHydration: true })
  await hydrated(page)
  const rows = page.getByTestId('data-row')
  const names = [(await rows.nth(0).getByTestId('domain-link').textContent())!, (await rows.nth(1).getByTestId('domain-link').textContent())!]
  await rows.nth(0).getByRole('checkbox').check()
  await rows.nth(1).getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Add selected to the bulk tray' }).click()
  await expect(page.getByText('2 items added to the bulk tray')).toBeVisible()

  await page.goto('/tray')
  const trayRows = page.getByTestId('data-row')
  await expect(trayRows).toHaveCount(2)
  for (const name of names) await expect(page.getByTestId('data-table')).toContainText(name)
  await page.reload()
  await expect(trayRows).toHaveCount(2)

  // A new sign-in, in a browser that holds nothing from the first: the tray is server-side.
  const fresh = await browser.newContext()
  const again = await fresh.newPage()
  await signIn(again, ADMIN, '/tray', { waitForHydration: true })
  await expect(again.getByTestId('data-row')).toHaveCount(2)
  for (const name of names) await expect(again.getByTestId('data-table')).toContainText(name)
  await fresh.close()

  await hydrated(page)
  await page.getByRole('radio', { name: 'Auto-renew off' }).check()
  await page.getByRole('button', { name: 'Start' }).click()
  await page.waitForURL(/\/tray\?job=[0-9a-f-]{36}/)
  const job = page.getByTestId('bulk-job')
  await expect(job).toHaveAttribute('data-state', 'completed', { timeout: 30_000 })
  await expect(page.getByTestId('bulk-progress')).toHaveAttribute('value', '2')
  await expect(page.getByTestId('bulk-progress')).toHaveAttribute('max', '2')
  await expect(job).toContainText('2 of 2 done')
  const results = page.getByTestId('bulk-result')
  await expect(results).toHaveCount(2)
  for (const name of names) await expect(results.filter({ hasText: name })).toHaveAttribute('data-ok', 'true')
  await expect(results.filter({ hasText: /Done|Already so/ })).toHaveCount(2)
  // The domain itself says so, and its log has the change.
  await page.goto('/domains')
  await page.getByTestId('domain-link').filter({ hasText: names[0] }).click()
  await expect(page.getByTestId('domain-auto-renew')).toContainText('No')

  await page.goto('/tray')
  await hydrated(page)
  await page.getByRole('button', { name: 'Empty the tray' }).click()
  await expect(page.getByTestId('tray-empty')).toBeVisible()
})
