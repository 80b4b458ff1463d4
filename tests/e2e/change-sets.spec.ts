import { expect, test, ACME_ADMIN, hydrated, pageProblems, platform, signedIn, unique } from './support.ts'

// Change sets (issue 33): Acme's admin opens Change sets from the navigation, makes a set of the
// Google Workspace template over two zones of its own (a filter on their names) in two stages,
// sees each zone's diff in the preview, starts it and follows it to its end, each zone applied.

test.use({ storageState: signedIn(ACME_ADMIN) })

test('creates a change set, previews each zone and rolls it out in two stages', async ({ page }) => {
  const suffix = unique()
  const api = await platform(ACME_ADMIN)
  try {
    for (const name of [`cs-a-${suffix}.test`, `cs-b-${suffix}.test`]) {
      const zone = await api.post<{ id: string }>(`/groups/${api.group}/zones`, { name })
      await api.post(`/groups/${api.group}/zones/${zone.id}/changes`, { changes: [{ action: 'add', name: '@', type: 'MX', content: '10 mx.old.example.' }] })
    }
  } finally {
    await api.dispose()
  }
  const problems = pageProblems(page)
  await page.goto('/')
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Change sets' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Change sets' })).toBeVisible()
  await page.getByTestId('change-set-new').click()
  await hydrated(page)
  const form = page.getByTestId('change-set-form')
  await form.getByLabel('Name', { exact: true }).fill(`Mail to Google ${suffix}`)
  await form.getByLabel('Which objects (filter)').fill(`name ends_with '-${suffix}.test'`)
  await form.getByLabel('Template').selectOption('google-workspace')
  await form.getByLabel('Stages (%)').fill('50, 100')
  await form.getByRole('button', { name: 'Create and preview' }).click()

  await expect(page.getByRole('heading', { level: 1, name: `Mail to Google ${suffix}` })).toBeVisible()
  await expect(page.getByTestId('preview-changed')).toContainText('2')
  await expect(page.getByTestId('preview-conflicts')).toContainText('0')
  await expect(page.getByTestId('object-diff').first()).toContainText(`- cs-a-${suffix}.test MX 10 mx.old.example.`)
  await expect(page.getByTestId('object-diff').first()).toContainText(`+ cs-a-${suffix}.test MX 1 aspmx.l.google.com.`)

  await page.getByTestId('change-set-start').click()
  await expect(page.getByTestId('change-set-state')).toHaveText('Completed', { timeout: 30_000 })
  await expect(page.getByTestId('stage-0-check')).toContainText('Healthy')
  await expect(page.getByTestId('stage-1-check')).toContainText('Healthy')
  await expect(page.getByRole('table').getByText('Applied')).toHaveCount(2)
  expect(problems()).toEqual([])
})
