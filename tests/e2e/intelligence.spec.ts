import { expect, test, ACME_ADMIN, STAFF, hydrated, newDomains, newUser, pageProblems, platform, signIn, unique } from './support.ts'

// Intelligence (issue 32): a prospect manager inside Acme (granted by staff) adds an item for a brand
// of the test's own, runs it (a job), opens its gap matrix, closes the gap on one free name (the cart),
// then fixes a failing DMARC of the brand's domain from the security score and finds the record in its zone.
test('runs an item, closes the gap into the cart and applies a fix seen in the zone', async ({ page }) => {
  const brand = `e2eintel${unique()}`
  const problems = pageProblems(page)
  // The brand's own domain, registered and hosted here: the score has a domain and a zone to fix.
  const admin = await platform(ACME_ADMIN)
  const [domain] = await newDomains(ACME_ADMIN, [`${brand}.com`])
  await admin.post(`/groups/${admin.group}/zones`, { domain_id: domain!.id })
  const user = await newUser({ by: STAFF, account: admin.group, roles: ['prospect-manager', 'domain-manager', 'dns-manager'] })
  await admin.dispose()

  // Spec §2: prospect roles without brand-viewer or staff: the home is /intelligence.
  await signIn(page, user.email, '/', { password: user.password })
  await expect(page).toHaveURL(/\/intelligence$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Intelligence' })).toBeVisible()
  await hydrated(page)
  await page.getByTestId('intelligence-add-open').click()
  const form = page.locator('form#intelligence-add')
  await form.getByLabel('Name', { exact: true }).fill(`Brand ${brand}`)
  await form.getByLabel('Brand', { exact: true }).fill(brand)
  await form.getByLabel('Priority ccTLDs').fill('io de')
  await page.getByTestId('intelligence-add-submit').click()
  await expect(page.getByTestId('intelligence-item-name')).toHaveText(`Brand ${brand}`)

  // The run is a job: its row shows done once the worker has checked every name.
  await page.getByTestId('intelligence-run').click()
  await expect(page.getByText('The run is queued: its progress shows below.')).toBeVisible()
  await expect.poll(async () => (await page.reload(), await page.getByTestId('intelligence-run-done').count()), { timeout: 90_000, intervals: [500] }).toBe(1)

  await page.getByTestId('intelligence-tab-results').click()
  await expect(page.getByTestId('gap-matrix')).toBeVisible()
  await expect(page.getByTestId(`cell-${brand}.com`)).toHaveAttribute('data-state', 'ours')
  await expect(page.getByTestId(`cell-${brand}.info`)).toHaveAttribute('data-state', 'not-offered')
  await expect(page.getByTestId(`cell-${brand}.net`)).toHaveAttribute('data-state', 'available')
  // Only .net to the cart: every other free cell unticked.
  await hydrated(page)
  for (const box of await page.locator('input[name=names]').all()) if ((await box.getAttribute('value')) !== `${brand}.net`) await box.uncheck()
  await page.getByTestId('gap-close').click()
  await expect(page.getByText('1 name went to the cart.')).toBeVisible()

  // The security score: the brand's domain fails DMARC; its fix adds the record to the zone we host.
  await page.getByTestId('intelligence-tab-registry-lock-focus').click()
  const row = page.getByTestId(`score-${brand}.com`)
  await expect(row).toBeVisible()
  await row.getByTestId(`fix-dmarc-${brand}.com`).click()
  await expect(page.getByText(`${brand}.com: _dmarc TXT "v=DMARC1; p=reject" was added to its zone.`)).toBeVisible()
  await expect(page.getByTestId(`score-${brand}.com`).getByTestId(`fix-dmarc-${brand}.com`)).toHaveCount(0)
  await page.goto(`/domains/${domain!.id}/dns`)
  await expect(page.getByText('"v=DMARC1; p=reject"').first()).toBeVisible()
  expect(problems()).toEqual([])
})
