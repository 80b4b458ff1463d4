import { expect, test, type APIRequestContext } from '@playwright/test'
import { PASSWORD, signIn } from './support.ts'

/** The Platform API as admin@acme.example: a bearer header and the account's group. */
async function api(request: APIRequestContext) {
  const login = await request.post('/v1/login', { data: { username: 'admin@acme.example', password: PASSWORD } })
  expect(login.ok()).toBe(true)
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` }
  const me = await (await request.get('/v1/me', { headers })).json()
  return { headers, group: (me.group_id ?? me.user?.group_id) as string }
}

async function zoneWith(request: APIRequestContext, name: string, address: string) {
  const { headers, group } = await api(request)
  const created = await request.post(`/v1/groups/${group}/zones`, { headers, data: { name } })
  expect(created.status()).toBe(201)
  const zone = await created.json()
  const applied = await request.post(`/v1/groups/${group}/zones/${zone.id}/changes`, { headers, data: { changes: [{ action: 'add', name: 'www', type: 'A', content: address }, { action: 'add', name: 'api', type: 'A', content: address }] } })
  expect(applied.ok()).toBe(true)
  return zone as { id: string; name: string }
}

test('replace an address in every zone that has it, from /tray/records, with progress and per-zone results', async ({ page, request }) => {
  const suffix = Date.now().toString(36)
  const a = await zoneWith(request, `bulk-a-${suffix}.test`, '203.0.113.77')
  const b = await zoneWith(request, `bulk-b-${suffix}.test`, '203.0.113.77')
  await signIn(page, 'admin@acme.example', '/tray/records')
  const form = page.getByTestId('replace-form')

  // A refusal keeps what was typed and says why, next to the field.
  await form.getByLabel('Replace').fill('203.0.113.77')
  await form.getByLabel('With').fill('2001:db8::7')
  await form.getByLabel('every zone of the account that has it').check()
  await form.getByRole('button', { name: 'Replace' }).click()
  await expect(page.getByTestId('replace-error')).toContainText('must be an IPv4 address')
  await expect(form.getByLabel('Replace')).toHaveValue('203.0.113.77')

  await form.getByLabel('With').fill('203.0.113.78')
  await form.getByLabel('every zone of the account that has it').check()
  await form.getByRole('button', { name: 'Replace' }).click()
  await expect(page).toHaveURL(/\/tray\/records\?job=/)
  const job = page.getByTestId('bulk-job')
  await expect(job).toBeVisible()
  await expect(page.getByTestId('bulk-progress')).toBeVisible()
  // The worker changes one zone after the other; the page revalidates until the job is done.
  await expect(job).toHaveAttribute('data-state', 'completed', { timeout: 30_000 })
  await expect(job).toContainText('2 of 2 zones done')
  const results = page.getByTestId('bulk-result')
  await expect(results).toHaveCount(2)
  await expect(results.filter({ hasText: a.name })).toContainText('2 records changed')
  await expect(results.filter({ hasText: b.name })).toContainText('2 records changed')

  // The zone shows the new address, and the DNS log has the change.
  await page.goto(`/domains/search/records?pql=${encodeURIComponent(`content contains '203.0.113.78'`)}`)
  await expect(page.getByTestId('data-row')).toHaveCount(4)
})

test('the progress of a record job refreshes without JavaScript', async ({ browser, request }) => {
  const suffix = Date.now().toString(36)
  await zoneWith(request, `bulk-c-${suffix}.test`, '203.0.113.91')
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await signIn(page, 'admin@acme.example', '/tray/records')
  const form = page.getByTestId('replace-form')
  await form.getByLabel('Replace').fill('203.0.113.91')
  await form.getByLabel('With').fill('203.0.113.92')
  await form.getByLabel('every zone of the account that has it').check()
  await form.getByRole('button', { name: 'Replace' }).click()
  await expect(page).toHaveURL(/\/tray\/records\?job=/)
  // Without JavaScript a meta refresh reloads the page while the job runs.
  await expect(page.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed', { timeout: 30_000 })
  await expect(page.getByTestId('bulk-result')).toContainText('2 records changed')
  await context.close()
})

test('statistics: range choice as a GET form, honest empty state without PowerDNS', async ({ page, request }) => {
  const { headers, group } = await api(request)
  const domains = await (await request.get(`/v1/groups/${group}/domains?limit=50&sort=name`, { headers })).json()
  const zones = await (await request.get(`/v1/groups/${group}/zones?limit=1000&fields=domain_id`, { headers })).json()
  const taken = new Set(zones.data.map((z: { domain_id: string | null }) => z.domain_id))
  const domain = domains.data.find((d: { id: string }) => !taken.has(d.id)) as { id: string }
  expect(domain).toBeTruthy()
  expect((await request.post(`/v1/groups/${group}/zones`, { headers, data: { domain_id: domain.id } })).status()).toBe(201)

  await signIn(page, 'admin@acme.example', `/domains/${domain.id}/dns-statistics`)
  await expect(page.getByTestId('dns-statistics-empty')).toContainText('PowerDNS is not configured')
  await expect(page.getByLabel('Last 24 hours')).toBeChecked()
  await page.getByLabel('Last 7 days').check()
  await page.getByRole('button', { name: 'Show' }).click()
  await expect(page).toHaveURL(/range=7d/)
  await expect(page.getByLabel('Last 7 days')).toBeChecked()
  await expect(page.getByTestId('dns-statistics-empty')).toBeVisible()
  await expect(page.getByTestId('dns-statistics-chart')).toHaveCount(0)
})
