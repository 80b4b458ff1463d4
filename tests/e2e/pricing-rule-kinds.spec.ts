import { expect, test, STAFF, hydrated, pageProblems, signedIn, unique } from './support.ts'

// Issue 28, item 13: the pricing rule form asks only for what the chosen kind of rule needs — a
// margin its percentage, a fixed price its amount and currency, a rounding its mode, volume its
// tiers — with JavaScript as the kind changes, and without it by choosing the kind first. Nothing
// is saved: every check here is a form shown or refused.

/** The kind-specific fields a person can see in the form. */
async function shownFields(form: import('@playwright/test').Locator) {
  const shown: string[] = []
  for (const label of ['Percent', 'Amount', 'Currency', 'Rounding', 'Volume tiers', 'First year of a registration only'])
    if ((await form.getByLabel(label, { exact: true }).count()) > 0) shown.push(label)
  return shown
}

test.describe('the pricing rule form by kind', () => {
  test.use({ storageState: signedIn(STAFF) })

  test('choosing a kind shows only its fields', async ({ page }) => {
    const problems = pageProblems(page)
    await page.goto('/invoicing/global-pricing-rules')
    await page.getByRole('link', { name: 'Global custom rules', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Global custom rules' })).toBeVisible()
    await hydrated(page)
    const form = page.getByTestId('new-rule')
    await expect(form.getByLabel('Kind')).toHaveValue('margin')
    expect(await shownFields(form)).toEqual(['Percent'])
    // The no-JavaScript step is not offered once the page runs.
    await expect(form.getByRole('button', { name: 'Show the fields of this kind' })).toHaveCount(0)
    await form.getByLabel('Kind').selectOption({ label: 'Fixed price' })
    await expect(form.getByLabel('Amount', { exact: true })).toBeVisible()
    expect(await shownFields(form)).toEqual(['Amount', 'Currency'])
    await form.getByLabel('Kind').selectOption({ label: 'Rounding' })
    await expect(form.getByLabel('Rounding', { exact: true })).toBeVisible()
    expect(await shownFields(form)).toEqual(['Rounding'])
    await form.getByLabel('Kind').selectOption({ label: 'Volume tiers' })
    await expect(form.getByLabel('Volume tiers', { exact: true })).toBeVisible()
    expect(await shownFields(form)).toEqual(['Volume tiers'])
    await form.getByLabel('Kind').selectOption({ label: 'Promotion' })
    await expect(form.getByLabel('First year of a registration only')).toBeVisible()
    expect(await shownFields(form)).toEqual(['Amount', 'Currency', 'First year of a registration only'])
    // Every kind keeps its window.
    await expect(form.getByLabel('From')).toBeVisible()
    await expect(form.getByLabel('Until')).toBeVisible()
    expect(problems()).toEqual([])
  })
})

test.describe('the pricing rule form by kind without JavaScript', () => {
  test.use({ storageState: signedIn(STAFF), javaScriptEnabled: false })

  test('the kind is chosen first, then the form of that kind asks for its fields', async ({ page }) => {
    const name = `e2e-fixed-${unique()}`.toLowerCase()
    await page.goto('/invoicing/global-pricing-rules')
    await page.getByRole('link', { name: 'Global custom rules', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Global custom rules' })).toBeVisible()
    const form = page.getByTestId('new-rule')
    expect(await shownFields(form)).toEqual(['Percent'])
    await form.getByLabel('Rule name').fill(name)
    await form.getByLabel('Kind').selectOption({ label: 'Fixed price' })
    await form.getByRole('button', { name: 'Show the fields of this kind' }).click()
    await expect(form.getByLabel('Amount', { exact: true })).toBeVisible()
    expect(await shownFields(form)).toEqual(['Amount', 'Currency'])
    // What was typed is kept, and nothing is refused before it is sent.
    await expect(form.getByLabel('Rule name')).toHaveValue(name)
    await expect(form.getByLabel('Kind')).toHaveValue('fixed')
    await expect(form.getByTestId('field-error')).toHaveCount(0)
    // Sent without an amount, the refusal stands beside the amount; nothing is saved.
    await form.getByLabel('TLDs').fill('es')
    await form.getByLabel('Currency').fill('EUR')
    await form.getByRole('button', { name: 'Save rule' }).click()
    await expect(form.getByLabel('Amount', { exact: true })).toHaveAccessibleDescription(/./)
    await expect(form.getByLabel('Rule name')).toHaveValue(name)
    await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0)
  })
})

test.describe("an account's price list", () => {
  test.use({ storageState: signedIn(STAFF) })

  test('the account page says which price list the account is on and leads to it', async ({ page }) => {
    const problems = pageProblems(page)
    await page.goto('/accounts')
    await page.getByRole('link', { name: 'Acme Corp', exact: true }).first().click()
    await expect(page.getByRole('heading', { level: 1, name: 'Acme Corp' })).toBeVisible()
    const priceList = page.getByTestId('account-price-list')
    // The demo names no list for Acme (server/seed/demo.ts): the default list prices it, and the page says so.
    await expect(priceList).toHaveText('Retail (the default list)')
    await priceList.click()
    await expect(page.getByRole('heading', { level: 1, name: 'Retail', exact: true })).toBeVisible()
    // Globex is on a list of its own.
    await page.goto('/accounts')
    await page.getByRole('link', { name: 'Globex', exact: true }).first().click()
    await expect(page.getByTestId('account-price-list')).toHaveText('Corporate')
    expect(problems()).toEqual([])
  })
})
