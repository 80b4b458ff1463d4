import { expect, test } from '@playwright/test'
import { hydrated, signIn } from './support.ts'

test.describe('error screens', () => {
  test('an unknown path is Page Not Found with the path, 404, mail to support', async ({ page }) => {
    const response = await page.goto('/no-such-page')
    expect(response?.status()).toBe(404)
    await expect(page.getByTestId('error-status')).toHaveText('404')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('An error has occurred')
    await expect(page).toHaveTitle('An error has occurred')
    await expect(page.locator('pre code')).toHaveText('Page Not Found /no-such-page')
    await expect(page.locator('a[href^="mailto:"]')).toHaveAttribute('href', /subject=404%20error/)
    await expect(page.getByRole('button', { name: 'Back' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Home' })).toBeVisible()
  })

  test('a non-UUID id fails route validation with 404', async ({ page }) => {
    await signIn(page, 'admin@acme.example')
    const response = await page.goto('/domains/not-a-uuid/dns')
    expect(response?.status()).toBe(404)
    await expect(page.locator('pre code')).toHaveText('Page Not Found /domains/not-a-uuid/dns')
  })

  test('a viewer opening a staff-only page gets access denied (403)', async ({ page }) => {
    await signIn(page, 'viewer@acme.example')
    const response = await page.goto('/products')
    expect(response?.status()).toBe(403)
    await expect(page.getByTestId('error-status')).toHaveText('403')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access denied')
    await expect(page).toHaveTitle('Access denied')
    await expect(page.getByText('You do not have permission to open this page')).toBeVisible()
  })

  test('too many sign-in attempts show the 429 screen', async ({ page }) => {
    // The sign-in limiter counts per client address; a dedicated address keeps other tests clear.
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': '203.0.113.42' })
    await page.goto('/login')
    const origin = new URL(page.url()).origin
    let status = 0
    for (let i = 0; i < 200 && status !== 429; i++) {
      const response = await page.request.post('/login', {
        form: { username: 'nobody@example.com', password: 'wrong-password-123' },
        headers: { Origin: origin, 'X-Forwarded-For': '203.0.113.42' },
        maxRedirects: 0,
      })
      status = response.status()
    }
    expect(status).toBe(429)
    await page.locator('#login-username').fill('nobody@example.com')
    await page.locator('#login-password').fill('wrong-password-123')
    await page.locator('#login').getByRole('button').last().click()
    await expect(page.getByTestId('error-status')).toHaveText('429')
    await expect(page.getByText('Please wait a moment before trying again')).toBeVisible()
    await expect(page.locator('a[href^="mailto:"]').first()).toHaveAttribute('href', /subject=429%20error/)
  })
})

test.describe('theme and language', () => {
  test('the theme is kept across reloads and painted before any script runs', async ({ page }) => {
    await signIn(page, 'admin@acme.example')
    await expect(page.locator('html')).not.toHaveClass(/dark/)
    await page.getByTestId('user-menu').locator('summary').click()
    await page.getByTestId('theme-toggle').click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    // The server puts the class on <html>: the raw document already has it (no flash).
    const html = await (await page.request.get('/')).text()
    expect(html).toMatch(/<html[^>]*class="dark"/)
    await page.reload()
    await expect(page.locator('html')).toHaveClass(/dark/)
  })

  test('without a stored theme the system preference applies before paint', async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: 'dark' })
    const page = await context.newPage()
    await page.goto('/login')
    await context.clearCookies({ name: 'theme' })
    await page.goto('/no-such-page')
    await expect(page.locator('html')).toHaveClass(/dark/)
    await context.close()
  })

  test('switching to ja changes the UI and the validation messages', async ({ page }) => {
    // Globex's admin: the profile keeps the language, so the other tests' user stays in English.
    await signIn(page, 'admin@globex.example', '/my-profile')
    await page.getByTestId('profile-language').selectOption('ja')
    await page.getByTestId('profile-save').click()
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('プロフィール')
    await page.locator('#password-form').getByRole('button').click()
    await expect(page.getByTestId('field-error').first()).toHaveText('この項目は必須です')
  })
})

test.describe('list pages', () => {
  test('a filter built in the builder gives a URL that shows the same rows elsewhere, also without JavaScript', async ({ page, browser }) => {
    await signIn(page, 'admin@acme.example', '/accounts/log')
    const builder = page.getByTestId('filter-builder')
    await builder.locator('select[name="f_field"]').selectOption('entity_type')
    await builder.locator('select[name="f_op"]').selectOption('equals')
    await builder.locator('input[name="f_value"]').fill('user')
    await builder.getByRole('button').click()
    await expect(page).toHaveURL(/pql=entity_type/)
    // The address changes as the navigation starts; wait until the rows are the filtered ones.
    await expect.poll(async () => {
      const texts = await page.getByTestId('data-row').allTextContents()
      return texts.length > 0 && texts.every((text) => text.includes('user'))
    }).toBe(true)
    const url = page.url()
    const rows = await page.getByTestId('data-row').allTextContents()
    expect(rows.length).toBeGreaterThan(0)
    const total = await page.getByTestId('list-total').textContent()
    const state = await page.context().storageState()

    for (const javaScriptEnabled of [true, false]) {
      const context = await browser.newContext({ javaScriptEnabled, storageState: { cookies: state.cookies.filter((c) => c.name === '__session' || c.name === 'portal_tab_session'), origins: [] } })
      const fresh = await context.newPage()
      await fresh.goto(url)
      await expect(fresh.getByTestId('list-total')).toHaveText(total!)
      expect(await fresh.getByTestId('data-row').allTextContents()).toEqual(rows)
      await context.close()
    }
  })

  test('the filter builder works with JavaScript off', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await signIn(page, 'admin@acme.example', '/accounts/log')
    const builder = page.getByTestId('filter-builder')
    await builder.locator('select[name="f_field"]').selectOption('action')
    await builder.locator('select[name="f_op"]').selectOption('equals')
    await builder.locator('input[name="f_value"]').fill('create')
    await builder.getByRole('button').click()
    await expect(page).toHaveURL(/pql=action\+equals/)
    await expect(page.getByTestId('data-row').first()).toBeVisible()
    await page.goto('/accounts/log?pql=action+like+x')
    await expect(page.getByTestId('list-error')).toContainText('Expected an operator')
    await context.close()
  })
})

test.describe('navigation', () => {
  test('the context chosen by staff is carried across navigation, except to logout', async ({ page }) => {
    await signIn(page, 'staff@example.com')
    const select = page.getByTestId('client-selection').locator('select')
    const acme = await select.locator('option', { hasText: 'Acme Corp' }).getAttribute('value')
    await select.selectOption(acme!)
    await expect(page).toHaveURL(new RegExp(`context=${acme}`))
    await page.getByTestId('nav-bar').getByRole('link', { name: 'Accounts' }).click()
    await expect(page).toHaveURL(new RegExp(`/accounts\\?context=${acme}`))
    await page.goto(`/accounts/log?context=${acme}`)
    await expect(page.getByTestId('list-total')).not.toHaveText('0 entries')
    // A click on the menu while React hydrates the page can be undone by it: wait until it owns the page.
    await hydrated(page)
    await page.getByTestId('user-menu').locator('summary').click()
    await expect(page.getByRole('link', { name: 'Log out' })).toHaveAttribute('href', '/logout')
    await expect(page.getByRole('link', { name: 'My profile' })).toHaveAttribute('href', `/my-profile?context=${acme}`)
  })

  test('a narrow viewport gets the drawer', async ({ page }) => {
    await page.setViewportSize({ width: 1000, height: 800 })
    await signIn(page, 'admin@acme.example')
    await expect(page.getByTestId('nav-bar')).toBeHidden()
    await page.getByTestId('nav-drawer').locator('summary').click()
    await expect(page.getByTestId('nav-drawer').getByRole('link', { name: 'Domains' })).toBeVisible()
    await page.setViewportSize({ width: 1400, height: 800 })
    await expect(page.getByTestId('nav-bar')).toBeVisible()
  })

  test('an area that is not built shows its honest empty state', async ({ page }) => {
    await signIn(page, 'admin@acme.example', '/pulse')
    await expect(page.getByTestId('area-placeholder')).toContainText('Pulse is not available yet')
    await expect(page).toHaveTitle('Pulse - Registrar')
  })
})
