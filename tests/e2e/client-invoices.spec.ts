import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test, ACME_ADMIN, pageProblems, signedIn } from './support.ts'

// Issue 28: a client opens its invoices. The demo seed runs last month's invoices over the demo's
// renewals of last month (server/seed/billing.ts), so Acme Corp has one to open from the start.

test.describe('invoices as a client', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('the Acme admin goes Invoicing → Invoices and opens an invoice as PDF, which says how to pay it', async ({ page }) => {
    const problems = pageProblems(page)
    await page.goto('/')
    await page.getByTestId('side-nav').getByRole('link', { name: 'Invoicing' }).click()
    await page.getByRole('link', { name: 'Invoices', exact: true }).click()
    await expect(page.getByRole('link', { name: 'Invoices', exact: true })).toHaveAttribute('aria-current', 'page')
    const row = page
      .getByRole('row')
      .filter({ hasText: 'Invoice' })
      .filter({ hasText: /INV-\d{4}-\d{6}/ })
      .first()
    await expect(row).toBeVisible()
    // Its total in the one money form (Acme pays in USD): "$1,234.56", never "USD 1234.56".
    await expect(row).toContainText(/\$\d{1,3}(,\d{3})*\.\d{2}/)
    const number = (await row.getByText(/INV-\d{4}-\d{6}/).textContent())!.trim()
    // The other tab is the account's prices.
    await expect(page.getByRole('link', { name: 'Your prices', exact: true })).toBeVisible()

    const link = row.getByRole('link', { name: `Download ${number} as PDF` })
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    expect(download.suggestedFilename()).toBe(`${number}.pdf`)
    const file = (await download.path())!
    expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-')
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[ \t]+/g, ' ')
    expect(text).toContain(number)
    expect(text).toContain('IBAN: NL91 ABNA 0417 1643 00')
    // The same address answers a PDF, and the XML beside it an e-invoice.
    const pdf = await page.request.get((await link.getAttribute('href'))!)
    expect(pdf.headers()['content-type']).toBe('application/pdf')
    const xml = await page.request.get((await row.getByRole('link', { name: `Download ${number} as XML` }).getAttribute('href'))!)
    expect(xml.headers()['content-type']).toContain('application/xml')
    expect(await xml.text()).toContain('<cbc:ID>NL91ABNA0417164300</cbc:ID>')
    expect(problems()).toEqual([])
  })
})
