import { startSmtpCapture, type SmtpCapture } from '#tests/support/smtp.ts'
import { expect, test, ownServer, PASSWORD } from './support.ts'

// The invitation mail needs a mail server: this file runs its own server next to a real SMTP
// capture, on a port of the directory range.
let smtp: SmtpCapture
const BASE = ownServer({
  port: Number(process.env.E2E_DIRECTORY_INVITE_PORT ?? 3521),
  name: 'directory-invite',
  setup: async () => {
    smtp = await startSmtpCapture()
    return { SMTP_URL: smtp.url }
  },
  teardown: async () => smtp?.close(),
})

test('an invited user sets a password through the mailed link (once) and signs in', async ({ page, browser }) => {
  const email = 'invited.person@acme.example'
  await page.goto('/login?redirectTo=%2Fusers')
  await page.locator('#login-username').fill('admin@acme.example')
  await page.locator('#login-password').fill(PASSWORD)
  await page.locator('#login').getByRole('button').last().click()
  await page.waitForURL((url) => url.pathname === '/users')
  await page.getByTestId('user-invite-open').click()
  await page.locator('#invite-email').fill(email)
  await page.locator('#invite-name').fill('Invited Person')
  // Roles read by their names, not their codes (issue 28, item 7).
  const invite = page.locator('#user-invite')
  await expect(invite.getByTestId('role-domain-viewer')).toContainText('Domain viewer')
  await expect(invite.getByTestId('grants-domain-admin')).toHaveText('also grants Domain manager and Domain viewer')
  // Every role an account's admin may grant is offered by its name, watch's and brand protection's
  // too; staff and the prospect roles are staff's to grant (decision 025).
  await expect(invite.getByTestId('role-brand-viewer')).toContainText('Brand viewer')
  await expect(invite.getByTestId('grants-brand-admin')).toHaveText('also grants Brand manager and Brand viewer')
  await expect(invite.locator('[data-testid^="role-"]')).toHaveCount(24)
  await expect(invite.getByTestId('role-prospect-viewer')).toHaveCount(0)
  await expect(invite.getByTestId('role-staff')).toHaveCount(0)
  await page.getByTestId('role-domain-viewer').getByRole('checkbox').check()
  await page.getByTestId('user-invite-submit').click()
  await page.waitForURL(/\/users\/[0-9a-f-]{36}$/)
  // A pending invitation reads Invited, on the user's page and in the list (issue 28, item 7).
  const userPage = page.url()
  await expect(page.locator('main').getByText('Invited', { exact: true }).first()).toBeVisible()
  await expect(page.locator('main').getByText('Active', { exact: true })).toHaveCount(0)
  await page.goto('/users')
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Invited')

  const mail = await smtp.waitFor((m) => m.envelopeTo.includes(email))
  const link = /https?:\/\/\S+\/invitations\/[\w%-]+/.exec(mail.text ?? mail.html ?? '')?.[0]
  expect(link).toBeTruthy()

  const invitee = await browser.newContext({ baseURL: BASE })
  const tab = await invitee.newPage()
  await tab.goto(new URL(link!).pathname)
  await expect(tab.getByText(`You were invited as ${email}`)).toBeVisible()
  await tab.getByLabel('New password', { exact: true }).fill('short')
  await tab.getByLabel('Repeat the new password').fill('short')
  await tab.getByRole('button', { name: 'Set password' }).click()
  await expect(tab.locator('#invitation-password').getByText(/at least 12/i)).toBeVisible()
  await tab.getByLabel('New password', { exact: true }).fill('a fine long invited passphrase')
  await tab.getByLabel('Repeat the new password').fill('a fine long invited passphrase')
  await tab.getByRole('button', { name: 'Set password' }).click()
  await expect(tab.getByTestId('invitation-done')).toBeVisible()

  // The link works once.
  const again = await tab.goto(new URL(link!).pathname)
  expect(again?.status()).toBe(404)

  await tab.goto('/login')
  await tab.locator('#login-username').fill(email)
  await tab.locator('#login-password').fill('a fine long invited passphrase')
  await tab.locator('#login').getByRole('button').last().click()
  await tab.waitForURL((url) => url.pathname !== '/login')
  await invitee.close()
  // Accepted, the user is active.
  await page.goto(userPage)
  await expect(page.locator('main').getByText('Active', { exact: true }).first()).toBeVisible()
})

test('an invitation without a role is refused beside the roles and invites nobody (issue 28, item 7)', async ({ page }) => {
  const email = 'roleless.person@acme.example'
  await page.goto('/login?redirectTo=%2Fusers')
  await page.locator('#login-username').fill('admin@acme.example')
  await page.locator('#login-password').fill(PASSWORD)
  await page.locator('#login').getByRole('button').last().click()
  await page.waitForURL((url) => url.pathname === '/users')
  await page.getByTestId('user-invite-open').click()
  await page.locator('#invite-email').fill(email)
  await page.locator('#invite-name').fill('Roleless Person')
  await page.getByTestId('user-invite-submit').click()
  await expect(page.locator('#roles-error')).toHaveText('Choose at least one role')
  await page.goto('/users')
  await expect(page.getByText(email)).toHaveCount(0)
  expect(smtp.messages.some((m) => m.envelopeTo.includes(email))).toBe(false)
})
