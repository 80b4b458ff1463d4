import type { Browser, Page } from '@playwright/test'
import { expect, test, ACME_ADMIN, newUser, ownServer, signedIn, STAFF } from './support.ts'

// Issue 15: sign-in throttling through the portal's own form, as an attacker would try it.

/** A browser of its own whose requests come from `address` (as a trusted proxy would say). */
async function browserAt(browser: Browser, address: string, baseURL?: string): Promise<Page> {
  const context = await browser.newContext({ ...(baseURL ? { baseURL } : {}), extraHTTPHeaders: { 'X-Forwarded-For': address } })
  return context.newPage()
}

/** One attempt through the sign-in form, typed and clicked as a person does. */
async function attempt(page: Page, email: string, password: string) {
  await page.goto('/login')
  await page.locator('#login-username').fill(email)
  await page.locator('#login-password').fill(password)
  const answered = page.waitForResponse((response) => response.request().method() === 'POST')
  await page.locator('#login').getByRole('button').last().click()
  await answered
  await page.waitForLoadState()
}

const octet = () => 1 + Math.floor(Math.random() * 250)

test.describe('behind the trusted proxy (the shared server trusts the loopback)', () => {
  test('failures from one address lock the name there, not for its owner at an address they signed in from; the log names each address', async ({ browser }) => {
    const user = await newUser({ by: ACME_ADMIN, roles: ['domain-viewer'] })
    // Two networks, so that neither address is a prefix of the other in the log's text.
    const home = `203.0.113.${octet()}`
    const attacker = `198.51.100.${octet()}`

    // The owner signs in once from home: that address is now known for the name.
    const owner = await browserAt(browser, home)
    await attempt(owner, user.email, user.password)
    await expect(owner).not.toHaveURL(/\/login/)
    await owner.context().close()

    // Someone else guesses from elsewhere until the name is locked there.
    const guesser = await browserAt(browser, attacker)
    for (let i = 0; i < 5; i++) {
      await attempt(guesser, user.email, `wrong guess ${i}`)
      await expect(guesser.locator('#login')).toBeVisible()
    }
    await attempt(guesser, user.email, user.password)
    await expect(guesser.getByTestId('error-status')).toHaveText('429')
    await guesser.context().close()

    // The owner still gets in from home, with the same password.
    const back = await browserAt(browser, home)
    await attempt(back, user.email, user.password)
    await expect(back).not.toHaveURL(/\/login/)
    await back.context().close()

    // Staff see every attempt with the address it came from, not one address for the whole portal.
    const staff = await browser.newContext({ storageState: signedIn(STAFF) })
    const log = await staff.newPage()
    await log.goto(`/users/authentication-log?pql=${encodeURIComponent(`email equals '${user.email}'`)}&fields=created_at,email,outcome,reason,ip`)
    const rows = log.getByTestId('data-row')
    await expect(rows).toHaveCount(8)
    await expect(rows.filter({ hasText: attacker })).toHaveCount(6)
    await expect(rows.filter({ hasText: home })).toHaveCount(2)
    await staff.close()
  })
})

test.describe('without a trusted proxy', () => {
  const origin = ownServer({ port: Number(process.env.E2E_THROTTLE_PORT ?? 3631), name: 'throttle', setup: async () => ({ TRUST_PROXY: '' }) })

  test('a new X-Forwarded-For on every attempt buys nothing: the socket is the client, and the 21st attempt is refused', async ({ browser }) => {
    test.setTimeout(120_000)
    const page = await browserAt(browser, '198.51.100.1', origin)
    for (let i = 0; i < 20; i++) {
      await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `198.51.100.${i + 1}` })
      await attempt(page, `nobody-${i}@acme.example`, 'a wrong password')
      await expect(page.locator('#login')).toBeVisible()
    }
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': '198.51.100.99' })
    await attempt(page, ACME_ADMIN, 'portal-demo-2026')
    await expect(page.getByTestId('error-status')).toHaveText('429')
    await page.context().close()
  })
})
