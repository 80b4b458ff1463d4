import type { Page } from '@playwright/test'
import { expect, test, STAFF, hydrated, platform, signedIn } from './support.ts'

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

// The catalogue entry's form (conform + zod, tldSchema): what the API would refuse is refused beside
// its field with what was typed kept, and a good entry is saved. Each test changes a TLD no other
// spec reads (.museum, .travel) and puts back what it was.

type Entry = { id: string; version: number } & Record<string, unknown>
const KEPT = ['kind', 'registry_operator', 'is_offered', 'periods', 'redemption_days', 'list_price_minor', 'currency', 'required_contacts'] as const

/** Opens a TLD's page from the catalogue, and gives back how to put its entry back as it was. */
async function openTld(page: Page, name: string) {
  const api = await platform(STAFF)
  const [before] = (await api.get<{ data: Entry[] }>(`/tlds?pql=${encodeURIComponent(`name equals '${name}'`)}`)).data
  await page.goto(`/tlds?pql=${encodeURIComponent(`name equals '${name}'`)}`)
  await page.getByRole('link', { name: `.${name}`, exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: `.${name}` })).toBeVisible()
  return async () => {
    const now = await api.get<Entry>(`/tlds/${before!.id}`)
    await api.patch(`/tlds/${before!.id}`, { ...Object.fromEntries(KEPT.map((k) => [k, before![k]])), version: now.version })
    await api.dispose()
  }
}

test.describe('the catalogue entry as staff', () => {
  test.use({ storageState: signedIn(STAFF) })

  test('bad input is refused beside its field, as typed, and a good entry is saved', async ({ page }) => {
    const restore = await openTld(page, 'museum')
    try {
      await hydrated(page)
      const form = page.getByTestId('tld-edit')
      const periods = form.getByRole('group', { name: 'Registration periods' })
      for (const box of await periods.getByRole('checkbox').all()) await box.uncheck()
      await form.getByLabel('Redemption period').fill('400')
      await form.getByLabel('List price').fill('12.345')
      await form.getByLabel('Currency').fill('XYZ')
      await form.getByRole('button', { name: 'Save changes' }).click()
      await expect(form.getByLabel('Redemption period')).toHaveAccessibleDescription('Enter a number of days from 0 to 365')
      await expect(form.getByLabel('Redemption period')).toHaveValue('400')
      await expect(form.getByLabel('Currency')).toHaveAccessibleDescription('Not a known currency code (ISO 4217, e.g. EUR)')
      await expect(form.getByLabel('Currency')).toHaveValue('XYZ')
      await expect(periods).toHaveAccessibleDescription('Choose at least one registration period between 1 and 10 years')
      // The price is read in the currency's format once the currency is one: two decimals in EUR, none in JPY.
      await form.getByLabel('Currency').fill('EUR')
      await expect(form.getByLabel('List price')).toHaveAccessibleDescription('Enter an amount such as 1,234.56')
      await expect(form.getByLabel('List price')).toHaveValue('12.345')
      // An offered TLD needs a list price.
      await form.getByLabel('List price').fill('')
      await form.getByLabel('Offered').check()
      await form.getByRole('button', { name: 'Save changes' }).click()
      await expect(form.getByLabel('List price')).toHaveAccessibleDescription('An offered TLD needs a list price')

      await form.getByLabel('List price').fill('1,234.50')
      await form.getByLabel('Redemption period').fill('35')
      await periods.getByLabel('1 year', { exact: true }).check()
      await periods.getByLabel('2 years', { exact: true }).check()
      await form.getByRole('button', { name: 'Save changes' }).click()
      await expect(page.getByTestId('detail-List price')).toHaveText('€1,234.50')
      await expect(page.getByTestId('detail-Redemption period')).toHaveText('35 days')
      await expect(page.getByTestId('detail-Registration periods')).toHaveText('1 year, 2 years')
      await expect(page.getByTestId('detail-Offered')).toHaveText('Yes')
    } finally {
      await restore()
    }
  })
})

test.describe('the catalogue entry without JavaScript', () => {
  // Posted as plain HTML: the server's answer beside the field, nothing typed lost, and a good entry saved.
  test.use({ storageState: signedIn(STAFF), javaScriptEnabled: false })

  test('bad days and a bad price are refused beside them, then the entry is saved', async ({ page }) => {
    const restore = await openTld(page, 'travel')
    try {
      const form = page.getByTestId('tld-edit')
      await form.getByLabel('Redemption period').fill('-3')
      await form.getByLabel('List price').fill('9.999')
      await form.getByRole('button', { name: 'Save changes' }).click()
      await expect(form.getByLabel('Redemption period')).toHaveAccessibleDescription('Enter a number of days from 0 to 365')
      await expect(form.getByLabel('Redemption period')).toHaveValue('-3')
      await expect(form.getByLabel('List price')).toHaveAccessibleDescription('Enter an amount such as 1,234.56')
      await expect(form.getByLabel('List price')).toHaveValue('9.999')

      await form.getByLabel('Redemption period').fill('40')
      await form.getByLabel('List price').fill('9.99')
      await form.getByLabel('Currency').fill('EUR')
      await form.getByRole('button', { name: 'Save changes' }).click()
      await expect(page.getByTestId('detail-List price')).toHaveText('€9.99')
      await expect(page.getByTestId('detail-Redemption period')).toHaveText('40 days')
    } finally {
      await restore()
    }
  })
})
