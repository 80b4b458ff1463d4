import type { Page } from '@playwright/test'
import { TOTP } from 'otpauth'
import { expect, test, ACME_ADMIN, CLIENT_VIEWER_ROLES, hydrated, newUser, PASSWORD, platform } from './support.ts'

// These tests are about signing in: each signs in through the /login form itself.

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** Signs out the way a person does: the user menu's Log out. */
async function signOut(page: Page) {
  await hydrated(page)
  await page.getByTestId('user-menu').locator('summary').click()
  await page.getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL(/\/login$/)
}

/** A user of the test's own with two-factor sign-in on: its TOTP generator, its last code used and its recovery codes. */
async function userWithTwoFactor(language?: string) {
  const user = await newUser({ by: ACME_ADMIN, roles: CLIENT_VIEWER_ROLES, ...(language ? { language } : {}) })
  const api = await platform(user.email, user.password)
  try {
    const { secret } = await api.post<{ secret: string }>('/profile/two_factor')
    const totp = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' })
    const used = totp.generate()
    const { recovery_codes } = await api.post<{ recovery_codes: string[] }>('/profile/two_factor/confirm', { code: used })
    expect(recovery_codes.length).toBeGreaterThan(0)
    return { ...user, totp, used }
  } finally {
    await api.dispose()
  }
}

test('password sign-in opens the portal; sign-out ends the session', async ({ page, context }) => {
  await page.goto('/login')
  await signIn(page, ACME_ADMIN)
  await page.waitForURL((url) => url.pathname === '/')
  const cookies = await context.cookies()
  const session = cookies.find((c) => c.name === '__session')
  expect(session?.httpOnly).toBe(true)
  expect(session?.sameSite).toBe('Lax')
  // Only a signed id: no token ever reaches the browser.
  expect(cookies.some((c) => /token/i.test(c.value))).toBe(false)
  expect(cookies.find((c) => c.name === 'theme')?.value).toBe('light')

  // A signed-in user opening /login goes to /.
  await page.goto('/login')
  await expect(page).toHaveURL((url) => url.pathname === '/')

  await signOut(page)
  expect((await context.cookies()).some((c) => c.name === '__session')).toBe(false)
  await page.goto('/')
  await expect(page).toHaveURL(/\/login/)
})

test('a kept address comes back with its query after sign-in', async ({ page }) => {
  await page.goto('/?foo=bar')
  await expect(page).toHaveURL('/login?redirectTo=%2F%3Ffoo%3Dbar')
  await signIn(page, 'viewer@acme.example')
  await page.waitForURL((url) => url.pathname === '/' && url.search === '?foo=bar')
})

test('an off-site redirectTo is ignored', async ({ page }) => {
  await page.goto('/login?redirectTo=%2F%2Fevil.example%2F')
  await signIn(page, 'viewer@acme.example')
  await page.waitForURL((url) => url.pathname === '/')
  expect(new URL(page.url()).host).toMatch(/^localhost:/)
})

test('a wrong password shows a message that names neither field', async ({ page }) => {
  await page.goto('/login')
  await signIn(page, 'admin@acme.example', 'not-the-password-123')
  await expect(page.getByText('The email or password is incorrect.')).toBeVisible()
  await expect(page).toHaveURL(/\/login/)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('sign-in works with plain forms and redirects', async ({ page }) => {
    await page.goto('/?foo=js-off')
    await expect(page).toHaveURL(/\/login\?redirectTo=/)
    await signIn(page, 'staff@example.com')
    await page.waitForURL((url) => url.pathname === '/' && url.search === '?foo=js-off')
  })

  test('the user menu signs out (a plain form post, no script)', async ({ page, context }) => {
    await page.goto('/login')
    await signIn(page, 'staff@example.com')
    await page.waitForURL((url) => url.pathname === '/')
    await page.getByTestId('user-menu').locator('summary').click()
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.waitForURL(/\/login$/)
    expect((await context.cookies()).some((c) => c.name === '__session')).toBe(false)
    await page.goto('/domains')
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdomains$/)
  })

  test('a wrong password shows the message', async ({ page }) => {
    await page.goto('/login')
    await signIn(page, 'staff@example.com', 'wrong-password-here')
    await expect(page.getByText('The email or password is incorrect.')).toBeVisible()
    // The server-rendered answer keeps the email but never sends the password back.
    await expect(page.getByLabel('Email')).toHaveValue('staff@example.com')
    await expect(page.getByLabel('Password')).toHaveValue('')
  })
})

test('two-factor sign-in with a code computed in the test', async ({ page }) => {
  // A user of its own who works in Spanish, with two-factor sign-in on.
  const user = await userWithTwoFactor('es')
  await page.goto('/login')
  await signIn(page, user.email, user.password)
  await expect(page.getByRole('heading', { name: /two-factor|dos pasos/i })).toBeVisible()
  // A code is accepted once, and the enrolment used this period's: the next period's code (the
  // server accepts one step of clock drift either way) instead of waiting up to 30 s for it.
  const next = user.totp.generate({ timestamp: Date.now() + 30_000 })
  expect(next).not.toBe(user.used)
  await page.getByLabel(/code|código/i).fill(next)
  await page.getByRole('button', { name: /verify|verificar/i }).click()
  await page.waitForURL((url) => url.pathname === '/')
  // This user's language is es: sign-in switches the portal to it.
  expect((await page.context().cookies()).find((c) => c.name === 'lng')?.value).toBe('es')
  await expect(page.locator('html')).toHaveAttribute('lang', 'es')
})

test('a two-factor step with a wrong code says so', async ({ page }) => {
  const user = await userWithTwoFactor()
  await page.goto('/login')
  await signIn(page, user.email, user.password)
  await expect(page.getByRole('heading', { name: /two-factor/i })).toBeVisible()
  const wrong = user.totp.generate() === '000000' ? '111111' : '000000'
  await page.getByLabel(/code/i).fill(wrong)
  await page.getByRole('button', { name: /verify/i }).click()
  await expect(page.getByText(/not valid/)).toBeVisible()
})

test('portal documents carry an enforced CSP with a per-response nonce that every script carries, HSTS and no framing', async ({ page }) => {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
  })
  const nonceOf = (policy: string) => /'nonce-([^']+)'/.exec(policy)?.[1]
  const first = await page.goto('/login')
  const headers = first!.headers()
  const policy = headers['content-security-policy'] ?? ''
  expect(headers['content-security-policy-report-only']).toBeUndefined()
  expect(policy).toContain("frame-ancestors 'none'")
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/)
  expect(headers['strict-transport-security']).toMatch(/max-age=\d{7,}/)
  expect(headers['x-frame-options']).toBe('DENY')
  const nonce = nonceOf(policy)
  expect(nonce).toBeTruthy()
  // Browsers hide the attribute; the property keeps it. Every inline script has this response's nonce.
  const scripts = await page.evaluate(() => [...document.scripts].map((s) => ({ inline: !s.src, nonce: s.nonce })))
  expect(scripts.filter((s) => s.inline).length).toBeGreaterThan(0)
  for (const script of scripts.filter((s) => s.inline)) expect(script.nonce).toBe(nonce)

  // A new document, a new nonce; the scripts still run (the page hydrates and signs in).
  const second = await page.reload()
  expect(nonceOf(second!.headers()['content-security-policy'] ?? '')).not.toBe(nonce)
  await signIn(page, ACME_ADMIN)
  await page.waitForURL((url) => url.pathname === '/')
  expect(violations).toEqual([])
})
