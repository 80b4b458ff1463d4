import { expect, test, ACME_ADMIN, GLOBEX_ADMIN, signedIn } from './support.ts'

// Issue 16 item 11: one title rule everywhere (spec §2, app/lib/titles.ts): the page name, the
// path's words reversed, the product short name. No "- Portal", no "Dns", no area repeated.
// A demo domain no spec changes (server/seed/demo.ts).
const UNTOUCHED = 'acme-archive.com'

test.describe('page titles signed out', () => {
  test('the sign-in pages follow the rule too', async ({ page }) => {
    await page.goto('/login')
    await expect(page).toHaveTitle('Sign in - Registrar')
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await expect(page).toHaveURL(/\/reset$/)
    await expect(page).toHaveTitle('Reset password - Registrar')
  })
})

test.describe('page titles as the Acme admin', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('a list, a domain and its tabs, an area not built yet', async ({ page }) => {
    await page.goto(`/domains?pql=${encodeURIComponent(`name equals '${UNTOUCHED}'`)}`)
    await expect(page).toHaveTitle('Domains - Registrar')
    await page.getByTestId('domain-link').filter({ hasText: UNTOUCHED }).click()
    await expect(page).toHaveTitle(`${UNTOUCHED} - Domains - Registrar`)
    const tabs = page.getByTestId('domain-tabs')
    await tabs.getByRole('link', { name: 'DNSSEC' }).click()
    await expect(page).toHaveTitle(`${UNTOUCHED} - DNSSEC - Domains - Registrar`)
    await tabs.getByRole('link', { name: 'DNS', exact: true }).click()
    await expect(page).toHaveTitle(`${UNTOUCHED} - DNS - Domains - Registrar`)
    // The document the server sends has the same title as the one the browser's navigation set.
    await page.reload()
    await expect(page).toHaveTitle(`${UNTOUCHED} - DNS - Domains - Registrar`)
    await page.goto('/domains/dns-log')
    await expect(page).toHaveTitle('DNS log - Domains - Registrar')
    await page.goto('/reports/dns-records')
    await expect(page).toHaveTitle('DNS records - Reports - Registrar')
    await page.goto('/accounts/log')
    await expect(page).toHaveTitle('Log - Accounts - Registrar')
  })
})

test.describe('page titles in Spanish', () => {
  test.use({ storageState: signedIn(GLOBEX_ADMIN) })

  test('are translated word by word', async ({ page }) => {
    await page.goto('/domains/dns-log')
    await expect(page).toHaveTitle('Registro DNS - Dominios - Registrador')
  })
})
