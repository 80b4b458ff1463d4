import { spawn, type ChildProcess } from 'node:child_process'
import { rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { expect, test, type Page } from '@playwright/test'

/** The demo users' password (server/seed/demo.ts). */
export const PASSWORD = 'portal-demo-2026'

/**
 * Waits until React owns the forms of the page. A click that lands between the HTML and the
 * hydration starts a native form post, and React Router's start (history.replaceState) cancels
 * that pending navigation in Chromium: the click is lost and nothing tells the test.
 */
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

/**
 * A portal server of the spec file's own (the same build, demo data, a fresh data folder), for
 * tests that need it configured with services the shared one has not (a mail server, an OIDC
 * provider): `setup` starts those first and returns the server's extra environment, `teardown`
 * stops them. Started before the file's tests, stopped after; the file's pages use it as baseURL.
 * Returns the server's origin.
 */
export function ownServer(options: { port: number; name: string; setup?: (origin: string) => Promise<Record<string, string>>; teardown?: () => Promise<void> }): string {
  const origin = `http://localhost:${options.port}`
  const dataDir = `./data/e2e-${options.name}-${options.port}`
  let server: ChildProcess | undefined
  test.use({ baseURL: origin })
  test.beforeAll(async () => {
    test.setTimeout(150_000)
    const env = (await options.setup?.(origin)) ?? {}
    // A server left on the port (an interrupted run) would answer /readyz with another
    // configuration and the test would fail far from the cause: refuse to start instead.
    await new Promise<void>((resolve, reject) => {
      const probe = createServer().once('error', () => reject(new Error(`port ${options.port} is in use; stop the process listening there`)))
      probe.listen(options.port, () => probe.close(() => resolve()))
    })
    rmSync(dataDir, { recursive: true, force: true })
    server = spawn(process.execPath, ['server/main.ts'], {
      env: { ...process.env, PORT: String(options.port), DATA_DIR: dataDir, SEED_DEMO: '1', LOG_LEVEL: 'warn', APP_ENV: 'e2e', PUBLIC_URL: origin, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
    // A server that exits (a failing migration, a taken port) will never be ready: say so at once.
    const started = server
    const exited = new Promise<never>((_, reject) => started.once('exit', (code) => reject(new Error(`the portal server exited with code ${code}`))))
    exited.catch(() => {})
    const ready = expect.poll(async () => (await fetch(`${origin}/readyz`).catch(() => null))?.status ?? 0, { timeout: 120_000, intervals: [250] }).toBe(200)
    await Promise.race([ready, exited])
  })
  test.afterAll(async () => {
    const running = server
    if (running?.pid && running.exitCode === null && running.signalCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve))
      running.kill('SIGTERM')
      await exited
    }
    await options.teardown?.()
  })
  return origin
}
