import { formatMoney } from '../../common/money.ts'
import { expect, test, ACME_ADMIN, hydrated, newDomains, platform, signedIn, unique, type Platform } from './support.ts'

// Issue 28, item 4: Renew on a domain's overview charged at once, with no price shown. Now it asks
// once: the first click shows the renewal and the price the pricing engine quotes for exactly it
// (in the account's currency, the app's money format) and charges nothing; Cancel leaves the domain
// as it was; Confirm charges exactly the price shown. Each test renews a registration of its own.

type Charge = { state: string; action: string; amount_minor: number | string; currency: string }

async function renewals(api: Platform, domainId: string) {
  const page = await api.get<{ data: Charge[] }>(`/groups/${api.group}/transactions?fields=state,action,amount_minor,currency&pql=${encodeURIComponent(`domain_id equals '${domainId}'`)}`)
  return page.data.filter((c) => c.action === 'renew').map((c) => ({ ...c, amount_minor: Number(c.amount_minor), currency: c.currency.trim() }))
}

test.describe('renewing from a domain overview', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('shows the renewal and the engine’s price before anything is charged: cancel charges nothing, confirm charges exactly the price shown', async ({ page }) => {
    const [domain] = await newDomains(ACME_ADMIN, [`e2e-renew-${unique()}.com`])
    const api = await platform(ACME_ADMIN)
    try {
      const quote = await api.get<{ price: { amount_minor: number; currency: string } }>(`/groups/${api.group}/domains/${domain!.id}/renew/quote?period=1`)
      const price = formatMoney(quote.price.amount_minor, quote.price.currency, 'en')
      await page.goto(`/domains/${domain!.id}`)
      await hydrated(page)
      const expiry = (await page.getByTestId('domain-expires').textContent())!
      expect(expiry).not.toBe('—')

      await page.getByTestId('renew').click()
      await expect(page.getByTestId('charge-question')).toHaveText(`Renew ${domain!.name} for 1 year: ${price}`)
      await expect(page.getByTestId('confirm-renew')).toContainText('Nothing is charged until you confirm.')
      // Asked, not charged: no renewal among the domain's transactions, the expiry as it was.
      expect(await renewals(api, domain!.id)).toEqual([])
      await expect(page.getByTestId('domain-expires')).toHaveText(expiry)

      await page.getByTestId('renew-cancel').click()
      await expect(page.getByTestId('confirm-renew')).toHaveCount(0)
      expect(await renewals(api, domain!.id)).toEqual([])
      await expect(page.getByTestId('domain-expires')).toHaveText(expiry)

      await page.getByTestId('renew').click()
      await expect(page.getByTestId('charge-question')).toHaveText(`Renew ${domain!.name} for 1 year: ${price}`)
      await page.getByTestId('renew-confirm').click()
      await expect(page.getByTestId('confirm-renew')).toHaveCount(0)
      await expect(page.getByTestId('domain-expires')).not.toHaveText(expiry)
      expect(await renewals(api, domain!.id)).toEqual([{ state: 'settled', action: 'renew', amount_minor: quote.price.amount_minor, currency: quote.price.currency }])
    } finally {
      await api.dispose()
    }
  })
})

test.describe('renewing without JavaScript', () => {
  test.use({ storageState: signedIn(ACME_ADMIN), javaScriptEnabled: false })

  test('the confirmation is a page of its own answer: the price, then one charge at it', async ({ page }) => {
    const [domain] = await newDomains(ACME_ADMIN, [`e2e-renew-${unique()}.com`])
    const api = await platform(ACME_ADMIN)
    try {
      const quote = await api.get<{ price: { amount_minor: number; currency: string } }>(`/groups/${api.group}/domains/${domain!.id}/renew/quote?period=2`)
      await page.goto(`/domains/${domain!.id}`)
      await page.locator('#renew-form input[name="period"]').fill('2')
      await page.getByTestId('renew').click()
      await expect(page.getByTestId('charge-question')).toHaveText(`Renew ${domain!.name} for 2 years: ${formatMoney(quote.price.amount_minor, quote.price.currency, 'en')}`)
      expect(await renewals(api, domain!.id)).toEqual([])
      await page.getByTestId('renew-confirm').click()
      await expect(page.getByTestId('confirm-renew')).toHaveCount(0)
      expect(await renewals(api, domain!.id)).toEqual([{ state: 'settled', action: 'renew', amount_minor: quote.price.amount_minor, currency: quote.price.currency }])
    } finally {
      await api.dispose()
    }
  })
})
