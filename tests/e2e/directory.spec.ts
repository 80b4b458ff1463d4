import type { Page } from '@playwright/test'
import { expect, test, ACME_ADMIN, ACME_VIEWER, CLIENT_VIEWER_ROLES, GLOBEX_ADMIN, hydrated, newUser, platform, signedIn, signIn, STAFF, unique } from './support.ts'

const contactForm = (page: Page) => page.locator('#contact-create')
const pql = (query: string) => `pql=${encodeURIComponent(query)}`

/** A client account of the test's own, made by staff through the Platform API: its id and name. */
async function newAccount(options: { users?: number; contacts?: number } = {}) {
  const api = await platform(STAFF)
  try {
    const name = `E2E Account ${unique()}`
    const account = await api.post<{ id: string }>('/accounts', { name })
    for (let i = 1; i <= (options.users ?? 0); i++) await api.post(`/groups/${account.id}/users`, { email: `user${i}-${unique()}@e2e.example`, roles: ['account-viewer'] })
    for (let i = 1; i <= (options.contacts ?? 0); i++) await api.post(`/groups/${account.id}/contacts`, { name: `Contact ${i}`, email: `contact${i}@e2e.example`, country_code: 'ES' })
    return { id: account.id, name }
  } finally {
    await api.dispose()
  }
}

test.describe('directory (issue 5)', () => {
  test.describe('as the Acme admin', () => {
    test.use({ storageState: signedIn(ACME_ADMIN) })

    test('admin creates a contact: a bad phone is refused beside the field with nothing lost, then fixed, edited and seen in the log', async ({ page }) => {
      await page.goto('/contacts')
      await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible()
      await hydrated(page)
      await page.getByTestId('contact-new').click()
      const form = contactForm(page)
      await form.getByTestId('contact-name').fill('Test Person E2E')
      await form.getByTestId('contact-organisation').fill('Acme QA')
      await form.getByTestId('contact-email').fill('qa.person@acme.example')
      await form.getByTestId('contact-phone').fill('600 12')
      await form.getByTestId('contact-city').fill('Valencia')
      await form.getByTestId('contact-country_code').selectOption('ES')
      await page.getByTestId('contact-create-submit').click()

      const phoneError = form.locator('#' + (await form.getByTestId('contact-phone').getAttribute('id')) + '-error')
      await expect(phoneError).toHaveText('Enter the number in international format, e.g. +34 600 123 456')
      await expect(form.getByTestId('contact-phone')).toHaveAttribute('aria-invalid', 'true')
      // Nothing typed was lost.
      await expect(form.getByTestId('contact-name')).toHaveValue('Test Person E2E')
      await expect(form.getByTestId('contact-email')).toHaveValue('qa.person@acme.example')
      await expect(form.getByTestId('contact-city')).toHaveValue('Valencia')
      await expect(form.getByTestId('contact-country_code')).toHaveValue('ES')
      await expect(form.getByTestId('contact-phone')).toHaveValue('600 12')

      await form.getByTestId('contact-phone').fill('+34 600 123 456')
      await page.getByTestId('contact-create-submit').click()
      await page.waitForURL(/\/contacts\/[0-9a-f-]{36}$/)
      await expect(page.getByTestId('contact-title')).toHaveText('Test Person E2E')
      await expect(page.getByTestId('detail-Phone')).toHaveText('+34600123456')
      await expect(page.getByTestId('contact-country')).toHaveText('Spain')

      // The details read as text; Edit opens the form in a side sheet over them, at an address of its own.
      await page.getByTestId('contact-edit').click()
      const sheet = page.getByRole('dialog', { name: 'Edit contact' })
      await expect(sheet.getByTestId('contact-name')).toBeFocused()
      await expect(page).toHaveURL(/\/contacts\/[0-9a-f-]{36}\/edit$/)
      // Focus stays in the sheet (Tab from its last button wraps to its first), and Escape closes it onto the details.
      await sheet.getByTestId('contact-save').focus()
      await page.keyboard.press('Tab')
      await expect(sheet.getByTestId('sheet-close')).toBeFocused()
      await page.keyboard.press('Escape')
      await page.waitForURL(/\/contacts\/[0-9a-f-]{36}$/)
      await expect(sheet).toHaveCount(0)
      await expect(page.getByTestId('contact-edit')).toBeFocused()
      await page.getByTestId('contact-edit').click()
      await sheet.getByTestId('contact-city').fill('Sevilla')
      await sheet.getByTestId('contact-save').click()
      await page.waitForURL(/\/contacts\/[0-9a-f-]{36}$/)
      await expect(sheet).toHaveCount(0)
      await expect(page.getByTestId('detail-Address')).toContainText('Sevilla')

      await page.getByRole('link', { name: 'Log', exact: true }).click()
      await page.waitForURL(/\/contacts\/[0-9a-f-]{36}\/log/)
      await expect(page.getByTestId('log-changes').filter({ hasText: 'city: "Valencia" → "Sevilla"' })).toBeVisible()
    })

    test('deleting a contact in use is refused with the localised message', async ({ page }) => {
      // The seed makes Olivia Carter every role of Acme's first domains.
      await page.goto(`/contacts?${pql("name equals 'Olivia Carter'")}`)
      await page.getByTestId('data-row').first().getByRole('link').click()
      await page.waitForURL(/\/contacts\/[0-9a-f-]{36}/)
      await expect(page.getByTestId('contact-title')).toHaveText('Olivia Carter')
      await hydrated(page)
      await page.getByTestId('confirm-delete').locator('summary').click()
      await page.getByTestId('confirm-delete').getByRole('button', { name: 'Yes, delete' }).click()
      await expect(page.getByTestId('form-error')).toHaveText('This contact is used by domains and cannot be deleted. Replace it on those domains first.')
      await expect(page.getByTestId('contact-title')).toHaveText('Olivia Carter')
    })

    test('admin invites a user by email with roles, and sees what the roles grant', async ({ page }) => {
      const email = `new.colleague-${unique()}@acme.example`
      await page.goto('/users')
      await hydrated(page)
      await page.getByTestId('user-invite-open').click()
      await page.locator('#invite-email').fill(email)
      await page.locator('#invite-name').fill('New Colleague')
      await page.getByTestId('role-contact-admin').getByRole('checkbox').check()
      await expect(page.getByTestId('grants-contact-admin').first()).toHaveText('also grants Contact manager and Contact viewer')
      await page.getByTestId('user-invite-submit').click()
      await page.waitForURL(/\/users\/[0-9a-f-]{36}$/)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('New Colleague')
      await expect(page.getByTestId('detail-Invitation pending')).toHaveText('Yes')
      await expect(page.getByTestId('user-expansion')).toContainText('Contact admin → Contact manager, Contact viewer')

      // The same address twice: the duplicate is refused beside the email field.
      await page.goto('/users')
      await hydrated(page)
      await page.getByTestId('user-invite-open').click()
      await page.locator('#invite-email').fill(email)
      await page.locator('#user-invite').getByTestId('role-contact-viewer').getByRole('checkbox').check()
      await page.getByTestId('user-invite-submit').click()
      await expect(page.locator('#invite-email-error')).toHaveText('A user with this email already exists')
    })

    test('admin cannot edit their own roles: the message shows beside the roles', async ({ page }) => {
      await page.goto(`/users?${pql(`email equals '${ACME_ADMIN}'`)}`)
      await page.getByTestId('data-row').first().getByRole('link').click()
      await page.waitForURL(/\/users\/[0-9a-f-]{36}$/)
      await hydrated(page)
      await page.getByTestId('role-ssl-admin').getByRole('checkbox').uncheck()
      await page.getByTestId('user-save').click()
      await expect(page.locator('#roles-error')).toHaveText('You cannot change your own roles or abilities; ask another admin')
      await expect(page.getByTestId('user-permissions')).toContainText('ssl-admin')
    })

    test('admin disables and enables a user behind a confirmation; the user and authentication logs show it', async ({ page, browser }) => {
      // A user of the test's own: disabling a demo user would end the sessions other tests use.
      const user = await newUser({ by: ACME_ADMIN, roles: CLIENT_VIEWER_ROLES })
      await page.goto(`/users?${pql(`email equals '${user.email}'`)}`)
      await expect(page.getByTestId('data-row')).toHaveCount(1)
      await page.getByTestId('data-row').getByRole('link').first().click()
      await page.waitForURL(/\/users\/[0-9a-f-]{36}$/)
      const userUrl = page.url()
      await hydrated(page)
      await page.getByTestId('confirm-disable').locator('summary').click()
      await expect(page.getByTestId('confirm-disable')).toContainText(`Disable ${user.email}?`)
      await page.getByTestId('confirm-disable').getByRole('button', { name: 'Disable user' }).click()
      await expect(page.getByTestId('detail-Status')).toHaveText('Disabled')

      // Disabled, the user cannot sign in: the same answer as a wrong password.
      const other = await browser.newContext({ storageState: { cookies: [], origins: [] } })
      const attempt = await other.newPage()
      await attempt.goto('/login')
      await hydrated(attempt)
      await attempt.locator('#login-username').fill(user.email)
      await attempt.locator('#login-password').fill(user.password)
      await attempt.locator('#login').getByRole('button').last().click()
      await expect(attempt.getByText('The email or password is incorrect.')).toBeVisible()

      await hydrated(page)
      await page.getByTestId('confirm-enable').locator('summary').click()
      await page.getByTestId('confirm-enable').getByRole('button', { name: 'Enable user' }).click()
      await expect(page.getByTestId('detail-Status')).toHaveText('Active')
      // Enabled again, the same password signs in.
      await signIn(attempt, user.email, '/', { password: user.password, waitForHydration: true })
      await expect(attempt).toHaveURL((url) => url.pathname === '/')
      await other.close()

      await page.goto(`${userUrl}/log`)
      // Newest first: the enable, then the disable (the invitation comes after).
      await expect(page.getByTestId('data-row').nth(0)).toContainText('enable')
      await expect(page.getByTestId('data-row').nth(1)).toContainText('disable')
      await page.goto(`/users/authentication-log?${pql(`email equals '${user.email}'`)}`)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Authentication log')
      // Newest first: the sign-in once enabled, the refusal while disabled.
      const rows = page.getByTestId('data-row')
      await expect(rows).toHaveCount(2)
      await expect(rows.nth(0)).toContainText('Success')
      await expect(rows.nth(1)).toContainText('Failure')
      await expect(rows.nth(1)).toContainText('disabled')
    })

    test("a contact's registry handles show their sync state", async ({ page }) => {
      // The seed gives 佐藤 花子 one handle, at verisign, whose last synchronisation failed.
      await page.goto(`/contacts?${pql("name equals '佐藤 花子'")}`)
      await page.getByTestId('data-row').first().getByRole('link').click()
      await page.getByRole('link', { name: 'Registry handles' }).click()
      await page.waitForURL(/\/registry-handles/)
      const rows = page.getByTestId('data-row')
      await expect(rows).toHaveCount(1)
      await expect(rows).toContainText('verisign')
      await expect(rows).toContainText('ACME-C-0004')
      await expect(rows).toContainText('Failed')
      await expect(rows).toContainText('2306 Parameter value policy error: postal code format')
    })

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false })

      test('the contact form keeps what was typed and shows the phone error', async ({ page }) => {
        await page.goto('/contacts')
        await page.getByTestId('contact-new').click()
        const form = contactForm(page)
        await form.getByTestId('contact-name').fill('No Script Person')
        await form.getByTestId('contact-email').fill('noscript@acme.example')
        await form.getByTestId('contact-phone').fill('12')
        await form.getByTestId('contact-country_code').selectOption('JP')
        await page.getByTestId('contact-create-submit').click()
        await expect(form.getByTestId('field-error')).toHaveText(['Enter the number in international format, e.g. +34 600 123 456'])
        await expect(form.getByTestId('contact-name')).toHaveValue('No Script Person')
        await expect(form.getByTestId('contact-country_code')).toHaveValue('JP')
        await form.getByTestId('contact-phone').fill('+81 3-1234-5678')
        await page.getByTestId('contact-create-submit').click()
        await page.waitForURL(/\/contacts\/[0-9a-f-]{36}$/)
        await expect(page.getByTestId('contact-country')).toHaveText('Japan')
      })
    })
  })

  test.describe('as the Acme viewer', () => {
    test.use({ storageState: signedIn(ACME_VIEWER) })

    test('a viewer sees read-only screens, and a change posted anyway is the 403 screen', async ({ page }) => {
      await page.goto('/contacts')
      await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible()
      await expect(page.getByTestId('data-row').first()).toBeVisible()
      await expect(page.getByTestId('contact-new')).toHaveCount(0)
      await page.getByTestId('data-row').first().getByRole('link').click()
      await page.waitForURL(/\/contacts\/[0-9a-f-]{36}$/)
      await expect(page.getByTestId('contact-title')).toBeVisible()
      await expect(page.getByTestId('contact-save')).toHaveCount(0)
      await expect(page.getByTestId('confirm-delete')).toHaveCount(0)

      // No button offers it: the request a forged page would send is refused all the same.
      const origin = new URL(page.url()).origin
      const response = await page.request.post(page.url(), { form: { intent: 'delete' }, headers: { Origin: origin }, maxRedirects: 0 })
      expect(response.status()).toBe(403)

      await page.goto('/users')
      await expect(page.getByTestId('user-invite-open')).toHaveCount(0)
    })
  })

  test.describe('as the Globex admin', () => {
    test.use({ storageState: signedIn(GLOBEX_ADMIN) })

    test('a Spanish user sees the contacts screen in Spanish, countries named in Spanish', async ({ page }) => {
      await page.goto(`/contacts?${pql("country_code equals 'DE'")}`)
      await expect(page.getByRole('heading', { level: 1, name: 'Contactos' })).toBeVisible()
      await expect(page.getByRole('columnheader', { name: 'País' })).toBeVisible()
      await expect(page.getByTestId('data-row').first()).toContainText('Alemania')
      await expect(page.getByTestId('contact-new')).toHaveText('Nuevo contacto')
    })

    test("another account's contact is Page Not Found, never its data", async ({ page, browser }) => {
      await page.goto('/contacts')
      const href = new URL((await page.getByTestId('data-row').first().getByRole('link').first().getAttribute('href')) ?? '', 'http://x').pathname
      const context = await browser.newContext({ storageState: signedIn(ACME_ADMIN) })
      const acme = await context.newPage()
      for (const suffix of ['', '/log', '/registry-handles']) {
        const response = await acme.goto(href + suffix)
        expect(response?.status()).toBe(404)
      }
      await context.close()
    })
  })

  test.describe('as staff', () => {
    test.use({ storageState: signedIn(STAFF) })

    test('staff switches the client context and sees Globex contacts', async ({ page }) => {
      await page.goto('/contacts')
      await hydrated(page)
      // The header always says where staff act: their own account reaches every account.
      await expect(page.getByTestId('account-badge')).toContainText('All accounts')
      await expect(page.getByTestId('account-badge')).toHaveAttribute('data-acting', 'false')
      await page.locator('#client-context').selectOption({ label: 'Globex' })
      await page.waitForURL(/context=[0-9a-f-]{36}/)
      await expect(page.getByTestId('account-badge')).toContainText('Globex')
      await expect(page.getByTestId('account-badge')).toHaveAttribute('data-acting', 'true')
      const emails = page.getByTestId('data-row').locator('td').filter({ hasText: '@' })
      await expect(emails.first()).toContainText('@globex.example')
      await expect(page.getByTestId('data-row').filter({ hasText: '@acme' })).toHaveCount(0)
    })

    test('an account edited meanwhile by someone else: the stale form says so and asks to reload', async ({ browser }) => {
      const account = await newAccount()
      const first = await browser.newContext({ storageState: signedIn(STAFF) })
      const a = await first.newPage()
      await a.goto(`/accounts?${pql(`name equals '${account.name}'`)}`)
      await a.getByTestId('data-row').getByRole('link', { name: account.name }).click()
      await a.waitForURL(new RegExp(`/accounts/${account.id}$`))
      // The details read as text; Edit opens the account's form in a sheet over them (/accounts/{id}/edit).
      await hydrated(a)
      await a.getByTestId('account-edit').click()
      await a.waitForURL(new RegExp(`/accounts/${account.id}/edit$`))
      const b = await first.newPage()
      await b.goto(a.url())
      await hydrated(a)
      await a.locator('#account-edit-name').fill(`${account.name} Renamed`)
      await a.getByTestId('account-save').click()
      await a.waitForURL(new RegExp(`/accounts/${account.id}$`))
      await expect(a.getByRole('heading', { level: 1 })).toHaveText(`${account.name} Renamed`)
      await expect(a.getByTestId('account-sheet')).toHaveCount(0)
      await hydrated(b)
      await b.locator('#account-edit-currency').fill('USD')
      await b.getByTestId('account-save').click()
      await expect(b.getByTestId('form-error')).toHaveText('Someone else changed this record in the meantime. Reload the page to see the changes, then try again.')
      await first.close()
    })

    test('staff edit a TLD: periods, grace periods and the list price through the money rules', async ({ page }) => {
      // .shop is the spec's to change; what it was is put back afterwards.
      const api = await platform(STAFF)
      const [before] = (await api.get<{ data: { id: string; list_price_minor: number; redemption_days: number }[] }>(`/tlds?${pql("name equals 'shop'")}`)).data
      try {
        await page.goto(`/tlds?${pql("name equals 'shop'")}`)
        await page.getByTestId('data-row').first().getByRole('link').click()
        await page.waitForURL(/\/tlds\/[0-9a-f-]{36}$/)
        await hydrated(page)
        await page.locator('#tld-list_price').fill('12.345')
        await page.getByRole('button', { name: 'Save changes' }).click()
        await expect(page.locator('#tld-list_price-error')).toHaveText('Enter an amount such as 1,234.56')
        await page.locator('#tld-list_price').fill('1,234.50')
        await page.locator('#tld-redemption_days').fill('35')
        await page.getByRole('button', { name: 'Save changes' }).click()
        await expect(page.getByTestId('detail-List price')).toHaveText('€1,234.50')
        await expect(page.getByTestId('detail-Redemption period')).toHaveText('35 days')
      } finally {
        const now = await api.get<{ version: number }>(`/tlds/${before!.id}`)
        await api.patch(`/tlds/${before!.id}`, { list_price_minor: before!.list_price_minor, redemption_days: before!.redemption_days, version: now.version })
        await api.dispose()
      }
    })

    test('staff see every account with its counts', async ({ page }) => {
      const account = await newAccount({ users: 2, contacts: 1 })
      await page.goto('/accounts')
      for (const name of ['Registrar Operations', 'Acme Corp', 'Globex']) await expect(page.getByTestId('data-row').filter({ hasText: name })).toHaveCount(1)
      await page.goto(`/accounts?${pql(`name equals '${account.name}'`)}`)
      await expect(page.getByTestId('data-row')).toHaveCount(1)
      await page.getByTestId('data-row').getByRole('link', { name: account.name }).click()
      await page.waitForURL(new RegExp(`/accounts/${account.id}$`))
      await expect(page.getByTestId('detail-Users')).toHaveText('2')
      await expect(page.getByTestId('detail-Contacts')).toHaveText('1')
      await page.getByTestId('account-edit').click()
      await expect(page.getByTestId('account-sheet').locator('#account-edit-status')).toBeVisible()
    })
  })

  test('the invitation link sets a password once (public page)', async ({ page }) => {
    const response = await page.goto('/invitations/not-a-real-token-0000')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('alert')).toContainText('This invitation link is not valid')
  })
})
