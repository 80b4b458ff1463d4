import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { ACME_ADMIN, STAFF, hydrated, pageProblems, signedIn } from './support.ts'

// Issue 18: billing entities and transactions. The demo seed (server/seed/billing.ts) makes
// "Acme Corp Billing" (USD, on credit) paying for Acme Corp and "Globex Ibérica S.L." (EUR,
// prepaid) paying for Globex, each with a few renewals charged at their price lists' quotes. The
// staff test records a payment and takes it back with an adjustment, so the balance ends as it was.

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
    await page.goto('/invoicing')
    await page.getByRole('link', { name: 'Billing entities', exact: true }).first().click()
    await page.getByRole('link', { name: 'Acme Corp Billing', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Acme Corp Billing' })).toBeVisible()
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
      await expect(page.getByText('The invoices of 2020-01 are being made').or(form.getByText('The invoices of this month were run already'))).toBeVisible()
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

    await page.goto('/invoicing/transactions')
    expect(await axe(page)).toEqual([])
    const row = page.getByRole('row').filter({ hasText: 'Settled' }).first()
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
