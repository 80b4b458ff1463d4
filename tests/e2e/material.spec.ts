import { startSmtpCapture, type SmtpCapture } from '#tests/support/smtp.ts'
import { expect, test, hydrated, ownServer, PASSWORD } from './support.ts'

// The approvers' mail needs a mail server: this file runs its own server next to a real SMTP
// capture, on a port of the tray/material range.
const APPROVER = 'approver@acme.example'
let smtp: SmtpCapture
const BASE = ownServer({
  port: Number(process.env.E2E_MATERIAL_PORT ?? 3551),
  name: 'material',
  setup: async () => {
    smtp = await startSmtpCapture()
    return { SMTP_URL: smtp.url }
  },
  teardown: async () => smtp?.close(),
})

test('a nameserver change to a material domain waits for the mailed approval, then applies and shows in the log', async ({ page, browser }) => {
  await page.goto('/login?redirectTo=%2Fdomains')
  await hydrated(page)
  await page.locator('#login-username').fill('admin@acme.example')
  await page.locator('#login-password').fill(PASSWORD)
  await page.locator('#login').getByRole('button').last().click()
  await page.waitForURL((url) => url.pathname === '/domains')
  const link = page.getByTestId('domain-link').first()
  const name = (await link.textContent())!
  await link.click()
  await expect(page.getByTestId('domain-name')).toHaveText(name)
  const domainPath = new URL(page.url()).pathname
  const card = page.getByTestId('material-card')
  await hydrated(page)

  // The account's approvers are offered where they matter: once the domain is material (issue 28).
  await expect(card.getByTestId('approvers-when-material')).toBeVisible()
  await expect(card.getByRole('textbox')).toHaveCount(0)
  await page.getByTestId('toggle-material').click()
  await expect(page.getByTestId('domain-material')).toContainText('Material: contact and nameserver changes need approval.')
  await hydrated(page)
  await card.getByRole('textbox').fill(APPROVER)
  await card.getByRole('button', { name: 'Save approvers' }).click()
  await expect(page.getByText('The approvers are saved.')).toBeVisible()
  const before = await page.getByTestId('domain-nameservers').textContent()

  await hydrated(page)
  await page.getByTestId('edit-nameservers').click()
  await page.getByTestId('nameservers-form').getByRole('textbox').fill('ns1.approved.example\nns2.approved.example')
  await page.getByRole('button', { name: 'Change nameservers' }).click()
  await expect(page.getByText('This domain is material: the change waits for approval.')).toBeVisible()
  // Nothing changed yet; the domain says what is waiting.
  await expect(page.getByTestId('domain-nameservers')).toHaveText(before!)
  await expect(page.getByTestId('pending-change')).toHaveCount(1)
  await expect(page.getByTestId('pending-change')).toContainText('ns1.approved.example, ns2.approved.example')
  await expect(page.getByTestId('pending-change')).toContainText('waiting for an approver')

  const mail = await smtp.waitFor((m) => m.envelopeTo.includes(APPROVER) && (m.subject ?? '').includes(name), 30_000)
  const approvalUrl = new URL(/https?:\/\/\S+\/approvals\/\S+/.exec(mail.text ?? '')![0])

  // The approver has no account here: the link alone opens the public approval page.
  const approverContext = await browser.newContext({ baseURL: BASE })
  const approver = await approverContext.newPage()
  await approver.goto(approvalUrl.pathname + approvalUrl.search)
  await expect(approver.getByTestId('approval-change')).toContainText('ns1.approved.example')
  await expect(approver.getByTestId('approval-state')).toHaveAttribute('data-state', 'pending')
  await hydrated(approver)
  await approver.getByRole('textbox').fill('Planned move to the new DNS provider')
  await approver.getByRole('button', { name: 'Approve' }).click()
  await expect(approver.getByTestId('approval-state')).toHaveAttribute('data-state', 'applied')
  // The link works once: opened again, it says what was decided, by whom and when.
  expect((await approver.goto(approvalUrl.pathname + approvalUrl.search))?.status()).toBe(409)
  await expect(approver.getByTestId('approval-used')).toHaveAttribute('data-state', 'applied')
  await expect(approver.getByTestId('approval-used')).toContainText(/used already.*decided on .* by .*Approved and applied/)
  await expect(approver.getByTestId('approval-change')).toHaveCount(0)
  await approverContext.close()

  await page.goto(domainPath)
  await expect(page.getByTestId('domain-nameservers')).toContainText('ns1.approved.example')
  await expect(page.getByTestId('domain-nameservers')).toContainText('ns2.approved.example')
  await expect(page.getByTestId('pending-changes')).toHaveCount(0)
  await page.goto(`${domainPath}/log`)
  const applied = page.getByTestId('data-row').filter({ hasText: 'material-change-applied' })
  await expect(applied).toHaveCount(1)
  await expect(applied).toContainText('ns1.approved.example')

  // A second request, decided without JavaScript: the decision ends on a thank-you page that
  // carries no token, and the domain keeps its nameservers.
  await page.goto(domainPath)
  await hydrated(page)
  await page.getByTestId('edit-nameservers').click()
  await page.getByTestId('nameservers-form').getByRole('textbox').fill('ns1.rejected.example\nns2.rejected.example')
  await page.getByRole('button', { name: 'Change nameservers' }).click()
  await expect(page.getByText('This domain is material: the change waits for approval.')).toBeVisible()
  const secondMail = await smtp.waitFor((m) => {
    const found = /https?:\/\/\S+\/approvals\/\S+/.exec(m.text ?? '')
    return m.envelopeTo.includes(APPROVER) && found !== null && new URL(found[0]).pathname !== approvalUrl.pathname
  }, 30_000)
  const secondUrl = new URL(/https?:\/\/\S+\/approvals\/\S+/.exec(secondMail.text ?? '')![0])
  const noScript = await browser.newContext({ baseURL: BASE, javaScriptEnabled: false })
  const approverNoJs = await noScript.newPage()
  await approverNoJs.goto(secondUrl.pathname + secondUrl.search)
  await approverNoJs.getByRole('button', { name: 'Reject' }).click()
  await expect(approverNoJs.getByTestId('approval-recorded')).toHaveText('Thank you: the change is rejected.')
  expect(new URL(approverNoJs.url()).searchParams.has('token')).toBe(false)
  await noScript.close()
  await page.goto(domainPath)
  await expect(page.getByTestId('domain-nameservers')).toContainText('ns1.approved.example')
})
