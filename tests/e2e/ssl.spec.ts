import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { X509Certificate } from 'node:crypto'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'
import { hydrated, ownServer, PASSWORD } from './support.ts'

// Certificates need a CA that can see our DNS: this file runs its own server next to a real
// PowerDNS; the server starts its local Pebble (pebble is installed) and points it at that PowerDNS.
let pdns: PowerDnsServer
ownServer({
  port: Number(process.env.E2E_SSL_PORT ?? 3661),
  name: 'ssl',
  setup: async () => {
    pdns = await startPowerDns()
    return { POWERDNS_API_URL: pdns.settings.apiUrl, POWERDNS_API_KEY: pdns.settings.apiKey, POWERDNS_DNS_ADDRESS: `127.0.0.1:${pdns.dnsPort}`, ACME_LOCAL_PEBBLE: '1' }
  },
  teardown: async () => pdns?.stop(),
})

test('a DV certificate for a demo domain whose zone is ours: ordered, validated through our DNS, issued, downloaded', async ({ page, browser }) => {
  test.setTimeout(150_000)
  await page.goto('/login?redirectTo=%2Fdomains')
  await hydrated(page)
  await page.locator('#login-username').fill('admin@acme.example')
  await page.locator('#login-password').fill(PASSWORD)
  await page.locator('#login').getByRole('button').last().click()
  await page.waitForURL((url) => url.pathname === '/domains')

  // The domain's zone is ours: created from its DNS tab when the demo has none yet.
  const link = page.getByTestId('domain-link').first()
  const name = (await link.textContent())!.trim()
  await link.click()
  await expect(page.getByTestId('domain-name')).toHaveText(name)
  await page.getByTestId('domain-tabs').getByRole('link', { name: 'DNS', exact: true }).click()
  await expect(page).toHaveURL(/\/dns$/)
  await hydrated(page)
  if (await page.getByTestId('no-zone').isVisible()) await page.getByRole('button', { name: 'Create zone' }).click()
  await expect(page.getByTestId('zone-name')).toContainText(name)
  // A CAA record that forbids our CA on the name about to be ordered (RFC 8659).
  const host = `www.caa.${name}`
  const row = page
    .getByTestId('record-editor')
    .getByTestId('editor-row')
    .filter({ hasNot: page.locator('input[type=checkbox]') })
    .first()
  await row.locator('input[name$=".name"]').fill('caa')
  await row.locator('select[name$=".type"]').selectOption('CAA')
  await row.locator('input[name$=".content"]').fill('0 issue "other-ca.example"')
  await page.getByRole('button', { name: 'Apply changes' }).click()
  await expect(page.getByText(/1 change saved/)).toBeVisible()

  // SSL from the menu; the order form; the certificate's page.
  await page.getByRole('link', { name: 'SSL', exact: true }).first().click()
  await expect(page).toHaveURL(/\/ssls(\?|$)/)
  await hydrated(page)
  await page.getByTestId('ssl-order-open').click()
  await page.getByRole('textbox', { name: 'Names' }).fill(host)
  await page.getByTestId('ssl-order-submit').click()
  // Refused beside the names; one click adds the CAA record naming our CA and orders.
  await expect(page.getByTestId('ssl-caa-fix')).toContainText(host)
  await expect(page.getByRole('textbox', { name: 'Names' })).toHaveValue(host)
  await page.getByTestId('ssl-caa-allow').click()
  await expect(page).toHaveURL(/\/ssls\/[0-9a-f-]{36}/)
  await expect(page.getByTestId('ssl-title')).toHaveText(host)
  // The page follows the CA by itself: no reload.
  await expect(page.getByTestId('ssl-status').first()).toHaveText('Issued', { timeout: 30_000 })

  // Validation shows the name valid through our DNS; the files download.
  await page.getByRole('link', { name: 'Validation' }).click()
  await expect(page.getByTestId('ssl-validation-state')).toHaveText('Valid')
  await page.getByRole('link', { name: 'Files' }).click()
  const downloading = page.waitForEvent('download')
  await page.getByTestId('ssl-download-fullchain-pem').click()
  const download = await downloading
  const pem = readFileSync((await download.path())!, 'utf8')
  const leaf = new X509Certificate(pem)
  expect(leaf.subjectAltName).toBe(`DNS:${host}`)
  expect(download.suggestedFilename()).toBe(`${host}.fullchain.pem`)
  // PKCS#12 with a password, in the legacy profile: openssl opens it with that password.
  await page.getByTestId('ssl-pkcs12-password').fill('e2e-p12-password')
  await page.getByTestId('ssl-pkcs12-profile').selectOption('legacy')
  const p12ing = page.waitForEvent('download')
  await page.getByTestId('ssl-pkcs12-download').click()
  const p12 = await p12ing
  expect(p12.suggestedFilename()).toBe(`${host}.legacy.p12`)
  const opened = execFileSync('openssl', ['pkcs12', '-in', (await p12.path())!, '-passin', 'pass:e2e-p12-password', '-nodes'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString()
  expect(opened).toContain('BEGIN PRIVATE KEY')
  // Nothing of the validation stays published: the removal is queued for publishing with the
  // change, and published at once when PowerDNS takes it (else by the queued job's retries).
  await expect.poll(() => pdns.dig(`_acme-challenge.${host}`, 'TXT'), { timeout: 30_000 }).toEqual([])

  // Reissued from its page: a new certificate under the same coverage term.
  const first = new URL(page.url()).pathname.replace(/\/files$/, '')
  await page.getByRole('link', { name: 'Overview' }).click()
  await expect(page).toHaveURL((url) => url.pathname === first)
  await hydrated(page)
  await page.getByTestId('ssl-reissue-open').locator('summary').click()
  await page.getByTestId('ssl-reissue-key-type').selectOption('rsa-2048')
  await page.getByTestId('ssl-reissue').click()
  await expect(page).toHaveURL((url) => /\/ssls\/[0-9a-f-]{36}$/.test(url.pathname) && url.pathname !== first)
  await expect(page.getByTestId('ssl-status').first()).not.toHaveText(/Pending validation|Issuing/, { timeout: 30_000 })
  expect(
    await page
      .getByTestId('ssl-failure')
      .textContent({ timeout: 100 })
      .catch(() => ''),
  ).toBe('')
  await expect(page.getByTestId('ssl-status').first()).toHaveText('Issued')
  await expect(page.getByTestId('ssl-term')).toContainText('Reissue')

  // Import: the same certificate again is refused beside its field; one bought elsewhere is tracked.
  await page.getByRole('link', { name: 'SSL', exact: true }).first().click()
  await hydrated(page)
  await page.getByTestId('ssl-import-open').click()
  await page.getByTestId('ssl-import-certificate').fill(pem)
  await page.getByTestId('ssl-import-submit').click()
  await expect(page.getByText('This certificate is here already.')).toBeVisible()
  const dir = mkdtempSync(path.join(tmpdir(), 'ssl-import-'))
  const elsewhere = `shop.${name}`
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        path.join(dir, 'k.pem'),
        '-out',
        path.join(dir, 'c.pem'),
        '-days',
        '20',
        '-subj',
        `/CN=${elsewhere}`,
        '-addext',
        `subjectAltName=DNS:${elsewhere}`,
      ],
      { stdio: 'ignore' },
    )
    await page.getByTestId('ssl-import-certificate').fill(readFileSync(path.join(dir, 'c.pem'), 'utf8'))
    await page.getByTestId('ssl-import-key').fill(readFileSync(path.join(dir, 'k.pem'), 'utf8'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  await page.getByTestId('ssl-import-submit').click()
  await expect(page.getByTestId('ssl-title')).toHaveText(elsewhere)
  await expect(page.getByTestId('ssl-status').first()).toHaveText('Expiring')
  await expect(page.getByTestId('ssl-imported')).toBeVisible()

  await screens(browser, page, first)
})

const SHOTS = process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), 'ssl-screens')

/** The list and the certificate's tabs as a person sees them: light, dark, 390 px wide, Japanese. */
async function screens(browser: Browser, signedIn: Page, certificate: string) {
  const storageState = await signedIn.context().storageState()
  const origin = new URL(signedIn.url()).origin
  for (const look of [
    { name: 'light', colorScheme: 'light' as const, lng: 'en', width: 1440 },
    { name: 'dark', colorScheme: 'dark' as const, lng: 'en', width: 1440 },
    { name: '390', colorScheme: 'light' as const, lng: 'en', width: 390 },
    { name: 'ja', colorScheme: 'light' as const, lng: 'ja', width: 1440 },
  ]) {
    const context = await browser.newContext({ storageState, colorScheme: look.colorScheme, viewport: { width: look.width, height: 900 } })
    await context.addCookies([
      { name: 'lng', value: look.lng, url: origin },
      { name: 'theme', value: look.colorScheme, url: origin },
    ])
    const page = await context.newPage()
    for (const [shot, to] of [
      ['list', '/ssls'],
      ['overview', certificate],
      ['validation', `${certificate}/validation`],
      ['files', `${certificate}/files`],
      ['log', `${certificate}/log`],
    ] as const) {
      await page.goto(`${origin}${to}`)
      await hydrated(page)
      if (shot === 'list') await page.getByTestId('ssl-order-open').click()
      await page.screenshot({ path: path.join(SHOTS, `ssl-${shot}-${look.name}.png`), fullPage: true })
    }
    await context.close()
  }
}
