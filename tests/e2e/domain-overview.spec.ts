import { expect, test, ACME_ADMIN, ACME_VIEWER, STAFF, hydratedAt, pageProblems, settled, signedIn } from './support.ts'

// Issue 16 item 7: every domain overview reported React's hydration error #418 to the admin and
// staff (a <form> inside a <p>: the browser's parser closes the <p>, so the page it built was not
// the tree React rendered on the server). Opened the way a person opens it — from the list, then
// as a document of its own (a reload, a bookmark) — the page reports nothing at all.
// A demo domain no spec changes (server/seed/demo.ts).
const UNTOUCHED = 'acme-archive.com'

for (const user of [ACME_ADMIN, STAFF, ACME_VIEWER] as const) {
  test.describe(`a domain overview as ${user}`, () => {
    test.use({ storageState: signedIn(user) })

    test('opens from the list and as a document without any console error, page error or failed request', async ({ page }) => {
      const problems = pageProblems(page)
      await page.goto(`/domains?pql=${encodeURIComponent(`name equals '${UNTOUCHED}'`)}`)
      await page.getByTestId('domain-link').filter({ hasText: UNTOUCHED }).click()
      await expect(page.getByTestId('domain-name')).toHaveText(UNTOUCHED)
      await expect(page.getByTestId('domain-expires')).not.toHaveText('—')
      // The document itself: the server's HTML hydrated by the browser.
      await page.reload()
      await hydratedAt(page, '[data-testid="domain-name"]')
      await hydratedAt(page, '[data-testid="domain-material"]')
      await settled(page)
      expect(problems()).toEqual([])
    })
  })
}
