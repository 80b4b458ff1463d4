import { expect, test, ACME_ADMIN, GLOBEX_ADMIN, hydrated, signedIn } from './support.ts'

// Issue 16 item 12: a filter text (pql) that cannot be read says where and what was expected, on
// lines of their own and in the user's language; the list under it asks to correct the filter
// instead of claiming "0 entries".

test.describe('a filter text that cannot be read, in English', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('says where and what was expected, and the list asks to correct it', async ({ page }) => {
    await page.goto('/domains')
    await hydrated(page)
    await page.getByTestId('filter-toggle').click()
    await page.locator('input[name="pql"]').fill("name contanis 'acme'")
    await page.locator('input[name="pql"]').press('Enter')
    const error = page.getByTestId('list-error')
    await expect(error.locator('p')).toHaveText([
      'The filter cannot be read at position 5: expected an operator.',
      'Expected one of: equals, contains, starts_with, ends_with, less_than, less_than_and_including, greater_than, greater_than_and_including, between.',
    ])
    await expect(page.getByTestId('list-total')).toHaveText('Correct the filter to see the entries.')
    await expect(page.getByTestId('data-row')).toHaveCount(0)
    // One empty state at a time: no "no entries" under the request to correct the filter.
    await expect(page.getByTestId('list-empty')).toHaveCount(0)
    // The panel stays open on the text to correct.
    await expect(page.getByRole('textbox', { name: 'Filter text (PQL)' })).toBeVisible()
  })
})

test.describe('a filter text that cannot be read, in Spanish', () => {
  test.use({ storageState: signedIn(GLOBEX_ADMIN) })

  test('is explained in Spanish, the parser’s words included', async ({ page }) => {
    await page.goto('/domains')
    await hydrated(page)
    await page.getByTestId('filter-toggle').click()
    await page.locator('input[name="pql"]').fill("name equals 'x' or tld equals 'com'")
    await page.locator('input[name="pql"]').press('Enter')
    await expect(page.getByTestId('list-error').locator('p')).toHaveText(["No se puede leer el filtro en la posición 16: se esperaba 'and' o el final del filtro.", 'Se esperaba uno de: and.'])
    await expect(page.getByTestId('list-total')).toHaveText('Corrija el filtro para ver las entradas.')
  })
})

// Issue 28 item 9: the filter panel is a popover — Escape and a press outside close it — and a
// field with known values is filtered from a select of them, without JavaScript too.
test.describe('the filter panel', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('closes on Escape, focus back on its button, and on a click outside', async ({ page }) => {
    await page.goto('/domains')
    await hydrated(page)
    const toggle = page.getByTestId('filter-toggle')
    const builder = page.getByTestId('filter-builder')
    await toggle.click()
    await expect(builder).toBeVisible()
    await page.locator('select[name="f_field"]').focus()
    await page.keyboard.press('Escape')
    await expect(builder).toBeHidden()
    await expect(toggle).toBeFocused()

    await toggle.click()
    await expect(builder).toBeVisible()
    await page.getByRole('heading', { level: 1 }).click()
    await expect(builder).toBeHidden()
  })

  test('and the column chooser are never open together: opening one closes the other', async ({ page }) => {
    await page.goto('/domains')
    await hydrated(page)
    const builder = page.getByTestId('filter-builder')
    const columns = page.getByRole('button', { name: 'Show columns' })
    await page.getByText('Columns', { exact: true }).click()
    await expect(columns).toBeVisible()
    await page.getByTestId('filter-toggle').click()
    await expect(builder).toBeVisible()
    await expect(columns).toBeHidden()
    await page.getByText('Columns', { exact: true }).click()
    await expect(columns).toBeVisible()
    await expect(builder).toBeHidden()
    await page.keyboard.press('Escape')
    await expect(columns).toBeHidden()
  })

  test('filters a status from a select of its known values, in the user’s words', async ({ page }) => {
    await page.goto('/domains')
    await hydrated(page)
    await page.getByTestId('filter-toggle').click()
    await page.locator('select[name="f_field"]').selectOption('status')
    await expect(page.locator('select[name="f_value"] option', { hasText: 'Pending delete' })).toHaveCount(1)
    await page.locator('select[name="f_value"]').selectOption('active')
    await page.getByRole('button', { name: 'Add filter' }).click()
    await expect(page).toHaveURL(/pql=status\+equals\+%27active%27/)
    await expect(page.getByTestId('filter-chip')).toHaveText('Status equals Active')
  })
})

test('without JavaScript, a status filter is chosen from a select of known values', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, storageState: signedIn(ACME_ADMIN) })
  const page = await context.newPage()
  await page.goto('/domains?pql=')
  const total = await page.getByTestId('data-row').count()
  await page.getByTestId('filter-toggle').click()
  const pick = page.getByTestId('filter-pick')
  await expect(pick.locator('option', { hasText: 'Status = Pending delete' })).toHaveCount(1)
  await pick.selectOption('status=active')
  await page.getByRole('button', { name: 'Add filter' }).click()
  await expect(page).toHaveURL(/pql=status\+equals\+%27active%27/)
  await expect(page.getByTestId('filter-chip')).toHaveText('Status equals Active')
  const rows = page.getByTestId('data-row')
  await expect(rows.first()).toBeVisible()
  expect(await rows.count()).toBeLessThanOrEqual(total)
  for (const code of await rows.locator('[data-code]').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')))) expect(code).toBe('active')
  await context.close()
})
