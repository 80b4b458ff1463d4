import { formatMoney } from '../../common/money.ts'
import { expect, test, ACME_ADMIN, CLIENT_ADMIN_ROLES, hydrated, newDomains, ownSignedInUser, platform, unique } from './support.ts'

// Issue 28: the tray's bulk registry lock charges each domain's lock fee, so it asks once first —
// each domain's fee (the quote its own lock shows) and the total. Cancel charges and locks
// nothing; Confirm charges each domain its quoted fee, once. The tray is the user's own.
ownSignedInUser('tray-lock', { by: ACME_ADMIN, roles: CLIENT_ADMIN_ROLES })

type Price = { amount_minor: number; currency: string }

test('the bulk registry lock shows each fee and the total; cancel charges nothing, confirm charges each domain once', async ({ page }) => {
  const tag = `e2e-tlock-${unique()}`
  const domains = await newDomains(ACME_ADMIN, [`${tag}-1.com`, `${tag}-2.com`])
  const names = domains.map((d) => d.name)
  const api = await platform(ACME_ADMIN)
  const fees = await Promise.all(domains.map((d) => api.get<{ price: Price }>(`/groups/${api.group}/domains/${d.id}/registry-lock/quote`).then((q) => q.price)))
  const currency = fees[0]!.currency
  const total = fees.reduce((sum, p) => sum + p.amount_minor, 0)
  const lockFees = async () =>
    Promise.all(
      domains.map(async (d) => {
        const list = await api.get<{ data: { action: string; state: string; amount_minor: string | number }[] }>(
          `/groups/${api.group}/transactions?fields=action,state,amount_minor&pql=${encodeURIComponent(`domain_id equals '${d.id}'`)}`,
        )
        return list.data.filter((c) => c.action === 'registry-lock').map((c) => [c.state, Number(c.amount_minor)])
      }),
    )

  // Into the tray from the domain list, as a person selects them.
  await page.goto(`/domains?sort=name&pql=${encodeURIComponent(`name contains '${tag}'`)}`)
  await hydrated(page)
  const rows = page.getByTestId('data-row')
  await expect(rows.getByTestId('domain-link')).toHaveText(names)
  await rows.nth(0).getByRole('checkbox').check()
  await rows.nth(1).getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Add selected to the bulk tray' }).click()
  await expect(page.getByText('2 items added to the bulk tray')).toBeVisible()

  // The question: each domain's fee and the total, nothing started.
  const ask = async () => {
    await page.goto('/tray')
    await hydrated(page)
    await page.getByRole('radio', { name: 'Registry lock', exact: true }).check()
    await page.getByRole('button', { name: 'Start' }).click()
    await expect(page.getByTestId('charge-question')).toHaveText(`Turn the registry lock on for 2 domains: ${formatMoney(total, currency, 'en')} in all`)
  }
  await ask()
  const lines = page.getByTestId('bulk-price')
  await expect(lines).toHaveCount(2)
  for (const [i, name] of names.entries()) await expect(lines.nth(i)).toHaveText(`${name}${formatMoney(fees[i]!.amount_minor, currency, 'en')}`)
  await expect(page.getByTestId('bulk-total')).toHaveText(`Total${formatMoney(total, currency, 'en')}`)

  await page.getByTestId('bulk-cancel').click()
  await expect(page.getByTestId('confirm-bulk')).toHaveCount(0)
  expect(new URL(page.url()).searchParams.get('job')).toBeNull()
  expect(await lockFees()).toEqual([[], []])

  // Confirmed: each domain locked and charged its quoted fee, once.
  await ask()
  await page.getByTestId('bulk-confirm').click()
  await page.waitForURL(/\/tray\?job=[0-9a-f-]{36}/)
  await expect(page.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed', { timeout: 60_000 })
  for (const name of names) await expect(page.getByTestId('bulk-result').filter({ hasText: name })).toHaveAttribute('data-ok', 'true')
  expect(await lockFees()).toEqual(fees.map((p) => [['settled', p.amount_minor]]))
  const locked = await Promise.all(domains.map((d) => api.get<{ registry_lock: boolean }>(`/groups/${api.group}/domains/${d.id}`).then((r) => r.registry_lock)))
  expect(locked).toEqual([true, true])
  await api.dispose()

  await page.goto('/tray')
  await hydrated(page)
  await page.getByRole('button', { name: 'Empty the tray' }).click()
  await expect(page.getByTestId('tray-empty')).toBeVisible()
})
