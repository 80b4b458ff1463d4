import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
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
  })
})

test('the docs pages have no serious or critical axe-core violation, light and dark', async ({ page }) => {
  const found: string[] = []
  await page.goto('/api')
  // Each component of the docs in each theme: the quick start, the prose sections, the reference.
  const pages = { light: ['/api', '/api/reference?q=ssl'], dark: ['/api/authentication', '/api/reference?q=ssl'] }
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
