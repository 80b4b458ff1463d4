import { expect, test } from '@playwright/test'
import { STAFF, hydrated, signedIn } from './support.ts'

// Decision 103: staff keep the exchange rates that price a TLD for accounts billed in another
// currency, on the TLD's page. .com is priced at €12.99 (server/seed/demo.ts); the demo rate to USD
// is 1.08. The test sets a rate of its own pair (EUR → CHF), the same value every run.

test.describe('exchange rates as staff', () => {
  test.use({ storageState: signedIn(STAFF) })

  test('a TLD shows what other currencies pay, and a rate is set from its page', async ({ page }) => {
    await page.goto(`/tlds?pql=${encodeURIComponent("name equals 'com'")}`)
    await page.getByRole('link', { name: '.com', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: '.com' })).toBeVisible()
    const rates = page.getByTestId('tld-rates')
    await expect(rates.getByTestId('tld-rate').filter({ hasText: 'USD' })).toHaveText('USD1 EUR = 1.08 USD$14.03')
    await hydrated(page)

    await rates.getByLabel('1 EUR is worth').fill('abc')
    await rates.getByLabel('Currency').fill('CHF')
    await rates.getByRole('button', { name: 'Set rate' }).click()
    await expect(rates.getByLabel('1 EUR is worth')).toHaveAccessibleDescription('Enter a positive number, such as 1.08')
    await expect(rates.getByLabel('1 EUR is worth')).toHaveValue('abc')
    // A currency we do not bill in (not ISO 4217), and the TLD's own: refused beside the currency.
    await rates.getByLabel('1 EUR is worth').fill('0.94')
    await rates.getByLabel('Currency').fill('XYZ')
    await rates.getByRole('button', { name: 'Set rate' }).click()
    await expect(rates.getByLabel('Currency')).toHaveAccessibleDescription('Enter another ISO 4217 code, such as USD')
    await expect(rates.getByLabel('Currency')).toHaveValue('XYZ')
    await expect(rates.getByLabel('1 EUR is worth')).not.toHaveAccessibleDescription(/positive/)
    await rates.getByLabel('Currency').fill('EUR')
    await rates.getByRole('button', { name: 'Set rate' }).click()
    await expect(rates.getByLabel('Currency')).toHaveAccessibleDescription('Enter another ISO 4217 code, such as USD')
    await rates.getByLabel('Currency').fill('CHF')

    await rates.getByRole('button', { name: 'Set rate' }).click()
    // 12.99 × 0.94 = 12.2106 → CHF 12.21
    await expect(rates.getByTestId('tld-rate').filter({ hasText: 'CHF' })).toHaveText(/^CHF1 EUR = 0\.94 CHFCHF\s12\.21$/)
  })
})

test.describe('exchange rates without JavaScript, in Japanese', () => {
  // The rate form posted as plain HTML: the server's answer, in the user's language, beside the field, nothing typed lost.
  test.use({ storageState: signedIn(STAFF), javaScriptEnabled: false })

  test('a rate that is not a positive number is refused beside it, in Japanese', async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'lng', value: 'ja', url: baseURL! }])
    await page.goto(`/tlds?pql=${encodeURIComponent("name equals 'com'")}`)
    await page.getByRole('link', { name: '.com', exact: true }).click()
    const rates = page.getByTestId('tld-rates')
    await rates.getByLabel('1 EUR の価値').fill('-1')
    await rates.getByLabel('通貨').fill('chf')
    await rates.getByRole('button', { name: 'レートを設定' }).click()
    await expect(rates.getByLabel('1 EUR の価値')).toHaveAccessibleDescription('1.08 のような正の数を入力してください')
    await expect(rates.getByLabel('1 EUR の価値')).toHaveValue('-1')
    await expect(rates.getByLabel('通貨')).toHaveValue('chf')
  })
})
