import AxeBuilder from '@axe-core/playwright'
import ExcelJS from 'exceljs'
import { writeFile } from 'node:fs/promises'
import { expect, test, ACME_ADMIN, newDomains, platform, settled, signedIn, unique } from './support.ts'

// Reports (issue 29): Acme's admin opens Reports from the real navigation, filters by a tag of the
// test's own (two domains it registers, one without auto-renew), reads the headline, opens the
// domains report, clicks a figure and lands on the domain list showing exactly the domains it
// counts, downloads the XLSX and reads it back, and opens the print view (no navigation) and prints
// it to PDF on A4 and Letter.

test.use({ storageState: signedIn(ACME_ADMIN) })

test('opens a report from the navigation, follows a figure to its list, downloads the XLSX and prints', async ({ page }, testInfo) => {
  const tag = `e2e-rep-${unique()}`
  const names = [`e2e-rep-a-${unique()}.com`, `e2e-rep-b-${unique()}.com`]
  const domains = await newDomains(ACME_ADMIN, names)
  const api = await platform(ACME_ADMIN)
  try {
    for (const [i, domain] of domains.entries()) {
      const { version } = await api.get<{ version: number }>(`/groups/${api.group}/domains/${domain.id}`)
      await api.patch(`/groups/${api.group}/domains/${domain.id}`, { version, tags: [tag], auto_renew: i === 0 })
    }
  } finally {
    await api.dispose()
  }

  await page.goto('/')
  await page.getByTestId('side-nav').getByRole('link', { name: 'Reports' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible()
  // Every report this admin may read is listed.
  await expect(page.getByTestId(/^report-card-/)).toHaveCount(6)
  await page.getByLabel('Tag').fill(tag)
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(page.getByTestId('report-headline-domains')).toHaveText('2 domains')

  await page.getByTestId('report-card-domains').getByRole('link', { name: 'Domains', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Domains report' })).toBeVisible()
  await expect(page.getByTestId('report-total')).toHaveText('2')
  await expect(page.getByTestId('report-chart-status')).toBeVisible()
  await expect(page.getByTestId('figure-auto_renew-false')).toHaveText('1')

  // The figure leads to the list filtered to exactly the domain it counts, its pql in the URL.
  await page.getByTestId('figure-auto_renew-false').click()
  await expect(page).toHaveURL(/\/domains\?.*pql=/)
  expect(new URL(page.url()).searchParams.get('pql')).toBe(`tags equals '${tag}' and auto_renew equals 'false'`)
  await expect(page.getByRole('link', { name: names[1]! })).toBeVisible()
  await expect(page.getByRole('link', { name: names[0]! })).toHaveCount(0)

  // The XLSX: the figures and the two domains behind them, the header frozen.
  await page.goBack()
  await expect(page.getByRole('heading', { level: 1, name: 'Domains report' })).toBeVisible()
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export-xlsx').click()])
  expect(download.suggestedFilename()).toMatch(/^domains-report-\d{4}-\d{2}-\d{2}\.xlsx$/)
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.readFile(await download.path())
  const sheet = workbook.getWorksheet('Domains')!
  expect(sheet.rowCount).toBe(3)
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
  const names2 = [2, 3].map((r) => String(sheet.getRow(r).getCell(1).value)).sort()
  expect(names2).toEqual([...names].sort())

  // The print view: the clean layout (no navigation), title, filters and generated-at, printable on A4 and Letter.
  await page.getByTestId('report-print').click()
  await expect(page.getByTestId('report-print')).toBeVisible()
  await expect(page.getByTestId('side-nav')).toHaveCount(0)
  await expect(page.getByTestId('report-stamp')).toContainText(`Tag = ${tag}`)
  await page.emulateMedia({ media: 'print' })
  for (const format of ['A4', 'Letter'] as const) {
    const pdf = await page.pdf({ format, printBackground: true })
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
    // Kept in the test's output folder, to look at the pages.
    await writeFile(testInfo.outputPath(`domains-report-${format}.pdf`), pdf)
  }

  // The record report from the index: its print view breaks the table between rows, the header repeated.
  await page.emulateMedia({ media: 'screen' })
  await page.goto('/')
  await page.getByTestId('side-nav').getByRole('link', { name: 'Reports' }).click()
  await page.getByTestId('report-card-dns-records').getByRole('link', { name: 'DNS records', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'DNS records report' })).toBeVisible()
  await page.getByTestId('report-print').click()
  await expect(page.getByTestId('report-print').locator('tbody tr').first()).toBeVisible()
  await page.emulateMedia({ media: 'print' })
  await writeFile(testInfo.outputPath('dns-records-report-A4.pdf'), await page.pdf({ format: 'A4', printBackground: true }))
})

test('the report screens and a print view have no serious or critical axe-core violation, light and dark', async ({ page }) => {
  const found: string[] = []
  await page.goto('/reports')
  for (const theme of ['light', 'dark']) {
    await page.context().addCookies([{ name: 'theme', value: theme, url: page.url() }])
    for (const path of ['/reports', '/reports/domains', '/reports/dns-records', '/reports/domains/print', '/reports/dns', '/pulse']) {
      await page.goto(path)
      await settled(page)
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
      for (const violation of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        found.push(
          `${theme} ${path}: ${violation.id} — ${violation.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(' | ')}`,
        )
      }
    }
  }
  expect(found).toEqual([])
})

test('arranges the pulse dashboard with its plain forms and follows a widget’s figure to its list', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('side-nav').getByRole('link', { name: 'Pulse' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Pulse' })).toBeVisible()
  const widget = page.getByTestId('pulse-widget-ssls-status')
  // A widget of its own: the SSL report by state, two columns wide, then moved one place earlier.
  if ((await widget.count()) === 0) {
    await page.getByLabel('Report and figure').selectOption('ssls|status')
    await page.getByLabel('Width').selectOption('2')
    await page.getByTestId('pulse-add-submit').click()
  }
  await expect(widget).toBeVisible()
  await widget.getByRole('button', { name: 'Move earlier' }).click()
  await expect(page.getByTestId('pulse-reset')).toBeVisible()
  // Its figure opens the certificate list filtered to what it counts.
  await widget.getByRole('link', { name: /^\d+$/ }).first().click()
  await expect(page).toHaveURL(/\/ssls\?.*pql=status/)
  // Back to the defaults: the dashboard is the role's again.
  await page.goBack()
  await page.getByTestId('pulse-reset').click()
  await expect(page.getByTestId('pulse-widget-ssls-status')).toHaveCount(0)
})
