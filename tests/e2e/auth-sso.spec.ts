import { startOidcProvider, type OidcTestProvider } from '#tests/support/oidc.ts'
import { startSmtpCapture, type SmtpCapture } from '#tests/support/smtp.ts'
import { expect, test, hydrated, ownServer } from './support.ts'

// SSO and reset need a server configured with a provider and a mail server: this file runs its
// own server next to the real oidc-provider and SMTP capture.
let provider: OidcTestProvider
let smtp: SmtpCapture
const BASE = ownServer({
  port: Number(process.env.E2E_AUTH_PORT ?? 3601),
  name: 'auth',
  setup: async (origin) => {
    smtp = await startSmtpCapture()
    provider = await startOidcProvider({ redirectUris: [`${origin}/login`], logoutUris: [`${origin}/logout`] })
    return { SMTP_URL: smtp.url, OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: provider.clientId }
  },
  teardown: async () => {
    await provider?.close()
    await smtp?.close()
  },
})

test('single sign-on through oidc-provider signs in and signs out at the provider', async ({ page, context, consoleErrors }) => {
  // The provider's own sign-in page (oidc-provider's development page, not ours) loads a resource
  // from the internet, which this machine cannot resolve.
  consoleErrors.allow(/^console error at http:\/\/127\.0\.0\.1:\d+\/interaction\/.*net::ERR_NAME_NOT_RESOLVED$/)
  await page.goto('/login?redirectTo=%2F%3Fsso%3D1')
  await hydrated(page)
  const toProviderLogin = page.waitForRequest((r) => r.url().startsWith(provider.issuer) && r.isNavigationRequest())
  await page.getByRole('button', { name: 'Sign in with SSO' }).click()
  const authorize = new URL((await toProviderLogin).url())
  for (const [key, value] of Object.entries({ client_id: provider.clientId, redirect_uri: `${BASE}/login`, response_type: 'code', scope: 'openid profile email', code_challenge_method: 'S256' })) {
    expect(authorize.searchParams.get(key)).toBe(value)
  }
  expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/)

  // The provider's own page, with the PKCE parameters of spec §7 in the address.
  await page.locator('input[name="login"]').waitFor()
  const ssoCookie = (await context.cookies(BASE)).find((c) => c.name === 'auth.session')
  expect(ssoCookie).toMatchObject({ path: '/', secure: true, sameSite: 'None', httpOnly: true })
  await page.locator('input[name="login"]').fill('admin@acme.example')
  await page.locator('input[name="password"]').fill('anything')
  await page.locator('button[type="submit"]').first().click()

  // The provider's consent page when it asks (it does not for a client granted its scopes, but
  // whether it asks is the provider's business): wait for either it or the way back.
  const back = (url: URL) => url.origin === BASE
  const consent = page.locator('form:has(input[name="prompt"][value="consent"]) button[type="submit"]')
  await Promise.race([page.waitForURL(back), consent.waitFor()])
  if (!back(new URL(page.url()))) await consent.first().click()

  await page.waitForURL((url) => url.origin === BASE && url.pathname === '/' && url.search === '?sso=1')
  expect((await context.cookies(BASE)).some((c) => c.name === '__session')).toBe(true)
  expect((await context.cookies(BASE)).some((c) => c.name === 'auth.session')).toBe(false)

  // The user menu's Log out ends the session here and at the provider.
  const toProvider = page.waitForRequest((r) => r.url().startsWith(`${provider.issuer}/logout`))
  await hydrated(page)
  await page.getByTestId('user-menu').locator('summary').click()
  await page.getByRole('button', { name: 'Log out' }).click()
  const logoutUrl = new URL((await toProvider).url())
  expect(logoutUrl.searchParams.get('client_id')).toBe(provider.clientId)
  expect(logoutUrl.searchParams.get('logout_uri')).toBe(`${BASE}/logout`)
  await page.waitForURL(`${BASE}/login`)
})

test('a tampered SSO state is refused with a message', async ({ page }) => {
  await page.goto('/login?code=forged&state=forged')
  await expect(page.getByRole('alert')).toHaveText('Single sign-on did not complete. Please try again.')
})

test('password reset through the captured mail, then sign-in with the new password', async ({ page }) => {
  const email = 'viewer@acme.example'
  await page.goto('/reset')
  await hydrated(page)
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Send link' }).click()
  await expect(page.getByRole('status')).toContainText('If an account exists for that email')

  const mail = await smtp.waitFor((m) => m.envelopeTo.includes(email))
  const link = /https?:\/\/\S+\/reset\?token=[\w%-]+/.exec(mail.text ?? mail.html ?? '')?.[0]
  expect(link).toBeTruthy()
  await page.goto(link!)
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible()
  await hydrated(page)

  // The platform's policy (here: not the email) comes back as a localised message.
  await page.getByLabel('New password', { exact: true }).fill(email)
  await page.getByLabel('Repeat the new password').fill(email)
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByText('The password must not be your username or email.')).toBeVisible()

  const fresh = 'a quiet harbor at dawn 2026'
  await page.getByLabel('New password', { exact: true }).fill(fresh)
  await page.getByLabel('Repeat the new password').fill(fresh)
  await page.getByRole('button', { name: 'Set password' }).click()
  await expect(page.getByRole('status')).toHaveText('Your password has been changed. You can sign in now.')

  // The link is single-use.
  await page.goto(link!)
  await expect(page.getByRole('alert')).toContainText('invalid or has expired')

  await page.goto('/login')
  await hydrated(page)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(fresh)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((url) => url.pathname === '/')
})

test('repeated failed sign-ins for one name show the 429 screen', async ({ page }) => {
  // The platform throttles a name after 5 failures (per IP only after 20): the sixth attempt,
  // even with the right password, is answered 429 and the portal shows its throttled screen.
  await page.goto('/login')
  await hydrated(page)
  for (let attempt = 1; attempt <= 5; attempt++) {
    await page.getByLabel('Email').fill('staff@example.com')
    await page.getByLabel('Password').fill(`not the password ${attempt}`)
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/login'))
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await answered
    await expect(page.getByText('The email or password is incorrect.')).toBeVisible()
  }
  await page.getByLabel('Email').fill('staff@example.com')
  await page.getByLabel('Password').fill('portal-demo-2026')
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page.getByTestId('error-status')).toHaveText('429')
  await expect(page.getByText('Please wait a moment before trying again')).toBeVisible()
})
