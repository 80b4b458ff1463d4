import { formatMoney } from '../../common/money.ts'
import { expect, test, ACME_ADMIN, CLIENT_ADMIN_ROLES, hydrated, newDomains, ownSignedInUser, platform, signIn, unique } from './support.ts'

// The tray is the user's: an Acme admin of the test's own, whose tray starts empty.
const user = ownSignedInUser('tray', { by: ACME_ADMIN, roles: CLIENT_ADMIN_ROLES })

test('domains selected into the tray survive a reload and a new sign-in; a bulk auto-renew off reports per domain', async ({ page, browser }) => {
  // Two registrations of the test's own: auto-renew is on for a new registration.
  const tag = `e2e-tray-${unique()}`
  const domains = await newDomains(ACME_ADMIN, [`${tag}-1.com`, `${tag}-2.com`])
  const names = domains.map((d) => d.name)
  await page.goto(`/domains?sort=name&pql=${encodeURIComponent(`name contains '${tag}'`)}`)
  await hydrated(page)
  const rows = page.getByTestId('data-row')
  await expect(rows.getByTestId('domain-link')).toHaveText(names)
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
  const fresh = await browser.newContext({ storageState: { cookies: [], origins: [] } })
  const again = await fresh.newPage()
  await signIn(again, user().email, '/tray', { waitForHydration: true, password: user().password })
  await expect(again.getByTestId('data-row')).toHaveCount(2)
  for (const name of names) await expect(again.getByTestId('data-table')).toContainText(name)
  await fresh.close()

  await hydrated(page)
  await page.getByRole('radio', { name: 'Auto-renew off' }).check()
  await page.getByRole('button', { name: 'Start' }).click()
  await page.waitForURL(/\/tray\?job=[0-9a-f-]{36}/)
  const job = page.getByTestId('bulk-job')
  await expect(job).toHaveAttribute('data-state', 'completed', { timeout: 60_000 })
  await expect(page.getByTestId('bulk-progress')).toHaveAttribute('value', '2')
  await expect(page.getByTestId('bulk-progress')).toHaveAttribute('max', '2')
  await expect(job).toContainText('2 of 2 done')
  const results = page.getByTestId('bulk-result')
  await expect(results).toHaveCount(2)
  // Both had auto-renew on: each is changed, none was already so.
  for (const name of names) {
    await expect(results.filter({ hasText: name })).toHaveAttribute('data-ok', 'true')
    await expect(results.filter({ hasText: name })).toContainText('Done')
  }
  // The domain itself says so, and its log has the change.
  await page.goto(`/domains?pql=${encodeURIComponent(`name equals '${names[0]}'`)}`)
  await page.getByTestId('domain-link').filter({ hasText: names[0]! }).click()
  await expect(page.getByTestId('domain-auto-renew')).toContainText('No')

  // A bulk renewal charges: it asks once with its total at the engine's quotes (issue 28). Cancel
  // starts nothing; Confirm starts it, and each domain is charged its share of the total shown.
  const api = await platform(ACME_ADMIN)
  const each = await Promise.all(domains.map((d) => api.get<{ price: { amount_minor: number; currency: string } }>(`/groups/${api.group}/domains/${d.id}/renew/quote?period=1`)))
  const total = each.reduce((sum, q) => sum + q.price.amount_minor, 0)
  await page.goto('/tray')
  await hydrated(page)
  await page.getByRole('radio', { name: 'Renew', exact: true }).check()
  await page.getByRole('button', { name: 'Start' }).click()
  await expect(page.getByTestId('charge-question')).toHaveText(`Renew 2 domains for 1 year each: ${formatMoney(total, each[0]!.price.currency, 'en')} in all`)
  await page.getByTestId('bulk-cancel').click()
  await expect(page.getByTestId('confirm-bulk')).toHaveCount(0)
  expect(new URL(page.url()).searchParams.get('job')).toBeNull()
  await page.getByRole('radio', { name: 'Renew', exact: true }).check()
  await page.getByRole('button', { name: 'Start' }).click()
  await page.getByTestId('bulk-confirm').click()
  await page.waitForURL(/\/tray\?job=[0-9a-f-]{36}/)
  await expect(page.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed', { timeout: 60_000 })
  const charged = await Promise.all(
    domains.map(async (d) => {
      const list = await api.get<{ data: { action: string; state: string; amount_minor: string | number }[] }>(
        `/groups/${api.group}/transactions?fields=action,state,amount_minor&pql=${encodeURIComponent(`domain_id equals '${d.id}'`)}`,
      )
      return list.data.filter((c) => c.action === 'renew' && c.state === 'settled').reduce((sum, c) => sum + Number(c.amount_minor), 0)
    }),
  )
  expect(charged.reduce((a, b) => a + b, 0)).toBe(total)
  await api.dispose()

  await page.goto('/tray')
  await hydrated(page)
  await page.getByRole('button', { name: 'Empty the tray' }).click()
  await expect(page.getByTestId('tray-empty')).toBeVisible()
})
