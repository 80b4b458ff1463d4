import { Resolver } from 'node:dns/promises'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { powerDnsEnv } from '#server/integrations/powerdns/client.ts'
import { startPowerDns, type PowerDnsServer } from '#tests/support/powerdns.ts'
import { startMailbox, waitForMail } from './mailbox.ts'
import { expect, test, hydrated, ownServer, pageProblems, PASSWORD, unique } from './support.ts'

// Watch (issue 31): a lookalike registered at the local registry by a stranger and given mail in
// PowerDNS is found by a run of a watch, rated high (mail-ready) with its RDAP and DNS evidence,
// opened as a case, triaged, refused URS (.com), and its takedown notice mailed to the registrar's
// abuse contact from the RDAP answer; the action report prints to PDF. The watch asks the DNS, so
// this file runs its own server beside a real PowerDNS (its resolver) and a mailbox of its own.
let pdns: PowerDnsServer | undefined
let mailbox: Awaited<ReturnType<typeof startMailbox>> | undefined
const MAIL_DIR = path.resolve(`data/e2e-watch-mail-${process.env.E2E_PORT ?? 3210}`)
const origin = ownServer({
  port: Number(process.env.E2E_WATCH_PORT ?? 3219),
  name: 'watch',
  setup: async () => {
    pdns = await startPowerDns()
    mailbox = await startMailbox(MAIL_DIR)
    return { ...powerDnsEnv(pdns.settings), DNS_RESOLVER: `127.0.0.1:${pdns.dnsPort}`, SMTP_URL: mailbox.url }
  },
  teardown: async () => {
    await mailbox?.close()
    await pdns?.stop()
  },
})

/** The Platform API of this file's server as a demo user, for the set-up only. */
async function api(username: string) {
  const login = await fetch(`${origin}/v1/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password: PASSWORD }) })
  const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`, 'content-type': 'application/json' }
  const call = async <T = any>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${origin}/v1${url}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`)
    return (res.status === 204 ? undefined : await res.json()) as T
  }
  const me = await call<{ group_id: string }>('GET', '/me')
  return { group: me.group_id, call }
}

test('a registered mail-ready lookalike becomes a detection, a case and a notice; URS is refused for .com; the report prints', async ({ page }) => {
  // This server's PowerDNS starts empty: the demo's zones, queued by the seed, are published to it
  // first, and the stranger's zone after them (about 30 s on two shared cores).
  test.setTimeout(180_000)
  const tag = unique()
    .replace(/[^a-z0-9]/g, '')
    .slice(-8)
  const label = `wt${tag}`
  const lookalike = `${label.slice(1)}.com`
  // Set-up: the brand (brand protection's), and a stranger's (Globex's) registration of one of its omissions, with mail.
  const brand = await api('brand@acme.example')
  await brand.call('POST', `/groups/${brand.group}/brands`, { label, domains: [`${label}.com`], fuzzers: ['omission'] })
  const globex = await api('admin@globex.example')
  const contacts = await globex.call<{ data: { id: string }[] }>('GET', `/groups/${globex.group}/contacts?fields=id&limit=1`)
  const order = await globex.call<{ id: string }>('POST', `/groups/${globex.group}/orders`, {
    items: [{ type: 'register', name: lookalike, period: 1 }],
    contacts: { registrant: contacts.data[0]!.id },
  })
  let domainId: string | null = null
  await expect
    .poll(
      async () => {
        const done = await globex.call<{ items: { state: string; domain_id: string | null }[] }>('GET', `/groups/${globex.group}/orders/${order.id}`)
        domainId = done.items[0]!.domain_id
        return done.items[0]!.state
      },
      { timeout: 60_000, intervals: [250] },
    )
    .toBe('completed')
  const zone = await globex.call<{ id: string }>('POST', `/groups/${globex.group}/zones`, { domain_id: domainId })
  await globex.call('POST', `/groups/${globex.group}/zones/${zone.id}/changes`, {
    changes: [
      { action: 'add', name: '@', type: 'A', content: '192.0.2.90' },
      { action: 'add', name: '@', type: 'MX', content: `10 mail.${lookalike}.` },
    ],
  })
  // PowerDNS serves it once the publishing job has run (after the demo's zones, published to this new PowerDNS at start).
  const resolver = new Resolver()
  resolver.setServers([`127.0.0.1:${pdns!.dnsPort}`])
  await expect.poll(async () => (await resolver.resolveMx(lookalike).catch(() => [])).map((m) => m.exchange), { timeout: 120_000, intervals: [500] }).toEqual([`mail.${lookalike}`])

  // The brand manager signs in and opens Watch from the menu.
  await page.goto('/login?redirectTo=%2F')
  await hydrated(page)
  await page.locator('#login-username').fill('brand@acme.example')
  await page.locator('#login-password').fill(PASSWORD)
  await page.locator('#login').getByRole('button').last().click()
  await page.waitForURL((url) => !url.pathname.startsWith('/login'))
  const problems = pageProblems(page)
  await page.getByRole('link', { name: 'Watch' }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Watch' })).toBeVisible()
  await hydrated(page)
  await page.getByTestId('watch-new').click()
  const sheet = page.getByTestId('watch-sheet')
  await sheet.getByLabel('Name', { exact: true }).fill(`Watch ${label}`)
  await sheet.getByLabel('Brand', { exact: true }).selectOption({ label })
  await sheet.getByLabel('Lowest similarity asked').fill('50')
  await page.getByTestId('watch-create').click()
  await expect(page.getByTestId('watch-name')).toHaveText(`Watch ${label}`)

  // A run: the stranger's name is a detection, rated high for its mail.
  const row = page.getByTestId('data-row').filter({ hasText: lookalike })
  await hydrated(page)
  await page.getByTestId('watch-run').click()
  await expect(page.getByText(/Run done: 1 registered lookalike, 1 new/)).toBeVisible()
  await expect(row).toContainText('High')
  await expect(row).toContainText('Yes')
  await hydrated(page)
  await row.getByRole('button', { name: `Open a case about ${lookalike}` }).click()
  await expect(page.getByTestId('case-name')).toHaveText(lookalike)
  await expect(page.getByTestId('case-reasons')).toContainText('Mail-ready (MX)')
  await expect(page.getByTestId('evidence-dns')).toContainText(`MX 10 mail.${lookalike}`)
  // The RDAP answer of the local registry, with the registrar's abuse contact.
  await expect(page.getByTestId('evidence-rdap')).toContainText('abuse ')

  // Triage, then URS: refused for .com with the reason.
  await hydrated(page)
  await page.getByTestId('case-step').click()
  await page.getByLabel('Step', { exact: true }).selectOption({ label: 'Triaged — High risk' })
  await page.getByTestId('case-step-save').click()
  await expect(page.getByText('The case moved on.')).toBeVisible()
  await hydrated(page)
  await page.getByTestId('case-step').click()
  expect(problems()).toEqual([])
  await page.getByLabel('Step', { exact: true }).selectOption({ label: 'In action — URS' })
  await page.getByTestId('case-step-save').click()
  await expect(page.getByTestId('case-step-sheet')).toContainText('URS does not apply to this TLD')
  // The refusal is the form's answer, 400 like every refused form: the only problem the page reports.
  expect(problems()).toEqual([expect.stringMatching(/^400: .*\/step\.data$/), expect.stringMatching(/^console: .*status of 400/)])
  const refusal = problems().length

  // The notice, to the abuse contact the RDAP answer gave (prefilled).
  await page.getByLabel('Step', { exact: true }).selectOption({ label: 'In action — Notice sent' })
  const abuse = await page.getByLabel('Notice sent to').inputValue()
  expect(abuse, 'the abuse contact of the RDAP answer').toMatch(/^[^@\s]+@[^@\s]+$/)
  await page.getByTestId('case-step-save').click()
  await expect(page.getByText('The takedown notice is sent.')).toBeVisible()
  await expect(page.getByTestId('case-sends')).toContainText(abuse)
  const notice = await waitForMail(MAIL_DIR, (m) => m.to.includes(abuse) && m.subject.includes(lookalike))
  expect(notice.subject).toBe(`Abuse report: ${lookalike} imitates the brand ${label}`)
  expect(notice.text).toContain('Evidence captured')

  // The action report, printed to PDF by Chromium.
  await page.getByRole('link', { name: `Watch ${label}` }).click()
  await page.getByTestId('report-action').click()
  await expect(page.getByTestId('report-stamp')).toContainText(`Watch ${label}`)
  await expect(page.getByTestId('report-case')).toContainText(lookalike)
  const pdf = await page.pdf({ format: 'A4', printBackground: true })
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
  if (process.env.WATCH_PDF) writeFileSync(process.env.WATCH_PDF, pdf)
  expect(problems().slice(refusal)).toEqual([])
})
