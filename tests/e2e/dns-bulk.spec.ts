import { expect, test, ACME_ADMIN, hydrated, newDomains, platform, signedIn, unique } from './support.ts'

test.use({ storageState: signedIn(ACME_ADMIN) })

/** An address no other test uses: a random third octet of its own. */
const ownAddress = (third: number, last: number) => `203.0.${third}.${last}`
const randomOctet = () => Math.floor(Math.random() * 256)

/** A standalone zone of Acme's with www and api pointing at `address`, made through the Platform API. */
async function zoneWith(name: string, address: string) {
  const api = await platform(ACME_ADMIN)
  try {
    const zone = await api.post<{ id: string; name: string }>(`/groups/${api.group}/zones`, { name })
    await api.post(`/groups/${api.group}/zones/${zone.id}/changes`, {
      changes: [
        { action: 'add', name: 'www', type: 'A', content: address },
        { action: 'add', name: 'api', type: 'A', content: address },
      ],
    })
    return zone
  } finally {
    await api.dispose()
  }
}

test('replace an address in every zone that has it, from /tray/records, with progress and per-zone results', async ({ page }) => {
  // Two zones that, alone in the account, hold an address of the test's own.
  const suffix = unique()
  const third = randomOctet()
  const [from, to] = [ownAddress(third, 77), ownAddress(third, 78)]
  const a = await zoneWith(`bulk-a-${suffix}.test`, from)
  const b = await zoneWith(`bulk-b-${suffix}.test`, from)
  await page.goto('/tray/records')
  await hydrated(page)
  const form = page.getByTestId('replace-form')

  // A refusal keeps what was typed and says why, next to the field.
  await form.getByLabel('Replace').fill(from)
  await form.getByRole('button', { name: 'Replace' }).click()
  await expect(form.getByTestId('field-error')).toHaveCount(1)
  await expect(form.getByLabel('With')).toHaveAttribute('aria-invalid', 'true')
  await form.getByLabel('With').fill('2001:db8::7')
  await form.getByLabel('every zone of the account that has it').check()
  await form.getByRole('button', { name: 'Replace' }).click()
  await expect(page.getByTestId('replace-error')).toContainText('must be an IPv4 address')
  await expect(form.getByLabel('Replace')).toHaveValue(from)

  await form.getByLabel('With').fill(to)
  await form.getByLabel('every zone of the account that has it').check()
  await form.getByRole('button', { name: 'Replace' }).click()
  await expect(page).toHaveURL(/\/tray\/records\?job=/)
  const job = page.getByTestId('bulk-job')
  await expect(job).toBeVisible()
  await expect(page.getByTestId('bulk-progress')).toBeVisible()
  // The worker changes one zone after the other; the page revalidates until the job is done.
  await expect(job).toHaveAttribute('data-state', 'completed', { timeout: 60_000 })
  await expect(job).toContainText('2 of 2 zones done')
  const results = page.getByTestId('bulk-result')
  await expect(results).toHaveCount(2)
  await expect(results.filter({ hasText: a.name })).toContainText('2 records changed')
  await expect(results.filter({ hasText: b.name })).toContainText('2 records changed')

  // The zone shows the new address, and the DNS log has the change.
  await page.goto(`/domains/search/records?pql=${encodeURIComponent(`content equals '${to}'`)}`)
  await expect(page.getByTestId('data-row')).toHaveCount(4)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the progress of a record job refreshes without JavaScript', async ({ page }) => {
    const third = randomOctet()
    await zoneWith(`bulk-c-${unique()}.test`, ownAddress(third, 91))
    await page.goto('/tray/records')
    const form = page.getByTestId('replace-form')
    await form.getByLabel('Replace').fill(ownAddress(third, 91))
    await form.getByLabel('With').fill(ownAddress(third, 92))
    await form.getByLabel('every zone of the account that has it').check()
    await form.getByRole('button', { name: 'Replace' }).click()
    await expect(page).toHaveURL(/\/tray\/records\?job=/)
    // Without JavaScript a meta refresh reloads the page while the job runs.
    await expect(page.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed', { timeout: 60_000 })
    await expect(page.getByTestId('bulk-result')).toContainText('2 records changed')
  })
})

test('statistics: range choice as a GET form, honest empty state without PowerDNS', async ({ page }) => {
  // A registration of the test's own with a zone.
  const [domain] = await newDomains(ACME_ADMIN, [`e2e-stats-${unique()}.com`])
  const api = await platform(ACME_ADMIN)
  await api.post(`/groups/${api.group}/zones`, { domain_id: domain!.id })
  await api.dispose()

  await page.goto(`/domains/${domain!.id}/dns-statistics`)
  await expect(page.getByTestId('dns-statistics-empty')).toContainText('PowerDNS is not configured')
  await expect(page.getByLabel('Last 24 hours')).toBeChecked()
  await page.getByLabel('Last 7 days').check()
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/range=7d/)
  await expect(page.getByLabel('Last 7 days')).toBeChecked()
  await expect(page.getByTestId('dns-statistics-empty')).toBeVisible()
  await expect(page.getByTestId('dns-statistics-chart')).toHaveCount(0)
})
