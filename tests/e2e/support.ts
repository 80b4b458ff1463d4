import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import { expect, request, test as base, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { AUTH_DIR, BASE_URL, MAIL_DIR, PORTAL_DIR, SERVER_ENV } from './env.ts'
import { waitForMail, type Mail } from './mailbox.ts'
import { prepareDataDir, spawnServer } from './template.ts'

/**
 * A console error or an uncaught page error (React's hydration errors such as #418 arrive as these)
 * in any page of a test fails it: the pages of its `context` and of every context it makes with
 * `browser.newContext()`. A test that expects one says which, by message, before it happens:
 * `consoleErrors.allow(/the message/)` (every spec takes `test` and `expect` from here). The
 * browser's own line for an answer of 4xx ("Failed to load resource: … status of 400") is not one:
 * the tests of refusals provoke those and assert them; a 5xx still fails (pageProblems() checks
 * every status where a test wants no refusal at all).
 */
const BROWSER_4XX = /^Failed to load resource: the server responded with a status of 4\d\d /
export type ConsoleErrors = {
  /** Lets console errors and page errors matching `pattern` pass in this test. */
  allow(pattern: RegExp): void
}

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    async ({ browser }, run) => {
      const seen: string[] = []
      const allowed: RegExp[] = []
      const watch = (context: BrowserContext) => {
        context.on('console', (message) => {
          if (message.type() === 'error' && !BROWSER_4XX.test(message.text())) seen.push(`console error at ${message.page()?.url() ?? '?'}: ${message.text()}`)
        })
        context.on('weberror', (error) => seen.push(`page error at ${error.page()?.url() ?? '?'}: ${error.error().message}`))
        return context
      }
      // The test's own context is made through browser.newContext too (Playwright's context fixture).
      const newContext = browser.newContext
      const newPage = browser.newPage
      browser.newContext = async (...args) => watch(await newContext.apply(browser, args))
      browser.newPage = async (...args) => {
        const page = await newPage.apply(browser, args)
        watch(page.context())
        return page
      }
      await run({ allow: (pattern) => void allowed.push(pattern) })
      browser.newContext = newContext
      browser.newPage = newPage
      expect(
        seen.filter((problem) => !allowed.some((pattern) => pattern.test(problem))),
        'console errors and page errors (consoleErrors.allow() those the test expects)',
      ).toEqual([])
    },
    { auto: true },
  ],
})

export { expect }

/** The demo users' password (server/seed/demo.ts). */
export const PASSWORD = 'portal-demo-2026'

/** The demo users (server/seed/demo.ts); Globex's admin works in Spanish. */
export const STAFF = 'staff@example.com'
export const ACME_ADMIN = 'admin@acme.example'
export const ACME_VIEWER = 'viewer@acme.example'
export const GLOBEX_ADMIN = 'admin@globex.example'
export const DEMO_USERS = [STAFF, ACME_ADMIN, ACME_VIEWER, GLOBEX_ADMIN] as const

/** The roles of the demo client admins and viewers (server/seed/demo.ts). */
export const CLIENT_ADMIN_ROLES = ['account-admin', 'user-admin', 'domain-admin', 'dns-admin', 'ssl-admin', 'contact-admin', 'invoice-viewer']
export const CLIENT_VIEWER_ROLES = ['account-viewer', 'user-viewer', 'domain-viewer', 'dns-viewer', 'ssl-viewer', 'contact-viewer', 'invoice-viewer']

/**
 * The signed-in state of a demo user on the shared server, saved once per run by
 * signed-in.setup.ts through the real /login form: `test.use({ storageState: signedIn(ACME_ADMIN) })`.
 * Every test of that user then shares one portal session, so no test may end it (sign out,
 * disable the user, change the password): the tests of those make users of their own.
 */
export function signedIn(email: (typeof DEMO_USERS)[number]): string {
  return path.join(AUTH_DIR, `${email}.json`)
}

/** A short random tag for names a test makes (users, domains, zones), so that none meets another's. */
export function unique(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
}

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
export async function signIn(page: Page, email: string, to = '/', options: { waitForHydration?: boolean; password?: string } = {}) {
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`)
  if (options.waitForHydration) await hydrated(page)
  await page.locator('#login-username').fill(email)
  await page.locator('#login-password').fill(options.password ?? PASSWORD)
  await page.locator('#login').getByRole('button').last().click()
  await page.waitForURL((url) => url.pathname !== '/login')
}

/** The first mail the shared server has sent (or will send within `timeoutMs`) that matches. */
export function mailTo(email: string, timeoutMs?: number): Promise<Mail> {
  return waitForMail(MAIL_DIR, (mail) => mail.to.includes(email), timeoutMs)
}

/**
 * The Platform API of the shared server as one user, for setting up what a test needs (never for
 * the step a test is about): a real token from /v1/login, the user's account as the group.
 */
export type Platform = {
  group: string
  get<T = any>(path: string): Promise<T>
  post<T = any>(path: string, data?: unknown): Promise<T>
  patch<T = any>(path: string, data: unknown): Promise<T>
  put<T = any>(path: string, data: unknown): Promise<T>
  delete(path: string, data?: unknown): Promise<void>
  dispose(): Promise<void>
}

export async function platform(email: string, password = PASSWORD): Promise<Platform> {
  // Explicitly nothing stored: inside a test, a new context would otherwise take the test's storageState.
  const context = await request.newContext({ baseURL: BASE_URL, storageState: { cookies: [], origins: [] } })
  const login = await context.post('/v1/login', { data: { username: email, password } })
  expect(login.status(), `sign-in of ${email} at the Platform API`).toBe(200)
  const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` }
  const call = async (method: 'get' | 'post' | 'patch' | 'put' | 'delete', url: string, data?: unknown) => {
    const response = await context.fetch(`/v1${url}`, { method, headers, ...(data === undefined ? {} : { data }) })
    if (!response.ok()) throw new Error(`${method.toUpperCase()} /v1${url} answered ${response.status()}: ${await response.text()}`)
    return response.status() === 204 ? undefined : response.json()
  }
  const me = (await call('get', '/me')) as { group_id: string }
  return {
    group: me.group_id,
    get: (url) => call('get', url),
    post: (url, data) => call('post', url, data),
    patch: (url, data) => call('patch', url, data),
    put: (url, data) => call('put', url, data),
    delete: async (url, data) => void (await call('delete', url, data)),
    dispose: () => context.dispose(),
  }
}

export type OwnUser = { id: string; email: string; password: string; name: string }

/**
 * A user of the test's own, made through the Platform API as `by` (an admin of the account, or
 * staff with `account`): invited with the roles and language given, the invitation taken from
 * the mail and accepted with a password. Sign in with `signIn(page, user.email, to, { password })`.
 */
export async function newUser(options: { by: string; account?: string; roles: string[]; language?: string; name?: string }): Promise<OwnUser> {
  const api = await platform(options.by)
  try {
    const tag = unique()
    const email = `e2e-${tag}@${options.account ? 'e2e.example' : options.by.split('@')[1]}`
    const name = options.name ?? `E2E User ${tag}`
    const password = `e2e passphrase ${tag}`
    const created = await api.post<{ id: string }>(`/groups/${options.account ?? api.group}/users`, { email, name, roles: options.roles, ...(options.language ? { language: options.language } : {}) })
    const mail = await mailTo(email)
    const token = /\/invitations\/([\w%-]+)/.exec(mail.text)?.[1]
    expect(token, `the invitation link in the mail to ${email}`).toBeTruthy()
    await api.put(`/user_invites/${token}`, { password })
    return { id: created.id, email, password, name }
  } finally {
    await api.dispose()
  }
}

/**
 * Registers domains of the test's own for `by` (an admin of a demo account) through an order with
 * its first contact named `registrant`, and waits until the registry has them. Returns them in the
 * order given.
 */
export async function newDomains(by: string, names: string[], registrant = 'Olivia Carter'): Promise<{ id: string; name: string }[]> {
  const api = await platform(by)
  try {
    const contacts = await api.get<{ data: { id: string }[] }>(`/groups/${api.group}/contacts?fields=id&pql=${encodeURIComponent(`name equals '${registrant}'`)}`)
    const order = await api.post<{ id: string }>(`/groups/${api.group}/orders`, {
      items: names.map((name) => ({ type: 'register', name, period: 1 })),
      contacts: { registrant: contacts.data[0]!.id },
    })
    type Order = { state: string; items: { name: string; state: string; domain_id: string | null; last_error: string | null }[] }
    let done: Order | undefined
    await expect
      .poll(
        async () => {
          done = await api.get<Order>(`/groups/${api.group}/orders/${order.id}`)
          return done.items.map((item) => `${item.name}: ${item.state}${item.last_error ? ` (${item.last_error})` : ''}`)
        },
        { timeout: 60_000, intervals: [250] },
      )
      .toEqual(names.map((name) => `${name}: completed`))
    return names.map((name) => ({ id: done!.items.find((item) => item.name === name)!.domain_id!, name }))
  } finally {
    await api.dispose()
  }
}

/**
 * A user of the test file's own, made before its tests (`newUser`) and signed in once through the
 * /login form; its tests start signed in as it. Use `user()` in a test for its email and password.
 */
export function ownSignedInUser(key: string, options: Parameters<typeof newUser>[0]): () => OwnUser {
  const file = path.join(AUTH_DIR, `own-${key}.json`)
  let made: OwnUser | undefined
  test.beforeAll(async ({ browser }) => {
    made = await newUser(options)
    await saveSignedInState(browser, made, file)
  })
  test.use({ storageState: file })
  return () => {
    if (!made) throw new Error('the user is made before the tests')
    return made
  }
}

/** Signs `user` in through the /login form in a browser of its own and saves the state to `file`. */
export async function saveSignedInState(browser: Browser, user: { email: string; password?: string }, file: string) {
  mkdirSync(path.dirname(file), { recursive: true })
  // Set explicitly: a context made in a hook takes the group's use() options otherwise.
  const context = await browser.newContext({ baseURL: BASE_URL, storageState: { cookies: [], origins: [] }, javaScriptEnabled: true })
  const page = await context.newPage()
  await signIn(page, user.email, '/', { waitForHydration: true, ...(user.password ? { password: user.password } : {}) })
  await expect(page.getByTestId('user-menu')).toBeVisible()
  await context.storageState({ path: file })
  await context.close()
}

/**
 * A portal server of the spec file's own (the shared server's build copy, the seeded template in a
 * data folder of its own), for tests that need it configured with services the shared one has
 * not (its own mail server, an OIDC provider): `setup` starts those first and returns the
 * server's extra environment, `teardown` stops them. Started before the file's tests, stopped
 * after; the file's pages use it as baseURL. Returns the server's origin.
 */
export function ownServer(options: { port: number; name: string; setup?: (origin: string) => Promise<Record<string, string>>; teardown?: () => Promise<void> }): string {
  const origin = `http://localhost:${options.port}`
  const dataDir = path.resolve(`data/e2e-${options.name}-${options.port}`)
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
    // The shared server's copy of the build (tests/e2e/server.ts made it before any test).
    if (!process.env.DATABASE_URL) await prepareDataDir(dataDir, PORTAL_DIR)
    server = spawnServer(PORTAL_DIR, { ...process.env, ...SERVER_ENV, PORT: String(options.port), DATA_DIR: dataDir, PUBLIC_URL: origin, ...env })
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

/**
 * Collects what a page reports as broken from now on: console errors, uncaught page errors (React's
 * hydration errors such as #418 arrive as these) and requests answered 4xx/5xx or failed. Assert
 * `expect(errors()).toEqual([])` once the page is loaded and hydrated.
 */
export function pageProblems(page: Page): () => string[] {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('requestfailed', (request) => {
    // A navigation away cancels the requests of the page left behind: not a failure.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`)
  })
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`)
  })
  return () => [...problems]
}

/** Resolves after the browser has painted twice: whatever hydration reports has been reported by then. */
export async function settled(page: Page) {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
}

/**
 * Waits until React has hydrated `selector` (the element carries React's props), forms or not: pick
 * an element deep in the page, such as its heading.
 */
export async function hydratedAt(page: Page, selector: string) {
  await page.waitForFunction((css) => {
    const element = document.querySelector(css)
    return !!element && Object.keys(element).some((key) => key.startsWith('__reactProps'))
  }, selector)
}
