import { expect, test, ACME_ADMIN, hydrated, pageProblems, signedIn, unique } from './support.ts'

// Issue 20: an account admin adds a webhook endpoint from the account's page (plain HTTP refused
// beside the URL, nothing lost), copies the signing secret shown once, sends a test event and
// sees the attempt in the delivery log (the host does not exist: the attempt records why), then
// deletes the endpoint it made.

test.use({ storageState: signedIn(ACME_ADMIN) })

test('an admin adds an endpoint, pings it, reads the delivery log and deletes it', async ({ page }) => {
  const problems = pageProblems(page)
  const host = `e2e-${unique()}.invalid`
  await page.goto('/accounts')
  await page.getByRole('link', { name: 'Acme Corp', exact: true }).first().click()
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click()
  await hydrated(page)
  expect(problems()).toEqual([])
  await page.getByTestId('webhook-new-open').click()
  const form = page.locator('form#webhook-endpoint-create')
  await form.getByLabel('URL').fill(`http://${host}/hooks`)
  await form.getByLabel('Description').fill('e2e receiver')
  await form.getByLabel(/A domain was renewed/).check()
  // Block events are offered like every other (common/webhooks.ts).
  await form.getByLabel(/A block was placed/).check()
  // The form is a side sheet over the endpoints; its button is in the sheet's footer.
  const add = page.getByRole('dialog', { name: 'New endpoint' }).getByRole('button', { name: 'Add endpoint' })
  await add.click()
  await expect(form.getByText('The URL must start with https://')).toBeVisible()
  await expect(form.getByLabel('Description')).toHaveValue('e2e receiver')
  await form.getByLabel('URL').fill(`https://${host}/hooks`)
  await add.click()
  await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/)
  await page.getByTestId('sheet-cancel').click()
  await expect(page.getByRole('dialog')).toHaveCount(0)

  await page.getByRole('link', { name: `https://${host}/hooks` }).click()
  await expect(page.getByRole('heading', { level: 1 })).toContainText(host)
  await expect(page.getByText('domain.renewed, block.placed')).toBeVisible()
  await page.getByTestId('webhook-test').click()
  await expect(page.getByText('Test event queued')).toBeVisible()
  // The job tries it within seconds; the log says what happened.
  await expect(async () => {
    await page.reload()
    await expect(page.getByTestId('webhook-attempt').first()).toContainText('webhook.test', { timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  await expect(page.getByTestId('webhook-attempt').first()).toContainText('No answer')

  await page.getByText('Delete endpoint', { exact: true }).first().click()
  await page.getByTestId('confirm-delete').getByRole('button', { name: 'Delete endpoint' }).click()
  await expect(page.getByText('Endpoint deleted')).toBeVisible()
  await expect(page.getByRole('link', { name: `https://${host}/hooks` })).toHaveCount(0)
  expect(problems().filter((p) => !p.includes('400'))).toEqual([])
})
