import { expect, test, ACME_ADMIN, CLIENT_VIEWER_ROLES, GLOBEX_ADMIN, hydrated, newUser, PASSWORD, platform, signedIn, signIn, unique } from './support.ts'

// Issue 26 item 11: names no registry should take, refused in the user's words beside the name.
// Issue 26 item 12: input that made the portal answer 500 or 502. A Location or Content-Disposition
// header must be ASCII (a header value outside Latin-1 cannot be sent at all), and a malformed id in
// an address is no such page (404), not a failure.

const LOCAL = '/ドメイン'
const ENCODED = '/%E3%83%89%E3%83%A1%E3%82%A4%E3%83%B3'

test.describe('signed out', () => {
  test('/login with a redirectTo in Japanese shows the form, and signing in goes there, percent-encoded', async ({ page }) => {
    const response = await page.goto(`/login?redirectTo=${encodeURIComponent(LOCAL)}`)
    expect(response?.status()).toBe(200)
    await page.locator('#login-username').fill(ACME_ADMIN)
    await page.locator('#login-password').fill(PASSWORD)
    await page.locator('#login').getByRole('button').last().click()
    await page.waitForURL((url) => url.pathname !== '/login')
    expect(new URL(page.url()).pathname).toBe(ENCODED)
  })

  test("the menu's theme and language switches, on a page whose address is in Japanese, come back to it percent-encoded", async ({ page }) => {
    // A user of this test's own: the switches change the stored preferences.
    const user = await newUser({ by: ACME_ADMIN, roles: CLIENT_VIEWER_ROLES })
    await signIn(page, user.email, `${LOCAL}?q=名前`, { password: user.password, waitForHydration: true })
    const back = `${ENCODED}?q=%E5%90%8D%E5%89%8D`
    const here = () => `${new URL(page.url()).pathname}${new URL(page.url()).search}`
    expect(here()).toBe(back)
    await hydrated(page)
    await page.getByTestId('user-menu').locator('summary').click()
    await page.getByTestId('theme-toggle').click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    expect(here()).toBe(back)
    // The menu stays open after a switch that comes back to the same address.
    if (!(await page.locator('#menu-language').isVisible())) await page.getByTestId('user-menu').locator('summary').click()
    await page.locator('#menu-language').selectOption('ja')
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
    expect(here()).toBe(back)
  })
})

test.describe('signed in', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('an organisation document named 登記簿謄本.pdf downloads with its name (RFC 6266 filename*)', async ({ request }) => {
    const api = await platform(ACME_ADMIN)
    const organisation = await api.post(`/groups/${api.group}/ssl-organisations`, {
      legal_name: `Kabushiki ${unique()}`,
      phone: '+81 3 1234 5678',
      street1: '1-1 Marunouchi',
      city: 'Tokyo',
      country: 'JP',
      approver_name: 'Hanako Yamada',
      approver_email: 'admin@acme.example',
    })
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n')
    const document = await api.post(`/groups/${api.group}/ssl-organisations/${organisation.id}/documents`, { filename: '登記簿謄本.pdf', content_base64: pdf.toString('base64') })
    await api.dispose()
    const answer = await request.get(`/ssls/organisations/${organisation.id}?document=${document.id}`)
    expect(answer.status()).toBe(200)
    expect(answer.headers()['content-disposition']).toBe(`attachment; filename="_____.pdf"; filename*=UTF-8''${encodeURIComponent('登記簿謄本.pdf')}`)
    expect(Buffer.from(await answer.body()).equals(pdf)).toBe(true)
  })

  test('an invoice download with a malformed id or context is 404, not 502', async ({ request }) => {
    for (const path of [
      '/invoicing/invoices/12345678-1234-1234-1234-123456789abc/pdf',
      '/invoicing/invoices/not-an-id/xml',
      `/invoicing/invoices/00000000-0000-4000-8000-000000000001/pdf?context=${'x'.repeat(36)}`,
    ]) {
      expect((await request.get(path)).status(), path).toBe(404)
    }
  })
})

test.describe('names no registry should take (issue 26 item 11)', () => {
  test.describe('in English', () => {
    test.use({ storageState: signedIn(ACME_ADMIN) })
    test('the availability check says why each name is refused', async ({ page }) => {
      await page.goto('/domains/add')
      await hydrated(page)
      await page.getByTestId('availability-names').fill(['x\u202e.com', 'p\u0430ypal-check.com', 'a\u00b7b.com'].join('\n'))
      await page.getByRole('button', { name: 'Check availability' }).click()
      const rows = page.getByTestId('availability-row')
      await expect(rows).toHaveCount(3)
      await expect(rows.nth(0)).toContainText('invisible character')
      await expect(rows.nth(1)).toContainText('mixes scripts')
      await expect(rows.nth(2)).toContainText('stands where it is not allowed')
    })
  })
  test.describe('in Spanish', () => {
    test.use({ storageState: signedIn(GLOBEX_ADMIN) })
    test('a transfer of x\u202e.com is refused beside the name', async ({ page }) => {
      await page.goto('/domains/add?mode=transfer')
      await hydrated(page)
      const form = page.locator('form', { has: page.locator('input[name="intent"][value="transfer"]') })
      await form.locator('input[name="name"]').fill('x\u202e.com')
      await form.locator('input[name="auth_code"]').fill('secret-A1x')
      await form.getByRole('button').click()
      await expect(form).toContainText('El nombre contiene un carácter invisible')
    })
  })
})
