import { request } from '@playwright/test'
import { BASE_URL } from './env.ts'
import { expect, test, ACME_ADMIN, hydrated, pageProblems, signedIn, unique } from './support.ts'

// Issue 20: API tokens. A user makes one on /my-profile (a bad address range is refused beside
// its field, nothing lost), copies the secret shown once, uses it on the Platform API as a script
// would, sees its last use, and revokes it — after which the API refuses it. An account admin makes
// a service user and a token for it on its page. Each test makes the tokens it uses and revokes them.

/** A script's call to the Platform API with the token (what the token is for; no portal form). */
async function callWith(secret: string, path: string) {
  const context = await request.newContext({ baseURL: BASE_URL, storageState: { cookies: [], origins: [] } })
  try {
    const response = await context.get(`/v1${path}`, { headers: { authorization: `Bearer ${secret}` } })
    return { status: response.status(), limit: response.headers()['ratelimit-limit'], json: response.ok() ? ((await response.json()) as Record<string, unknown>) : null }
  } finally {
    await context.dispose()
  }
}

test.describe('API tokens', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('made on my profile, shown once, used, last use shown, revoked and then refused', async ({ page }) => {
    const problems = pageProblems(page)
    const name = `e2e token ${unique()}`
    await page.goto('/')
    await page.getByTestId('user-menu').locator('summary').click()
    await page.getByTestId('user-menu').getByRole('link', { name: 'My profile' }).click()
    await hydrated(page)
    expect(problems()).toEqual([])
    const card = page.getByTestId('api-tokens')
    // New API token opens its form in a sheet over the profile (/my-profile/api-tokens/new).
    await card.getByTestId('token-new-open').click()
    const sheet = page.getByTestId('token-sheet')
    await sheet.getByLabel('Name').fill(name)
    await sheet.getByTestId('token-permission-domain-viewer').getByRole('checkbox').check()
    await sheet.getByLabel('Only from addresses (CIDR)').fill('10.0.0.0/33')
    await sheet.getByRole('button', { name: 'Create token' }).click()
    await expect(sheet.getByText('Not an address range such as 203.0.113.0/24')).toBeVisible()
    await expect(sheet.getByLabel('Name')).toHaveValue(name)
    await sheet.getByLabel('Only from addresses (CIDR)').fill('')
    await sheet.getByRole('button', { name: 'Create token' }).click()
    const secret = (await sheet.getByTestId('token-secret').textContent())!.trim()
    expect(secret).toMatch(/^rp_[0-9A-Za-z]{36}$/)
    // Closed, the sheet leaves the profile, whose list now holds the token.
    await sheet.getByRole('link', { name: 'Close' }).first().click()
    await page.waitForURL((url) => url.pathname === '/my-profile')
    await expect(card.locator('tr', { hasText: name })).toBeVisible()

    const me = await callWith(secret, '/me')
    expect(me.status).toBe(200)
    expect((await callWith(secret, `/groups/${String(me.json?.group_id)}/domains?limit=1`)).status).toBe(200)
    // The token holds domain-viewer only.
    expect((await callWith(secret, `/groups/${String(me.json?.group_id)}/contacts`)).status).toBe(403)

    await page.reload()
    await hydrated(page)
    const row = card.locator('tr', { hasText: name })
    await expect(row.getByTestId('token-last-used')).not.toContainText('Never used')
    // Its permission by its name (issue 28, item 7).
    await expect(row).toContainText('Domain viewer')
    // The secret is never shown again.
    await expect(page.getByText(secret)).toHaveCount(0)
    await row.getByText('Revoke', { exact: true }).click()
    await row.getByRole('button', { name: 'Revoke token' }).click()
    await expect(page.getByText('Token revoked')).toBeVisible()
    await expect(card.locator('tr', { hasText: name })).toContainText('Revoked')
    expect((await callWith(secret, '/me')).status).toBe(401)
    // Only the refused range answered 400 (the form's answer, beside its field).
    expect(problems().filter((p) => !p.includes('400'))).toEqual([])
  })

  test('an account admin makes a service user and a token for it', async ({ page }) => {
    const name = `E2E sync ${unique()}`
    await page.goto('/users')
    await hydrated(page)
    await page.getByTestId('service-user-open').click()
    const form = page.locator('form#service-user')
    await form.getByLabel('Name').fill(name)
    await form.getByTestId('role-domain-viewer').getByRole('checkbox').check()
    await page.getByTestId('service-user-sheet').getByRole('button', { name: 'Create service user' }).click()
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
    await expect(page.getByText('Service user', { exact: true })).toBeVisible()
    await hydrated(page)
    const card = page.getByTestId('api-tokens')
    await card.getByTestId('token-new-open').click()
    const sheet = page.getByTestId('token-sheet')
    await sheet.getByLabel('Name').fill('sync')
    // Only what both the admin and the service user hold is offered.
    await expect(sheet.getByTestId('token-permission-domain-admin')).toHaveCount(0)
    await sheet.getByTestId('token-permission-domain-viewer').getByRole('checkbox').check()
    await sheet.getByRole('button', { name: 'Create token' }).click()
    const secret = (await sheet.getByTestId('token-secret').textContent())!.trim()
    const me = await callWith(secret, '/me')
    expect(me.status).toBe(200)
    expect(me.limit).toBeTruthy()
    await sheet.getByTestId('sheet-cancel').click()
    await page.waitForURL(/\/users\/[0-9a-f-]{36}$/)
    const row = card.locator('tr', { hasText: 'sync' })
    await row.getByText('Revoke', { exact: true }).click()
    await row.getByRole('button', { name: 'Revoke token' }).click()
    await expect(card.locator('tr', { hasText: 'sync' })).toContainText('Revoked')
  })
})
