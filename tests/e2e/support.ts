import type { Page } from '@playwright/test'

/** The demo users' password (server/seed/demo.ts). */
export const PASSWORD = 'portal-demo-2026'

/** Waits until React owns the forms: a click before hydration can be lost (see auth-sso.spec.ts). */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const forms = [...document.querySelectorAll('form')]
    return forms.length > 0 && forms.every((form) => Object.keys(form).some((key) => key.startsWith('__reactProps')))
  })
}

/** Signs in through the /login form and waits until it has left /login for `to`. */
export async function signIn(page: Page, email: string, to = '/', options: { waitForHydration?: boolean } = {}) {
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`)
  if (options.waitForHydration) await hydrated(page)
  await page.locator('#login-username').fill(email)
  await page.locator('#login-password').fill(PASSWORD)
  await page.locator('#login').getByRole('button').last().click()
  await page.waitForURL((url) => url.pathname !== '/login')
}
