import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test, ACME_ADMIN, STAFF, hydrated, pageProblems, signedIn, unique } from './support.ts'

// Issue 18: billing entities and transactions. The demo seed (server/seed/billing.ts) makes
// "Acme Corp Billing" (USD, on credit) paying for Acme Corp and "Globex Ibérica S.L." (EUR,
// prepaid) paying for Globex, each with a few renewals charged at their price lists' quotes. The
// staff test makes an entity of its own, records a payment and takes it back with an adjustment, so
// the balance ends as it was.

/** Serious or critical axe-core violations of the page as it is. */
async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    )
}

test.describe('billing as staff', () => {
  test.use({ storageState: signedIn(STAFF) })

  test('payments are refused in the wrong currency or without a reason beside their field, recorded, and taken back', async ({ page }) => {
    // An entity of its own: the demo's are charged by the other specs while this one runs.
    const name = `E2E Payments ${unique()}`
    await page.goto('/invoicing')
    await page.getByRole('link', { name: 'Billing entities', exact: true }).first().click()
    const create = page.getByRole('form', { name: 'New billing entity' })
    await create.getByLabel('Name').fill(name)
    await create.getByLabel('Country').selectOption('US')
    await create.getByLabel('Currency').fill('USD')
    await create.getByLabel('Invoices mailed to').fill('billing@e2e-payments.example')
    await create.getByRole('button', { name: 'Create billing entity' }).click()
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
    const balance = page.locator('[data-testid="balance"][data-currency="USD"]').getByTestId('balance-amount')
    const before = await balance.textContent()
    await hydrated(page)
    const form = page.getByRole('form', { name: 'Record a payment or adjustment' })
    await form.getByLabel('Currency').fill('GBP')
    await form.getByLabel('Amount').fill('10.00')
    await form.getByRole('button', { name: 'Record' }).click()
    await expect(form.getByText('This entity is not billed in that currency (it holds USD)')).toBeVisible()
    await expect(form.getByLabel('Amount')).toHaveValue('10.00')

    await form.getByLabel('Kind').selectOption('adjustment')
    await form.getByLabel('Currency').fill('USD')
    await form.getByLabel('Amount').fill('-10.00')
    await form.getByRole('button', { name: 'Record' }).click()
    await expect(form.getByText('Say why: an adjustment or a refund needs its reason')).toBeVisible()
    await expect(balance).toHaveText(before!)

    // The refusals above answer 400 by design; from here on nothing may fail.
    const problems = pageProblems(page)
    await form.getByLabel('Kind').selectOption('payment')
    await form.getByLabel('Amount').fill('10.00')
    await form.getByLabel('Reference').fill('e2e wire')
    await form.getByRole('button', { name: 'Record' }).click()
    await expect(page.getByTestId('payment').first()).toContainText('e2e wire')
    await expect(balance).not.toHaveText(before!)

    await hydrated(page)
    await form.getByLabel('Kind').selectOption('adjustment')
    await form.getByLabel('Amount').fill('-10.00')
    await form.getByLabel('Reason').fill('e2e: the test payment taken back')
    await form.getByRole('button', { name: 'Record' }).click()
    await expect(page.getByTestId('payment').first()).toContainText('e2e: the test payment taken back')
    await expect(balance).toHaveText(before!)

    expect(await axe(page)).toEqual([])
    await page.getByRole('link', { name: 'Log', exact: true }).click()
    await expect(page.getByTestId('log-changes').first()).toContainText('e2e: the test payment taken back')
    expect(problems()).toEqual([])
  })

  test('a month long closed is invoiced once: the second run is refused beside the month', async ({ page }) => {
    await page.goto('/invoicing/billing-entities')
    await hydrated(page)
    const form = page.getByRole('form', { name: 'Monthly invoice run' })
    for (let i = 0; i < 2; i++) {
      await form.getByLabel('Month').fill('2020-01')
      await form.getByRole('button', { name: 'Run invoices' }).click()
      // Either answer (the first run's notice may still show when the second run's refusal comes): one of them, at least.
      await expect(page.getByText('The invoices of 2020-01 are being made').or(form.getByText('The invoices of this month were run already')).first()).toBeVisible()
    }
    await expect(form.getByText('The invoices of this month were run already')).toBeVisible()
  })

  test('a transaction says where its price came from', async ({ page }) => {
    await page.goto('/invoicing')
    await page.getByRole('link', { name: 'Transactions', exact: true }).first().click()
    await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible()
    await page.getByRole('row').filter({ hasText: 'Settled' }).first().getByRole('link').first().click()
    await expect(page.getByTestId('transaction-state')).toHaveText('Settled')
    await expect(page.getByTestId('transaction-quote').getByTestId('rule-chain')).toBeVisible()
  })
})

test.describe('billing forms without JavaScript', () => {
  // The same forms posted as plain HTML: the server parses them with the same schema, the API's
  // refusal comes back beside its field in the user's language, and nothing typed is lost.
  test.use({ storageState: signedIn(STAFF), javaScriptEnabled: false })

  test('a payment in the wrong currency and an adjustment without reason are refused beside their field, nothing written', async ({ page }) => {
    await page.goto('/invoicing/billing-entities')
    await page.getByRole('link', { name: 'Acme Corp Billing', exact: true }).click()
    // Other specs charge and pay this entity while this one runs: count only what this test typed.
    const reference = `no-js wire ${unique()}`
    const form = page.getByRole('form', { name: 'Record a payment or adjustment' })
    await form.getByLabel('Currency').fill('GBP')
    await form.getByLabel('Amount').fill('12.00')
    await form.getByLabel('Reference').fill(reference)
    await form.getByRole('button', { name: 'Record' }).click()
    await expect(form.getByText('This entity is not billed in that currency (it holds USD)')).toBeVisible()
    await expect(form.getByLabel('Amount')).toHaveValue('12.00')
    await expect(form.getByLabel('Reference')).toHaveValue(reference)

    await form.getByLabel('Kind').selectOption('adjustment')
    await form.getByLabel('Currency').fill('USD')
    await form.getByLabel('Amount').fill('-12.00')
    await form.getByRole('button', { name: 'Record' }).click()
    await expect(form.getByText('Say why: an adjustment or a refund needs its reason')).toBeVisible()
    await expect(form.getByLabel('Kind')).toHaveValue('adjustment')
    await expect(form.getByLabel('Amount')).toHaveValue('-12.00')
    await expect(form.getByLabel('Reference')).toHaveValue(reference)
    await expect(page.getByTestId('payment').filter({ hasText: reference })).toHaveCount(0)
  })

  test('a tax id of the wrong shape for its country, and a second run of a closed month, are refused beside their field', async ({ page }) => {
    await page.goto('/invoicing/billing-entities')
    const form = page.getByRole('form', { name: 'New billing entity' })
    await form.getByLabel('Name').fill('Wrong Shape GmbH')
    await form.getByLabel('Country').selectOption('DE')
    await form.getByLabel('VAT id').fill('DE12345')
    await form.getByLabel('Currency').fill('EUR')
    await form.getByLabel('Invoices mailed to').fill('rechnung@wrong-shape.example')
    await form.getByRole('button', { name: 'Create billing entity' }).click()
    await expect(form.getByText('This is not a VAT id of DE. Example: DE123456789')).toBeVisible()
    await expect(form.getByLabel('Name')).toHaveValue('Wrong Shape GmbH')
    await expect(form.getByLabel('Invoices mailed to')).toHaveValue('rechnung@wrong-shape.example')
    await expect(page.getByRole('link', { name: 'Wrong Shape GmbH' })).toHaveCount(0)

    const run = page.getByRole('form', { name: 'Monthly invoice run' })
    for (let i = 0; i < 2; i++) {
      await run.getByLabel('Month').fill('2020-02')
      await run.getByRole('button', { name: 'Run invoices' }).click()
    }
    await expect(run.getByText('The invoices of this month were run already')).toBeVisible()
    await expect(run.getByLabel('Month')).toHaveValue('2020-02')
  })

  test('in Japanese, the refusal is in Japanese', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'lng', value: 'ja', url: baseURL! }])
    await page.goto('/invoicing/billing-entities')
    const form = page.locator('form[aria-label]').filter({ has: page.locator('input[name="rate_percent"]') })
    await form.locator('input[name="country"]').fill('NL')
    await form.locator('input[name="rate_percent"]').fill('150')
    await form.locator('button[value="tax"]').click()
    await expect(
      page
        .locator('form')
        .filter({ has: page.locator('input[name="rate_percent"]') })
        .getByTestId('field-error'),
    ).toHaveText(/[\u3040-\u30ff\u4e00-\u9fff]/)
  })
})

test.describe('billing as a client', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test("sees its own entity and transactions only, and the domain's transactions tab", async ({ page }) => {
    const problems = pageProblems(page)
    await page.goto('/invoicing')
    await page.getByRole('link', { name: 'Billing entities', exact: true }).first().click()
    await expect(page.getByRole('link', { name: 'Acme Corp Billing', exact: true })).toBeVisible()
    await expect(page.getByText('Globex Ibérica S.L.')).toHaveCount(0)
    await page.getByRole('link', { name: 'Acme Corp Billing', exact: true }).click()
    await expect(page.getByTestId('balance')).toHaveCount(1)
    await expect(page.getByRole('form', { name: 'Record a payment or adjustment' })).toHaveCount(0)
    // Its log opens for the client too (issue 28, item 16): the payments on it, never the accounts put on it.
    await page.getByRole('link', { name: 'Log', exact: true }).click()
    await expect(page).toHaveURL(/\/invoicing\/billing-entities\/[0-9a-f-]{36}\/log$/)
    await expect(page.getByTestId('data-row').filter({ hasText: 'Wire 2026-0415' })).toHaveCount(1)
    await expect(page.getByTestId('data-row').filter({ hasText: 'add-account' })).toHaveCount(0)

    await page.goto('/invoicing/transactions')
    expect(await axe(page)).toEqual([])
    // A domain's renewal (the demo's charges are real renewals at its registry; its blocks are charged too):
    // the oldest, a seeded one of last month, never a renewal another spec is making right now.
    await page.getByRole('columnheader', { name: 'Date' }).getByRole('link').click()
    await expect(page).toHaveURL(/sort=created_at/)
    // The rows are the sorted page's once its header says so (the address changes a moment before).
    await expect(page.getByRole('columnheader', { name: 'Date' })).toHaveAttribute('aria-sort', 'ascending')
    const row = page.getByRole('row').filter({ hasText: 'Settled' }).filter({ hasText: 'Renewal' }).first()
    const domain = (await row.getByRole('cell').nth(4).textContent())!.trim()
    await expect(row.getByRole('cell').last()).toHaveText('Acme Corp')
    await row.getByRole('link').first().click()
    // A client sees its price, never the rules behind it.
    await expect(page.getByTestId('transaction-quote').getByTestId('rule-chain')).toHaveCount(0)
    await page.getByRole('link', { name: domain, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: domain, exact: true })).toBeVisible()
    await page.getByRole('link', { name: 'Transactions', exact: true }).click()
    await expect(page.getByRole('heading', { level: 2, name: 'Transactions' })).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: 'Settled' })).toHaveCount(1)
    expect(problems()).toEqual([])
  })
})
