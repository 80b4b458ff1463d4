import { expect, test, ACME_ADMIN, ACME_VIEWER, CLIENT_VIEWER_ROLES, hydrated, newUser, signedIn, signIn, STAFF } from './support.ts'

test.describe('error screens', () => {
  test('an unknown path is Page Not Found with the path, 404, mail to support', async ({ page }) => {
    const response = await page.goto('/no-such-page')
    expect(response?.status()).toBe(404)
    await expect(page.getByTestId('error-status')).toHaveText('404')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('An error has occurred')
    await expect(page).toHaveTitle('An error has occurred')
    await expect(page.locator('pre code')).toHaveText('Page Not Found /no-such-page')
    await expect(page.locator('a[href^="mailto:"]')).toHaveAttribute('href', /subject=404%20error/)
    await expect(page.getByRole('link', { name: 'Back' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Home' })).toBeVisible()
    // Signed out there is no shell around it.
    await expect(page.getByTestId('side-nav')).toHaveCount(0)
  })

  test.describe('as the Acme admin', () => {
    test.use({ storageState: signedIn(ACME_ADMIN) })

    test('a mistyped address keeps a signed-in person in the app: the 404 inside the shell, and Back to where they were', async ({ page }) => {
      await page.goto('/contacts')
      await hydrated(page)
      const response = await page.goto('/contacs', { referer: new URL('/contacts', page.url()).href })
      expect(response?.status()).toBe(404)
      await expect(page.getByTestId('error-status')).toHaveText('404')
      await expect(page.locator('pre code')).toHaveText('Page Not Found /contacs')
      await expect(page.getByTestId('side-nav').getByRole('link', { name: 'Domains' })).toBeVisible()
      await page.getByRole('link', { name: 'Back' }).click()
      await expect(page).toHaveURL(/\/contacts$/)
    })

    test('without JavaScript, Back on an error screen leads to the page the person came from', async ({ browser }) => {
      const context = await browser.newContext({ storageState: signedIn(ACME_ADMIN), javaScriptEnabled: false })
      const page = await context.newPage()
      await page.goto('/domains')
      await page.goto('/domains/not-a-uuid', { referer: new URL('/domains', page.url()).href })
      await expect(page.getByTestId('error-status')).toHaveText('404')
      await expect(page.getByTestId('side-nav')).toBeAttached()
      await page.getByRole('link', { name: 'Back' }).click()
      await expect(page).toHaveURL(/\/domains$/)
      await context.close()
    })

    test('a non-UUID id fails route validation with 404', async ({ page }) => {
      const response = await page.goto('/domains/not-a-uuid/dns')
      expect(response?.status()).toBe(404)
      await expect(page.locator('pre code')).toHaveText('Page Not Found /domains/not-a-uuid/dns')
    })
  })

  test.describe('as the Acme viewer', () => {
    test.use({ storageState: signedIn(ACME_VIEWER) })

    test('a viewer opening a staff-only page gets access denied (403)', async ({ page }) => {
      const response = await page.goto('/products')
      expect(response?.status()).toBe(403)
      await expect(page.getByTestId('error-status')).toHaveText('403')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Access denied')
      // Spec §2: the title is the "an error has occurred" text for every code.
      await expect(page).toHaveTitle('An error has occurred')
      // Inside the app: the navigation stays.
      await expect(page.getByTestId('side-nav')).toBeAttached()
      await expect(page.getByText('You do not have permission to open this page')).toBeVisible()
    })
  })

  test('too many sign-in attempts show the 429 screen', async ({ page }) => {
    // The sign-in limiter counts per client address. The e2e servers trust the loopback proxy
    // (TRUST_PROXY=loopback), so an address of this test's own leaves the other tests' sign-ins alone.
    const address = `203.0.113.${1 + Math.floor(Math.random() * 250)}`
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': address })
    await page.goto('/login')
    const origin = new URL(page.url()).origin
    let status = 0
    for (let i = 0; i < 200 && status !== 429; i++) {
      const response = await page.request.post('/login', {
        form: { username: 'nobody@example.com', password: 'wrong-password-123' },
        headers: { Origin: origin, 'X-Forwarded-For': address },
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
  // Both are kept in the user's profile: each test changes a user of its own.
  test('the theme is kept across reloads and painted before any script runs', async ({ page }) => {
    const user = await newUser({ by: ACME_ADMIN, roles: CLIENT_VIEWER_ROLES })
    await signIn(page, user.email, '/', { password: user.password, waitForHydration: true })
    await expect(page.locator('html')).not.toHaveClass(/dark/)
    await hydrated(page)
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
    const user = await newUser({ by: ACME_ADMIN, roles: CLIENT_VIEWER_ROLES })
    await signIn(page, user.email, '/my-profile', { password: user.password, waitForHydration: true })
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await hydrated(page)
    await page.getByTestId('profile-language').selectOption('ja')
    await page.getByTestId('profile-save').click()
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('プロフィール')
    await page.locator('#password-form').getByRole('button').click()
    await expect(page.getByTestId('field-error').first()).toHaveText('この項目は必須です')
  })
})

test.describe('list pages', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('a filter built in the builder gives a URL that shows the same rows elsewhere, also without JavaScript', async ({ page, browser }) => {
    await page.goto('/accounts/log')
    await hydrated(page)
    // The builder sits behind the one Filter button of the list's toolbar.
    await page.getByTestId('filter-toggle').click()
    const builder = page.getByTestId('filter-builder')
    await builder.locator('select[name="f_field"]').selectOption('entity_type')
    await builder.locator('select[name="f_op"]').selectOption('equals')
    await builder.locator('input[name="f_value"]').fill('user')
    await builder.getByRole('button').click()
    await expect(page).toHaveURL(/pql=entity_type/)
    // The address changes as the navigation starts; wait until the rows are the filtered ones.
    await expect
      .poll(async () => {
        const texts = await page.getByTestId('data-row').allTextContents()
        return texts.length > 0 && texts.every((text) => text.includes('user'))
      })
      .toBe(true)
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

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false })

    test('the filter builder works with JavaScript off', async ({ page }) => {
      await page.goto('/accounts/log')
      // A <details> opens without JavaScript.
      await page.getByTestId('filter-toggle').click()
      const builder = page.getByTestId('filter-builder')
      await builder.locator('select[name="f_field"]').selectOption('action')
      await builder.locator('select[name="f_op"]').selectOption('equals')
      await builder.locator('input[name="f_value"]').fill('create')
      await builder.getByRole('button').click()
      await expect(page).toHaveURL(/pql=action\+equals/)
      await expect(page.getByTestId('data-row').first()).toBeVisible()
      await page.goto('/accounts/log?pql=action+like+x')
      await expect(page.getByTestId('list-error')).toContainText(/expected an operator/i)
    })
  })
})

test.describe('navigation', () => {
  test.describe('as staff', () => {
    test.use({ storageState: signedIn(STAFF) })

    test('the context chosen by staff is carried across navigation, except to logout', async ({ page }) => {
      await page.goto('/')
      await hydrated(page)
      const select = page.getByTestId('client-selection').locator('select')
      const acme = await select.locator('option', { hasText: 'Acme Corp' }).getAttribute('value')
      await select.selectOption(acme!)
      await expect(page).toHaveURL(new RegExp(`context=${acme}`))
      await page.getByTestId('side-nav').getByRole('link', { name: 'Accounts' }).click()
      await expect(page).toHaveURL(new RegExp(`/accounts\\?context=${acme}`))
      await page.goto(`/accounts/log?context=${acme}`)
      await expect(page.getByTestId('list-total')).not.toHaveText('0 entries')
      // A click on the menu while React hydrates the page can be undone by it: wait until it owns the page.
      await hydrated(page)
      await page.getByTestId('user-menu').locator('summary').click()
      await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible()
      await expect(page.locator('form', { has: page.getByTestId('menu-logout') })).toHaveAttribute('action', '/logout')
      await expect(page.getByRole('link', { name: 'My profile' })).toHaveAttribute('href', `/my-profile?context=${acme}`)
    })
  })

  test.describe('as the Acme admin', () => {
    test.use({ storageState: signedIn(ACME_ADMIN) })

    test('a phone opens the side navigation as a drawer, and a link in it leads to its area', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 800 })
      await page.goto('/')
      await hydrated(page)
      const nav = page.getByTestId('side-nav')
      await expect(nav).toBeHidden()
      await page.getByTestId('nav-open').click()
      await expect(nav).toBeVisible()
      // The whole drawer, not a strip: it spans most of the phone's width and reaches the bottom of the screen.
      const box = await nav.boundingBox()
      expect(box!.width).toBeGreaterThan(280)
      expect(box!.height).toBeGreaterThan(600)
      await nav.getByRole('link', { name: 'Contacts' }).click()
      await expect(page).toHaveURL(/\/contacts$/)
      await expect(nav).toBeHidden()
      // Escape closes it; so does a tap on the dimmed page beside it.
      await page.getByTestId('nav-open').click()
      await expect(nav).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(nav).toBeHidden()
      await page.getByTestId('nav-open').click()
      await page.getByTestId('nav-backdrop').click({ position: { x: 370, y: 400 } })
      await expect(nav).toBeHidden()
      await page.setViewportSize({ width: 1400, height: 800 })
      await expect(nav).toBeVisible()
      await expect(page.getByTestId('nav-open')).toBeHidden()
    })

    test('the side navigation groups the areas in sections that fold', async ({ page }) => {
      await page.goto('/domains')
      const nav = page.getByTestId('side-nav')
      await expect(nav.getByRole('link', { name: 'Domains' })).toHaveAttribute('aria-current', 'page')
      const portfolio = nav.getByTestId('nav-section-portfolio')
      await expect(portfolio.getByRole('link', { name: 'SSL' })).toBeVisible()
      await portfolio.locator('summary').click()
      await expect(portfolio.getByRole('link', { name: 'SSL' })).toBeHidden()
      await expect(nav.getByTestId('nav-section-directory').getByRole('link', { name: 'Contacts' })).toBeVisible()
    })

    test('staff reach watch from the navigation, empty in their own group', async ({ browser }) => {
      // Watch (issue 31) is an account's: staff in their own group keep none and change none there.
      const context = await browser.newContext({ storageState: signedIn(STAFF) })
      const page = await context.newPage()
      await page.goto('/')
      await page.getByTestId('side-nav').getByRole('link', { name: 'Watch' }).click()
      await expect(page.getByRole('heading', { level: 1, name: 'Watch' })).toBeVisible()
      await expect(page.getByText('This account has no watch yet.')).toBeVisible()
      await expect(page.getByTestId('watch-new')).toHaveCount(0)
      await expect(page).toHaveTitle('Watch - Registrar')
      await context.close()
    })
  })
})
