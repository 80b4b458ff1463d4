import { expect, test, type Page } from '@playwright/test'
import { TOTP } from 'otpauth'

// Demo users of server/seed/demo.ts.
const PASSWORD = 'portal-demo-2026'

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** Signs out the way every page does: a same-origin POST to /logout. */
async function signOut(page: Page) {
  await page.evaluate(() => {
    const form = document.createElement('form')
    form.method = 'post'
    form.action = '/logout'
    document.body.appendChild(form)
    form.submit()
  })
  await page.waitForURL(/\/login$/)
}

test('password sign-in opens the portal; sign-out ends the session', async ({ page, context }) => {
  await page.goto('/login')
  await signIn(page, 'admin@acme.example')
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

  test('a wrong password shows the message', async ({ page }) => {
    await page.goto('/login')
    await signIn(page, 'staff@example.com', 'wrong-password-here')
    await expect(page.getByText('The email or password is incorrect.')).toBeVisible()
    // The server-rendered answer keeps the email but never sends the password back.
    await expect(page.getByLabel('Email')).toHaveValue('staff@example.com')
    await expect(page.getByLabel('Password')).toHaveValue('')
  })
})

test('two-factor sign-in with a code computed in the test', async ({ page, request }) => {
  const email = 'admin@globex.example'
  const login = await request.post('/v1/login', { data: { username: email, password: PASSWORD } })
  expect(login.status()).toBe(200)
  const { access_token } = (await login.json()) as { access_token: string }
  const auth = { authorization: `Bearer ${access_token}` }
  const enrol = await request.post('/v1/profile/two_factor', { headers: auth })
  expect(enrol.status()).toBe(200)
  const { secret } = (await enrol.json()) as { secret: string }
  const totp = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' })
  const first = totp.generate()
  const confirm = await request.post('/v1/profile/two_factor/confirm', { headers: auth, data: { code: first } })
  expect(confirm.status()).toBe(200)
  const { recovery_codes } = (await confirm.json()) as { recovery_codes: string[] }
  try {
    await page.goto('/login')
    await signIn(page, email)
    await expect(page.getByRole('heading', { name: /two-factor|dos pasos/i })).toBeVisible()
    // A code is accepted once: wait for the next period's code.
    await expect.poll(() => totp.generate(), { timeout: 35_000, intervals: [500] }).not.toBe(first)
    await page.getByLabel(/code|código/i).fill(totp.generate())
    await page.getByRole('button', { name: /verify|verificar/i }).click()
    await page.waitForURL((url) => url.pathname === '/')
    // This user's language is es: sign-in switches the portal to it.
    expect((await page.context().cookies()).find((c) => c.name === 'lng')?.value).toBe('es')
  } finally {
    const off = await request.delete('/v1/profile/two_factor', { headers: auth, data: { code: recovery_codes[0] } })
    expect(off.status()).toBe(204)
  }
})

test('a two-factor step with a wrong code says so', async ({ page, request }) => {
  const email = 'admin@globex.example'
  const login = await request.post('/v1/login', { data: { username: email, password: PASSWORD } })
  const { access_token } = (await login.json()) as { access_token: string }
  const auth = { authorization: `Bearer ${access_token}` }
  const { secret } = (await (await request.post('/v1/profile/two_factor', { headers: auth })).json()) as { secret: string }
  const totp = new TOTP({ secret })
  const { recovery_codes } = (await (await request.post('/v1/profile/two_factor/confirm', { headers: auth, data: { code: totp.generate() } })).json()) as { recovery_codes: string[] }
  try {
    await page.goto('/login')
    await signIn(page, email)
    await page.getByLabel(/code|código/i).fill('000000')
    await page.getByRole('button', { name: /verify|verificar/i }).click()
    await expect(page.getByText(/not valid|no es válido/)).toBeVisible()
  } finally {
    await request.delete('/v1/profile/two_factor', { headers: auth, data: { code: recovery_codes[0] } })
  }
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
  await signIn(page, 'admin@acme.example')
  await page.waitForURL((url) => url.pathname === '/')
  expect(violations).toEqual([])
})
