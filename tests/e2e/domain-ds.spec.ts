import type { Page } from '@playwright/test'
import { expect, test, ACME_ADMIN, ACME_VIEWER, hydrated, signedIn } from './support.ts'

// Issue 28, item 16: the DNSSEC tab of a domain whose DNS is hosted elsewhere (the demo's defensive
// registrations have no zone here) lets a domain manager give the registry its DS records and take
// them back. The spec removes what it adds.
const DIGEST = '2bb183af5f22588179a53b0a98631fad 1a292118a3f2d0b1f0d0e0c1b2a39485'
const KEY_TAG = '2371'

async function openDnssecOfHostedElsewhere(page: Page) {
  await page.goto(`/domains?pql=${encodeURIComponent("tags equals 'defensive'")}`)
  const link = page.getByTestId('domain-link').first()
  const name = (await link.textContent())!.trim()
  await link.click()
  await expect(page.getByTestId('domain-name')).toHaveText(name)
  await page.getByTestId('domain-tabs').getByRole('link', { name: 'DNSSEC', exact: true }).click()
  await expect(page).toHaveURL(/\/dnssec$/)
  await expect(page.getByTestId('ds-delegation')).toContainText(`The zone of ${name} is hosted elsewhere`)
  return name
}

test.describe('DS records of a domain hosted elsewhere, as the Acme admin', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('are refused beside the field when the digest is short, added at the registry, and removed', async ({ page }) => {
    await openDnssecOfHostedElsewhere(page)
    await hydrated(page)
    const form = page.getByRole('form', { name: 'Add DS record' })
    await form.getByLabel('Key tag').fill(KEY_TAG)
    await form.getByLabel('Algorithm').selectOption('13')
    await form.getByLabel('Digest type').selectOption('2')
    await form.getByLabel('Digest', { exact: true }).fill(DIGEST.slice(0, 40))
    await form.getByRole('button', { name: 'Add DS record' }).click()
    await expect(form.getByText('A SHA-256 digest has 64 hexadecimal digits.')).toBeVisible()

    await form.getByLabel('Digest', { exact: true }).fill(DIGEST)
    await form.getByRole('button', { name: 'Add DS record' }).click()
    await expect(page.getByText('The DS record is at the registry.')).toBeVisible()
    const record = page.getByTestId('ds-record').filter({ hasText: `${KEY_TAG} 13 2 ${DIGEST.replace(' ', '').toUpperCase()}` })
    await expect(record).toContainText('ECDSAP256SHA256 · SHA-256')

    await hydrated(page)
    await record.getByRole('button', { name: `Remove ${KEY_TAG}` }).click()
    await expect(page.getByText('The DS record is removed at the registry.')).toBeVisible()
    await expect(page.getByTestId('ds-record').filter({ hasText: `${KEY_TAG} 13 2` })).toHaveCount(0)
  })
})

test.describe('DS records of a domain hosted elsewhere, as the Acme viewer', () => {
  test.use({ storageState: signedIn(ACME_VIEWER) })

  test('are shown without a form, and the page says why', async ({ page }) => {
    await openDnssecOfHostedElsewhere(page)
    await expect(page.getByRole('form', { name: 'Add DS record' })).toHaveCount(0)
    await expect(page.getByText('Changing DS records needs the domain manager role.')).toBeVisible()
  })
})
