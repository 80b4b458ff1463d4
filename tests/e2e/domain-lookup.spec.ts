import { expect, test, ACME_ADMIN, CLIENT_ADMIN_ROLES, hydrated, ownSignedInUser } from './support.ts'

// Issue 28, item 16: the live registry lookup on the domain page (spec §7's registrar.domain.info),
// and spec §8's toast when it is throttled (ten lookups a minute per person), never the 429 page.
// A user of its own, so that the lookups it uses up are nobody else's.
const NAME = 'acme-archive.com'
const THROTTLED = 'Too many registry lookups. Please wait a moment and try again.'

test.describe('the live registry lookup', () => {
  ownSignedInUser('lookup', { by: ACME_ADMIN, roles: CLIENT_ADMIN_ROLES })

  test('shows what the registry holds now, and says in a toast when there were too many', async ({ page }) => {
    await page.goto(`/domains?pql=${encodeURIComponent(`name equals '${NAME}'`)}`)
    await page.getByTestId('domain-link').filter({ hasText: NAME }).click()
    await expect(page.getByTestId('domain-name')).toHaveText(NAME)
    const lookup = page.getByRole('button', { name: 'Look up at the registry now' })
    await hydrated(page)
    await lookup.click()
    await expect(page).toHaveURL(/lookup=registry/)
    const live = page.getByTestId('live-registry')
    await expect(live).toContainText('At the registry now')
    await expect(page.getByTestId('live-sponsor')).toHaveText('portal')
    await expect(page.getByTestId('live-statuses')).toContainText('ok')

    // Asked again and again: the eleventh in a minute (the twenty-first across a minute's edge) is refused with the toast.
    // The toast (its words are also announced to screen readers: the first is the one seen).
    const toast = page.getByText(THROTTLED).first()
    for (let i = 0; i < 21 && !(await toast.isVisible()); i++) {
      await hydrated(page)
      await Promise.all([page.waitForResponse((response) => response.url().includes('lookup=registry')), lookup.click()])
      await expect(live.or(toast).first()).toBeVisible()
    }
    await expect(toast).toBeVisible()
    await expect(page).not.toHaveURL(/lookup=registry/)
    await expect(page.getByTestId('domain-name')).toHaveText(NAME)
  })
})
