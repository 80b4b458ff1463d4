import { expect, test, STAFF, signedIn } from './support.ts'

// Failed background jobs (issue 29, Pulse: "staff see … failed jobs"): staff open the operations
// report from the navigation, follow the failed-job figure of a queue and land on the failed-jobs
// list filtered to exactly what it counts. The demo's failed job (a zone's publish, seeded at the
// first start: no action of the portal makes a job fail at once) is only read, never retried, so
// the spec changes nothing another one reads.

test.use({ storageState: signedIn(STAFF) })

test('staff follow the operations report’s failed-job figure to the list of failed jobs', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('side-nav').getByRole('link', { name: 'Reports' }).click()
  await page.getByTestId('report-card-operations').getByRole('link', { name: 'Operations', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Operations' })).toBeVisible()
  const section = page.getByTestId('report-section-failed_job')
  await expect(section.getByRole('heading', { name: 'Background jobs failed (30 days)' })).toBeVisible()
  const figure = section.getByTestId('figure-failed_job-dns.publish')
  const counted = Number(await figure.textContent())
  expect(counted).toBeGreaterThanOrEqual(1)

  await figure.click()
  await expect(page).toHaveURL(/\/reports\/operations\/failed-jobs\?.*pql=/)
  expect(new URL(page.url()).searchParams.get('pql')).toMatch(/^queue equals 'dns\.publish' and failed_at between /)
  await expect(page.getByRole('heading', { level: 1, name: 'Failed jobs' })).toBeVisible()
  await expect(page.getByTestId('failed-jobs-total')).toHaveText(String(counted))
  const row = page.getByRole('row').filter({ hasText: 'PowerDNS answered 502' }).first()
  await expect(row).toContainText('dns.publish')
  await expect(row).toContainText(/zoneId=[0-9a-f-]{36}/)
  await expect(row.getByRole('button', { name: 'Retry' })).toBeVisible()

  // The breadcrumb leads back to the report.
  await page
    .getByRole('navigation', { name: /breadcrumb/i })
    .getByRole('link', { name: 'Operations' })
    .click()
  await expect(page.getByTestId('report-section-failed_job')).toBeVisible()
})
