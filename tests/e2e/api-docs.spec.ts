import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import { slug } from '#app/routes/api/reference-model.ts'
import { expect, test, hydrated, pageProblems, settled } from './support.ts'

// Issue 20: the public API documentation, read without signing in: from /api to the reference,
// a search, an operation's anchor and the schema it links, and the document downloaded. The
// reference also works with JavaScript off (a GET form and plain anchors).

test.use({ storageState: { cookies: [], origins: [] } })

test('from the quick start to an operation of the reference and its schema, and the document downloaded', async ({ page, baseURL }) => {
  const problems = pageProblems(page)
  const scripts: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).origin)
  })
  await page.goto('/api')
  await expect(page.getByRole('heading', { level: 1, name: 'The Platform API' })).toBeVisible()
  // The quick start addresses this very server.
  await expect(page.locator('#step-base pre')).toHaveText(`BASE=${baseURL}/v1`)

  await page.getByRole('navigation', { name: 'API documentation' }).getByRole('link', { name: 'Reference' }).click()
  await expect(page).toHaveURL(/\/api\/reference$/)
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible()
  await hydrated(page)

  await page.getByLabel('Search operations').fill('ssl revoke')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page).toHaveURL(/[?&]q=ssl\+revoke/)
  await expect(page.getByRole('status')).toContainText(/· 1 of \d+ operations/)
  const operation = page.locator('#post-v1-groups-context-ssls-id-revoke')
  await operation.getByRole('link', { name: '/v1/groups/{context}/ssls/{id}/revoke' }).click()
  await expect(page).toHaveURL(/#post-v1-groups-context-ssls-id-revoke$/)
  await expect(operation.getByText('ssl-manager', { exact: true })).toBeVisible()

  await operation.getByRole('link', { name: 'SslRevoke' }).first().click()
  await expect(page).toHaveURL(/#schema-sslrevoke$/)
  await expect(page.getByRole('region', { name: 'SslRevoke' }).getByText('reason', { exact: true })).toBeInViewport()

  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download openapi.json' }).click()
  const document = JSON.parse(readFileSync((await (await downloading).path())!, 'utf8'))
  expect(document.openapi).toBe('3.1.0')
  expect(document.paths['/v1/groups/{context}/ssls/{id}/revoke'].post['x-permission']).toBe('ssl-manager')

  await settled(page)
  expect(problems()).toEqual([])
  // No third-party script: every script comes from the portal itself.
  expect(scripts.filter((origin) => origin !== baseURL)).toEqual([])
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the reference searches with its GET form and follows anchors', async ({ page }) => {
    await page.goto('/api/reference')
    await page.getByLabel('Search operations').fill('contacts')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect(page).toHaveURL(/[?&]q=contacts/)
    await expect(page.getByRole('heading', { level: 2, name: 'Contacts' })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: 'SSL certificates' })).toHaveCount(0)
    await page.getByRole('link', { name: 'Clear' }).click()
    await expect(page).toHaveURL(/\/api\/reference$/)
    await expect(page.getByRole('heading', { level: 2, name: 'SSL certificates' })).toBeVisible()
    // The first page lists every operation; its full entry is on its area's page (issue 34).
    await page.getByRole('link', { name: '/v1/groups/{context}/ssls/{id}/revoke' }).click()
    await expect(page).toHaveURL(/\/api\/reference\/ssl-certificates#post-v1-groups-context-ssls-id-revoke$/)
    await expect(page.getByRole('heading', { level: 1, name: 'SSL certificates' })).toBeVisible()
    const operation = page.locator('#post-v1-groups-context-ssls-id-revoke')
    await expect(operation.getByText('ssl-manager', { exact: true })).toBeVisible()
    await operation.getByRole('link', { name: 'SslRevoke' }).first().click()
    await expect(page.getByRole('region', { name: 'SslRevoke' }).getByText('reason', { exact: true })).toBeInViewport()
    await page.getByRole('link', { name: 'All areas' }).click()
    await expect(page).toHaveURL(/\/api\/reference$/)
  })
})

test('the first page of the reference stays under 300 KB and leads to every operation of the live document', async ({ request }) => {
  const first = await request.get('/api/reference')
  expect(first.status()).toBe(200)
  const html = await first.text()
  expect(Buffer.byteLength(html)).toBeLessThanOrEqual(300 * 1024)
  // Every operation and webhook event of the document the page offers for download…
  const download = /href="([^"]+\/openapi\.json)"/.exec(html)![1]!
  const document = (await (await request.get(download)).json()) as { paths: Record<string, object>; webhooks?: Record<string, object> }
  const ids = [
    ...Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => slug(`${method} ${path}`))),
    ...Object.keys(document.webhooks ?? {}).map((event) => slug(`webhook ${event}`)),
  ]
  // …is a link of the first page to its entry on another page of the reference, and each entry is there.
  const linked = new Map([...html.matchAll(/href="\/api\/reference\/([a-z0-9-]+)#([a-z0-9-]+)"/g)].map((m) => [m[2]!, m[1]!]))
  expect(ids.filter((id) => !linked.has(id))).toEqual([])
  for (const part of new Set(linked.values())) {
    const answer = await request.get(`/api/reference/${part}`)
    expect(answer.status(), part).toBe(200)
    const text = await answer.text()
    const missing = [...linked].filter(([id, at]) => at === part && !text.includes(` id="${id}"`))
    expect(missing, part).toEqual([])
  }
  expect((await request.get('/api/reference/no-such-area')).status()).toBe(404)
})

test('the docs pages have no serious or critical axe-core violation, light and dark', async ({ page }) => {
  const found: string[] = []
  await page.goto('/api')
  // Each component of the docs in each theme: the quick start, the prose sections, the reference's
  // contents (a search of many: the first page's lines, shorter) and entries (a small area's page).
  const pages = { light: ['/api', '/api/reference?q=ssl'], dark: ['/api/authentication', '/api/reference/tlds'] }
  for (const [theme, paths] of Object.entries(pages)) {
    await page.context().addCookies([{ name: 'theme', value: theme, url: page.url() }])
    for (const path of paths) {
      await page.goto(path)
      await settled(page)
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
      for (const violation of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        found.push(
          `${theme} ${path}: ${violation.id} (${violation.impact}) — ${violation.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(' | ')}`,
        )
      }
    }
  }
  expect(found).toEqual([])
})
