import { expect, test, type Browser, type Page } from '@playwright/test'
import { signIn } from './support.ts'

const contactForm = (page: Page) => page.locator('#contact-create')

test.describe('directory (issue 5)', () => {
  test('admin creates a contact: a bad phone is refused beside the field with nothing lost, then fixed, edited and seen in the log', async ({ page }) => {
    await signIn(page, 'admin@acme.example', '/contacts')
    await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible()
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

    const edit = page.locator('form').filter({ has: page.getByTestId('contact-save') })
    await edit.getByTestId('contact-city').fill('Sevilla')
    await page.getByTestId('contact-save').click()
    await expect(page.getByTestId('detail-Address')).toContainText('Sevilla')

    await page.getByRole('link', { name: 'Log', exact: true }).click()
    await page.waitForURL(/\/contacts\/[0-9a-f-]{36}\/log/)
    await expect(page.getByTestId('log-changes').filter({ hasText: 'city: "Valencia" → "Sevilla"' })).toBeVisible()
  })

  test('deleting a contact in use is refused with the localised message', async ({ page }) => {
    await signIn(page, 'admin@acme.example', `/contacts?pql=${encodeURIComponent("in_use equals 'true'")}`)
    await page.getByTestId('data-row').first().getByRole('link').click()
    await page.waitForURL(/\/contacts\/[0-9a-f-]{36}/)
    const title = await page.getByTestId('contact-title').textContent()
    await page.getByTestId('confirm-delete').locator('summary').click()
    await page.getByTestId('confirm-delete').getByRole('button', { name: 'Yes, delete' }).click()
    await expect(page.getByTestId('form-error')).toHaveText('This contact is used by domains and cannot be deleted. Replace it on those domains first.')
    await expect(page.getByTestId('contact-title')).toHaveText(title ?? '')
  })

  test('admin invites a user by email with roles, and sees what the roles grant', async ({ page }) => {
    await signIn(page, 'admin@acme.example', '/users')
    await page.getByTestId('user-invite-open').click()
    await page.locator('#invite-email').fill('new.colleague@acme.example')
    await page.locator('#invite-name').fill('New Colleague')
    await page.getByTestId('role-contact-admin').getByRole('checkbox').check()
    await expect(page.getByTestId('grants-contact-admin').first()).toHaveText('also grants contact-manager, contact-viewer')
    await page.getByTestId('user-invite-submit').click()
    await page.waitForURL(/\/users\/[0-9a-f-]{36}$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('New Colleague')
    await expect(page.getByTestId('detail-Invitation pending')).toHaveText('Yes')
    await expect(page.getByTestId('user-expansion')).toContainText('contact-admin → contact-manager, contact-viewer')

    // The same address twice: the duplicate is refused beside the email field.
    await page.goto('/users')
    await page.getByTestId('user-invite-open').click()
    await page.locator('#invite-email').fill('new.colleague@acme.example')
    await page.getByTestId('user-invite-submit').click()
    await expect(page.locator('#invite-email-error')).toHaveText('A user with this email already exists')
  })

  test('admin cannot edit their own roles: the message shows beside the roles', async ({ page }) => {
    await signIn(page, 'admin@acme.example', `/users?pql=${encodeURIComponent("email equals 'admin@acme.example'")}`)
    await page.getByTestId('data-row').first().getByRole('link').click()
    await page.waitForURL(/\/users\/[0-9a-f-]{36}$/)
    await page.getByTestId('role-ssl-admin').getByRole('checkbox').uncheck()
    await page.getByTestId('user-save').click()
    await expect(page.locator('#roles-error')).toHaveText("You cannot change your own roles or abilities; ask another admin")
    await expect(page.getByTestId('user-permissions')).toContainText('ssl-admin')
  })

  test('a viewer sees read-only screens, and a change posted anyway is the 403 screen', async ({ page }) => {
    await signIn(page, 'viewer@acme.example', '/contacts')
    await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeVisible()
    await expect(page.getByTestId('data-row').first()).toBeVisible()
    await expect(page.getByTestId('contact-new')).toHaveCount(0)
    await page.getByTestId('data-row').first().getByRole('link').click()
    await page.waitForURL(/\/contacts\/[0-9a-f-]{36}$/)
    await expect(page.getByTestId('contact-title')).toBeVisible()
    await expect(page.getByTestId('contact-save')).toHaveCount(0)
    await expect(page.getByTestId('confirm-delete')).toHaveCount(0)

    const origin = new URL(page.url()).origin
    const response = await page.request.post(page.url(), { form: { intent: 'delete' }, headers: { Origin: origin }, maxRedirects: 0 })
    expect(response.status()).toBe(403)

    await page.goto('/users')
    await expect(page.getByTestId('user-invite-open')).toHaveCount(0)
  })

  test('staff switches the client context and sees Globex contacts', async ({ page }) => {
    await signIn(page, 'staff@example.com', '/contacts')
    await page.locator('#client-context').selectOption({ label: 'Globex' })
    await page.waitForURL(/context=[0-9a-f-]{36}/)
    await expect(page.getByTestId('client-acting')).toContainText('Globex')
    const emails = page.getByTestId('data-row').locator('td').filter({ hasText: '@' })
    await expect(emails.first()).toContainText('@globex.example')
    await expect(page.getByTestId('data-row').filter({ hasText: '@acme' })).toHaveCount(0)
  })

  test('a Spanish user sees the contacts screen in Spanish, countries named in Spanish', async ({ page }) => {
    await signIn(page, 'admin@globex.example', `/contacts?pql=${encodeURIComponent("country_code equals 'DE'")}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Contactos' })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'País' })).toBeVisible()
    await expect(page.getByTestId('data-row').first()).toContainText('Alemania')
    await expect(page.getByTestId('contact-new')).toHaveText('Nuevo contacto')
  })

  test('the invitation link sets a password once (public page)', async ({ page }) => {
    const response = await page.goto('/invitations/not-a-real-token-0000')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('alert')).toContainText('This invitation link is not valid')
  })

  test('without JavaScript: the contact form keeps what was typed and shows the phone error', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await signIn(page, 'admin@acme.example', '/contacts')
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
    await context.close()
  })

  test('an account edited meanwhile by someone else: the stale form says so and asks to reload', async ({ browser }) => {
    const first = await browser.newContext()
    const a = await first.newPage()
    await signIn(a, 'admin@acme.example', '/accounts')
    await a.getByTestId('data-row').first().getByRole('link').click()
    await a.waitForURL(/\/accounts\/[0-9a-f-]{36}$/)
    const b = await first.newPage()
    await b.goto(a.url())
    await a.locator('#account-edit-name').fill('Acme Corporation')
    await a.getByTestId('account-save').click()
    await expect(a.getByRole('heading', { level: 1 })).toHaveText('Acme Corporation')
    await b.locator('#account-edit-currency').fill('EUR')
    await b.getByTestId('account-save').click()
    await expect(b.getByTestId('form-error')).toHaveText('Someone else changed this record in the meantime. Reload the page to see the changes, then try again.')
    await first.close()
  })

  test("another account's contact is Page Not Found, never its data", async ({ browser }) => {
    const href = await firstRowHref(browser, 'admin@globex.example', '/contacts')
    const context = await browser.newContext()
    const page = await context.newPage()
    await signIn(page, 'admin@acme.example')
    for (const suffix of ['', '/log', '/registry-handles']) {
      const response = await page.goto(href + suffix)
      expect(response?.status()).toBe(404)
    }
    await context.close()
  })

  test('staff edit a TLD: periods, grace periods and the list price through the money rules', async ({ page }) => {
    await signIn(page, 'staff@example.com', `/tlds?pql=${encodeURIComponent("name equals 'shop'")}`)
    await page.getByTestId('data-row').first().getByRole('link').click()
    await page.waitForURL(/\/tlds\/[0-9a-f-]{36}$/)
    await page.locator('#tld-price').fill('12.345')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.locator('#tld-price-error')).toHaveText('Enter an amount such as 1,234.56')
    await page.locator('#tld-price').fill('1,234.50')
    await page.locator('#tld-redemption_days').fill('35')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(page.getByTestId('detail-List price')).toHaveText('€1,234.50')
    await expect(page.getByTestId('detail-Redemption period')).toHaveText('35 days')
  })

  test('admin disables and enables a user behind a confirmation; the user and authentication logs show it', async ({ page }) => {
    await signIn(page, 'admin@acme.example', `/users?pql=${encodeURIComponent("email equals 'viewer@acme.example'")}`)
    await page.getByTestId('data-row').first().getByRole('link').click()
    await page.waitForURL(/\/users\/[0-9a-f-]{36}$/)
    const userUrl = page.url()
    await page.getByTestId('confirm-disable').locator('summary').click()
    await expect(page.getByTestId('confirm-disable')).toContainText('Disable viewer@acme.example?')
    await page.getByTestId('confirm-disable').getByRole('button', { name: 'Disable user' }).click()
    await expect(page.getByTestId('detail-Status')).toHaveText('Disabled')
    await page.getByTestId('confirm-enable').locator('summary').click()
    await page.getByTestId('confirm-enable').getByRole('button', { name: 'Enable user' }).click()
    await expect(page.getByTestId('detail-Status')).toHaveText('Active')

    await page.goto(`${userUrl}/log`)
    // Newest first: the enable, then the disable (the seed's creation comes after).
    await expect(page.getByTestId('data-row').nth(0)).toContainText('enable')
    await expect(page.getByTestId('data-row').nth(1)).toContainText('disable')
    await page.goto('/users/authentication-log')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Authentication log')
    await expect(page.getByTestId('data-row').filter({ hasText: 'admin@acme.example' }).first()).toContainText('Success')
  })

  test("a contact's registry handles show their sync state", async ({ page }) => {
    await signIn(page, 'admin@acme.example', `/contacts?pql=${encodeURIComponent("name equals 'Olivia Carter'")}`)
    await page.getByTestId('data-row').first().getByRole('link').click()
    await page.getByRole('link', { name: 'Registry handles' }).click()
    await page.waitForURL(/\/registry-handles/)
    await expect(page.getByTestId('data-row').first()).toContainText(/Synchronised|Pending|Failed/)
  })

  test('staff see every account with its counts', async ({ page }) => {
    await signIn(page, 'staff@example.com', '/accounts')
    await expect(page.getByTestId('data-row')).toHaveCount(3)
    await page.getByTestId('data-row').filter({ hasText: 'Globex' }).getByRole('link').click()
    await page.waitForURL(/\/accounts\/[0-9a-f-]{36}$/)
    await expect(page.getByTestId('detail-Users')).toHaveText('1')
    await expect(page.getByTestId('detail-Contacts')).not.toHaveText('0')
    await expect(page.locator('#account-edit-status')).toBeVisible()
  })
})

async function firstRowHref(browser: Browser, email: string, path: string): Promise<string> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await signIn(page, email, path)
  const href = await page.getByTestId('data-row').first().getByRole('link').first().getAttribute('href')
  await context.close()
  return new URL(href ?? '', 'http://x').pathname
}
