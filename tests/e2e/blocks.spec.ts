import { expect, test, ACME_ADMIN, hydrated, pageProblems, signedIn, unique } from './support.ts'

// Blocks (decision 302): Acme's admin orders a DPML block of a fresh label in the order sheet over
// /blocks — a label that is not one DNS label is refused beside its field with what was typed kept —,
// lands on the block,
// sees the local registry place it (active, its covered TLDs) and its charge settled, then cancels it.

test.use({ storageState: signedIn(ACME_ADMIN) })

test('orders a block, sees it placed and charged, and cancels it', async ({ page }) => {
  const label = `e2e${unique()}`
  await page.goto('/blocks')
  await expect(page.getByRole('heading', { level: 1, name: 'Blocks' })).toBeVisible()
  await hydrated(page)
  await page.getByRole('link', { name: 'Order a block' }).click()
  const sheet = page.getByRole('dialog', { name: 'Order a block' })
  await expect(page).toHaveURL(/\/blocks\/order$/)
  const form = sheet.locator('form#block-order')
  await form.getByLabel('Label', { exact: true }).fill(`${label}.com`)
  await form.getByLabel('Trademark reference (SMD / TMCH)').fill('TMCH-E2E-1')
  await expect(page.getByTestId('block-quote')).toContainText('Charged now:')
  await sheet.getByRole('button', { name: 'Order the block' }).click()
  await expect(form.getByText('Enter one label, without dots or a TLD')).toBeVisible()
  await expect(form.getByLabel('Trademark reference (SMD / TMCH)')).toHaveValue('TMCH-E2E-1')

  // The refusal above is a 400 by design; from here on nothing may fail.
  const problems = pageProblems(page)
  await form.getByLabel('Label', { exact: true }).fill(label)
  const quoted = /Charged now: ([^ ]+) /.exec((await page.getByTestId('block-quote').textContent())!)![1]!
  await sheet.getByRole('button', { name: 'Order the block' }).click()
  // An order charges: it asks once, with what is ordered and the engine's price (issue 28).
  await expect(page.getByTestId('charge-question')).toContainText(`Order a block of ${label} (`)
  await expect(page.getByTestId('charge-question')).toContainText(`: ${quoted}`)
  // Cancel comes back to the form as typed, charging nothing; ordering again asks again.
  await sheet.getByTestId('block-order-cancel').click()
  await expect(form.getByLabel('Label', { exact: true })).toHaveValue(label)
  await sheet.getByRole('button', { name: 'Order the block' }).click()
  await page.getByTestId('block-order-confirm').click()
  await expect(page.getByTestId('block-title')).toHaveText(label)
  // The job places it with the registry; the page refreshes itself while it is pending.
  await expect(page.getByTestId('block-status')).toHaveText('Active', { timeout: 60_000 })
  await expect(page.getByTestId('block-tlds')).toContainText('.com')
  await expect(page.getByTestId('block-charge')).toContainText('Settled')

  // Renewing asks once with the engine's renewal price (the one its period shows): Cancel charges
  // nothing, Confirm charges it (issue 28).
  await hydrated(page)
  const period = (await page.getByTestId('block-renew-period').locator('option:checked').textContent())!
  const [years, price] = period.split(' — ')
  await page.getByTestId('block-renew').click()
  await expect(page.getByTestId('charge-question')).toHaveText(`Renew the block of ${label} for ${years}: ${price}`)
  await expect(page.getByTestId('block-charge')).toHaveCount(1)
  await page.getByTestId('block-renew-cancel').click()
  await expect(page.getByTestId('confirm-block-renew')).toHaveCount(0)
  await expect(page.getByTestId('block-charge')).toHaveCount(1)
  await page.getByTestId('block-renew').click()
  await page.getByTestId('block-renew-confirm').click()
  await expect(page.getByTestId('block-charge')).toHaveCount(2)
  await expect(page.getByTestId('block-charge').filter({ hasText: 'Renew' }).filter({ hasText: price! })).toHaveCount(1)

  await page.getByTestId('confirm-cancel').locator('summary').click()
  await page.getByTestId('confirm-cancel').getByRole('button', { name: 'Cancel the block' }).click()
  await expect(page.getByTestId('block-status')).toHaveText('Cancelled')
  expect(problems()).toEqual([])
})

test('without JavaScript the order sheet is a page: a label with a dot is refused beside it, what was typed kept', async ({ browser }) => {
  const context = await browser.newContext({ storageState: signedIn(ACME_ADMIN), javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto('/blocks')
  await page.getByRole('link', { name: 'Order a block' }).click()
  await expect(page).toHaveURL(/\/blocks\/order$/)
  const sheet = page.getByRole('dialog', { name: 'Order a block' })
  await sheet.getByLabel('Label', { exact: true }).fill('nojs.com')
  await sheet.getByLabel('Trademark reference (SMD / TMCH)').fill('TMCH-NOJS')
  await sheet.getByRole('button', { name: 'Order the block' }).click()
  await expect(sheet.getByText('Enter one label, without dots or a TLD')).toBeVisible()
  await expect(sheet.getByLabel('Label', { exact: true })).toHaveValue('nojs.com')
  // Closing is a link back to the list.
  await sheet.getByTestId('sheet-close').click()
  await expect(page).toHaveURL(/\/blocks$/)
  await context.close()
})
