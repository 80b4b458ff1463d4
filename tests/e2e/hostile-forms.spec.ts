import { readFileSync } from 'node:fs'
import type { Page, Response } from '@playwright/test'
import { BASE_URL } from './env.ts'
import { expect, test, ACME_ADMIN, CLIENT_ADMIN_ROLES, GLOBEX_ADMIN, hydrated, mailTo, newDomains, newUser, ownSignedInUser, platform, signedIn, STAFF, unique } from './support.ts'

// Issue 15 item 5, through the portal's forms: every POST form of the built screens that has a
// text field, filled with text holding a NUL character (a second pass: a lone UTF-16 surrogate) and
// sent with its own submit button, never answers 500 and shows a refusal in the user's language.
// Each form is also posted once more as a browser without JavaScript (or an attacker) would, the
// same fields, straight to its action: 400 and the refusal naming the fields, never 500. The GET
// forms (filters, searches) likewise: NUL in a query is refused with 400 naming the parameter.
//
// What Chromium does with the two: NUL is sent as typed (%00). A lone surrogate never leaves the
// browser: a form's entry list holds Unicode scalar values only (HTML: "constructing the entry
// list"), so it is sent as U+FFFD, an ordinary character; a lone surrogate can only reach the
// portal as invalid UTF-8 (%ED%A0%80), which the server decodes to U+FFFD as well. The surrogate
// pass asserts both (what the browser sent, no 500 for either) on data this spec made.

type Pass = { name: 'NUL' | 'lone surrogate'; text: (tag: string) => string; raw: (tag: string) => string }
const NUL: Pass = { name: 'NUL', text: (tag) => `a\u0000b ${tag}`, raw: (tag) => `a%00b+${tag}` }
const SURROGATE: Pass = { name: 'lone surrogate', text: (tag) => `a\uD800b ${tag}`, raw: (tag) => `a%ED%A0%80b+${tag}` }
// NUL on every screen; the lone surrogate (which the browser turns into U+FFFD before sending)
// on the signed-out screens only, to keep the spec's time down: what it shows holds for every form.
const PASSES = [NUL]

/** The refusal the portal shows, as the locale files write it (en and es). */
const common = (lng: string) => JSON.parse(readFileSync(`locales/${lng}/common.json`, 'utf8')) as { error: Record<string, string> }
function refusalText(lng: 'en' | 'es', fields: string[]): string {
  const texts = common(lng).error
  const template = fields.length === 1 ? texts.unsafeText_one! : texts.unsafeText_other!
  return template.replace('{{fields}}', fields.map((field) => `“${field}”`).join(', '))
}

const TEXT_FIELDS = 'input:not([type]), input[type=text], input[type=email], input[type=search], input[type=tel], input[type=url], input[type=password], textarea'

/** A refusal beside a field of a form: a field marked invalid, its error text, an alert in the form. */
const FIELD_REFUSAL = '[aria-invalid="true"], [role="alert"]:not(:empty), [id$="-error"]:not(:empty)'

type FormInfo = { index: number; action: string; enctype: string; fields: string[]; signature: string }

/** The POST forms of the page worth probing: a text field to fill and a submit button of their own. */
async function postForms(page: Page): Promise<FormInfo[]> {
  return page.evaluate((selector) => {
    const visible = (element: Element) => (element as HTMLElement).getClientRects().length > 0
    return [...document.querySelectorAll('form')].flatMap((form, index) => {
      if ((form.getAttribute('method') ?? 'get').toLowerCase() !== 'post') return []
      // getAttribute: form.action is the element named "action" when the form has one.
      const target = new URL(form.getAttribute('action') ?? '', location.href)
      const action = target.pathname + target.search
      if (action === '/logout') return []
      const elements = [...form.elements]
      const texts = elements.filter((element) => element.matches(selector) && visible(element) && !(element as HTMLInputElement).disabled && !(element as HTMLInputElement).readOnly)
      const submit = elements.find(
        (element) => (element as HTMLButtonElement).type === 'submit' && (element.tagName === 'BUTTON' || element.tagName === 'INPUT') && visible(element) && !(element as HTMLButtonElement).disabled,
      )
      if (texts.length === 0 || !submit) return []
      const fields = texts.map((element) => (element as HTMLInputElement).name)
      return [{ index, action, enctype: form.enctype, fields, signature: `${action} ${fields.join(',')}` }]
    })
  }, TEXT_FIELDS)
}

/** Opens the page with every <details> open, so the forms inside are there to fill. */
async function open(page: Page, path: string) {
  await page.goto(path)
  await hydrated(page)
  // A list's filters are behind its Filter button: open it as a person does (not under a side sheet, whose form is the one to probe).
  const filter = page.getByTestId('filter-toggle')
  if ((await filter.count()) && !(await page.getByRole('dialog').count())) await filter.click()
  await page.evaluate(() => document.querySelectorAll('details').forEach((details) => (details.open = true)))
}

type Probe = { path: string; form: string; outcome: string }

/**
 * Probes every POST form of `path` that has a text field, in one pass: fills the fields, clicks
 * the form's first submit button, watches every answer. Returns what each form did.
 */
async function probeScreen(page: Page, path: string, pass: Pass, lng: 'en' | 'es' = 'en'): Promise<Probe[]> {
  await open(page, path)
  const forms = await postForms(page)
  expect.soft(forms.length, `${path} has a POST form with a text field`).toBeGreaterThan(0)
  const probes: Probe[] = []
  for (const info of forms) {
    const label = `${pass.name} into ${info.signature} on ${path}`
    await open(page, path)
    const now = await postForms(page)
    const current = now.find((form) => form.signature === info.signature)
    expect.soft(current, `${label}: the form is there again`).toBeTruthy()
    if (!current) continue
    const form = page.locator('form').nth(current.index)
    const tag = unique()
    const value = pass.text(tag)

    const answers: Response[] = []
    const onResponse = (response: Response) => answers.push(response)
    page.on('response', onResponse)
    const sent: string[] = []
    const onRequest = (request: import('@playwright/test').Request) => {
      if (request.method() === 'POST') sent.push(request.postDataBuffer()?.toString('latin1') ?? '')
    }
    page.on('request', onRequest)
    try {
      // Mark the fields and the submit button the way postForms chose them, then act as a person.
      const marked = await form.evaluate((element, selector) => {
        const visible = (e: Element) => (e as HTMLElement).getClientRects().length > 0
        const elements = [...(element as HTMLFormElement).elements]
        const texts = elements.filter((e) => e.matches(selector) && visible(e) && !(e as HTMLInputElement).disabled && !(e as HTMLInputElement).readOnly)
        texts.forEach((e, i) => e.setAttribute('data-hostile-field', String(i)))
        const submit = elements.find((e) => (e as HTMLButtonElement).type === 'submit' && visible(e) && !(e as HTMLButtonElement).disabled)
        submit?.setAttribute('data-hostile-submit', '')
        return texts.length
      }, TEXT_FIELDS)
      // The same fields (and the same submit button) for a post straight to the form's action, as a
      // client without JavaScript would send them: taken now, before the click changes the page.
      const entries = await form.evaluate((element) => {
        const f = element as HTMLFormElement
        const submitter = [...f.elements].find((e) => e.hasAttribute('data-hostile-submit')) as HTMLElement | undefined
        return [...new FormData(f, submitter)].flatMap(([name, value]) => {
          if (typeof value !== 'string') return []
          const field = f.elements.namedItem(name)
          const hostile =
            field instanceof Element ? field.hasAttribute('data-hostile-field') : field instanceof RadioNodeList && [...field].some((e) => (e as Element).hasAttribute('data-hostile-field'))
          return [{ name, value, hostile }]
        })
      })
      const raw = pass.raw(tag)
      for (let i = 0; i < marked; i++) await page.locator(`[data-hostile-field="${i}"]`).fill(value)
      const body = entries.map((entry) => `${encodeURIComponent(entry.name)}=${entry.hostile ? raw : encodeURIComponent(entry.value)}`).join('&')
      // The post's answer may take seconds on a loaded machine (CI runs this beside both Vitest passes).
      const posted = page.waitForResponse((response) => response.request().method() === 'POST', { timeout: 30_000 }).catch(() => null)
      // A form that refuses in the page sends nothing: its refusal (a field marked invalid, or the
      // browser's constraint validation) is there at once, so the wait for a post ends then rather
      // than at the post's time-out — once a short grace shows no request went out after all.
      const handle = await form.elementHandle()
      await page.locator('[data-hostile-submit]').click()
      const inPage = page
        .waitForFunction(
          (f) =>
            [...(f as HTMLFormElement).elements].some(
              (e) => e.getAttribute('aria-invalid') === 'true' || ((e as HTMLInputElement).willValidate && !(e as HTMLInputElement).validity.valid && !(f as HTMLFormElement).noValidate),
            ),
          handle,
          { timeout: 5_000, polling: 100 },
        )
        .then(async () => {
          await page.waitForTimeout(300)
          return sent.length === 0 ? 'in-page' : null
        })
        .catch(() => null)
      const answer = (await Promise.race([posted, inPage])) === 'in-page' ? null : await posted
      let outcome: string
      if (!answer) {
        // Nothing left the browser: the form refused in the page (constraint validation or the
        // form's own checks beside the fields). Say which, and that it is visible.
        const refusedInPage = await form.evaluate((element) => {
          const f = element as HTMLFormElement
          const invalid = [...f.elements].filter((e) => e.getAttribute('aria-invalid') === 'true' || ((e as HTMLInputElement).willValidate && !(e as HTMLInputElement).validity.valid && !f.noValidate))
          return invalid.map((e) => (e as HTMLInputElement).name)
        })
        expect.soft(refusedInPage.length, `${label}: nothing was posted, so the page refused it beside a field`).toBeGreaterThan(0)
        outcome = `refused in the page beside ${refusedInPage.join(', ')}`
      } else {
        await page.waitForLoadState()
        // NUL: wait until the refusal has rendered (the 400 screen, or errors in the form itself).
        if (pass === NUL)
          await expect
            .configure({ soft: true })
            .poll(async () => (await page.getByTestId('error-screen').count()) > 0 || (await form.locator(FIELD_REFUSAL).count()) > 0, { message: `${label}: the refusal rendered` })
            .toBe(true)
        else await page.waitForTimeout(500)
        const status = (await page.getByTestId('error-status').count()) > 0 ? await page.getByTestId('error-status').textContent() : null
        expect.soft(status === null || Number(status) < 500, `${label}: not the 500 screen (status ${status})`).toBe(true)
        if (pass === NUL) {
          const fields = [...new Set(current.fields.filter(Boolean))]
          if (status !== null) {
            expect.soft(status, `${label}: the 400 screen`).toBe('400')
            await expect.soft(page.getByTestId('error-unsafe-text'), `${label}: the refusal names the fields`).toHaveText(refusalText(lng, fields))
            outcome = `400 screen naming ${fields.join(', ')}`
          } else {
            await expect.soft(form.locator(FIELD_REFUSAL).first(), `${label}: refused beside a field`).toBeVisible()
            outcome = `refused beside a field (${answer.status()})`
          }
          // Chromium hands Playwright no body for a multipart post with a file input: nothing to read then.
          if (sent.some((body) => body.length > 0))
            expect
              .soft(
                sent.some((body) => body.includes('%00') || body.includes('\u0000')),
                `${label}: the browser sent the NUL`,
              )
              .toBe(true)
        } else {
          // The browser sent U+FFFD, never the lone surrogate.
          expect
            .soft(
              sent.every((body) => !body.includes('%ED%A0%80')),
              `${label}: no lone surrogate on the wire`,
            )
            .toBe(true)
          if (sent.some((body) => body.length > 0))
            expect
              .soft(
                sent.some((body) => body.includes('%EF%BF%BD') || body.includes('\u00ef\u00bf\u00bd')),
                `${label}: the browser sent U+FFFD instead`,
              )
              .toBe(true)
          outcome = `sent as U+FFFD, answered ${answer.status()}`
        }
      }
      expect
        .soft(
          answers.filter((response) => response.status() >= 500).map((response) => `${response.status()} ${response.url()}`),
          `${label}: no answer of 500 or more`,
        )
        .toEqual([])

      // As a client without JavaScript would post it: every field, then (NUL) one field at a time
      // added to what the field held, the others as they were (an edit form's values are valid,
      // so only the NUL stands between the post and the API).
      const postDirect = (data: string) =>
        page.request.post(new URL(info.action, BASE_URL).toString(), { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE_URL }, data, maxRedirects: 0 })
      const direct = await postDirect(body)
      expect.soft(direct.status(), `${label}, posted without JavaScript: not 500`).toBeLessThan(500)
      const directs = [`${direct.status()}`]
      if (pass === NUL) {
        const fields = [...new Set(current.fields.filter(Boolean))]
        expect.soft(direct.status(), `${label}, posted without JavaScript: 400`).toBe(400)
        expect.soft(summary(await direct.text()), `${label}, posted without JavaScript: the refusal in words`).toBe(refusalText(lng, fields))
        for (const field of fields) {
          const one = entries.map((entry) => `${encodeURIComponent(entry.name)}=${encodeURIComponent(entry.value)}${entry.hostile && entry.name === field ? `%00${tag}` : ''}`).join('&')
          const answer = await postDirect(one)
          expect.soft(answer.status(), `NUL added to ${field} alone in ${info.signature} on ${path}: 400, not 500`).toBe(400)
          expect.soft(summary(await answer.text()), `NUL added to ${field} alone in ${info.signature} on ${path}: the refusal in words`).toBe(refusalText(lng, [field]))
          directs.push(`${field} alone ${answer.status()}`)
        }
      }
      probes.push({ path, form: info.signature, outcome: `${outcome}; without JavaScript ${directs.join(', ')}` })
    } finally {
      page.off('response', onResponse)
      page.off('request', onRequest)
    }
  }
  return probes
}

/** What a document answer says, short: the refusal's text, else the error status or the page title. */
function summary(html: string): string {
  const unsafe = /data-testid="error-unsafe-text">([^<]*)</.exec(html)?.[1]
  if (unsafe)
    return unsafe
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
  const status = /data-testid="error-status">(\d+)</.exec(html)?.[1]
  const invalid = (html.match(/aria-invalid="true"/g) ?? []).length
  return `(no refusal text: ${status ? `error screen ${status}` : `page "${/<title>([^<]*)</.exec(html)?.[1] ?? html.slice(0, 200)}"`}, ${invalid} field(s) marked invalid)`
}

/** Runs the passes over the screens and attaches what each form did to the report. */
async function probeAll(page: Page, screens: string[], passes: Pass[] = PASSES, lng: 'en' | 'es' = 'en') {
  const probes: Probe[] = []
  for (const pass of passes) for (const path of screens) probes.push(...(await probeScreen(page, path, pass, lng)))
  await test.info().attach('forms probed', { body: probes.map((probe) => `${probe.path} — ${probe.form}: ${probe.outcome}`).join('\n'), contentType: 'text/plain' })
  console.log(probes.map((probe) => `${probe.path} — ${probe.form}: ${probe.outcome}`).join('\n'))
  return probes
}

/**
 * The GET forms of a screen (filters, searches): each one with its text fields filled with NUL
 * and sent with its own button: the 400 screen naming the fields, never 500.
 */
async function probeQueries(page: Page, path: string): Promise<string[]> {
  await open(page, path)
  const forms = await page.evaluate((selector) => {
    const visible = (e: Element) => (e as HTMLElement).getClientRects().length > 0
    return [...document.querySelectorAll('form')].flatMap((form, index) => {
      if ((form.getAttribute('method') ?? 'get').toLowerCase() !== 'get') return []
      const elements = [...form.elements]
      const texts = elements.filter((e) => e.matches(selector) && visible(e) && !(e as HTMLInputElement).disabled)
      const submit = elements.some((e) => (e as HTMLButtonElement).type === 'submit' && visible(e))
      return texts.length && submit ? [{ index, fields: texts.map((e) => (e as HTMLInputElement).name).join(',') }] : []
    })
  }, TEXT_FIELDS)
  const done: string[] = []
  for (const info of forms) {
    await open(page, path)
    const form = page.locator('form').nth(info.index)
    const answers: Response[] = []
    const onResponse = (response: Response) => answers.push(response)
    page.on('response', onResponse)
    try {
      const count = await form.evaluate((element, selector) => {
        const visible = (e: Element) => (e as HTMLElement).getClientRects().length > 0
        const elements = [...(element as HTMLFormElement).elements]
        elements.filter((e) => e.matches(selector) && visible(e) && !(e as HTMLInputElement).disabled).forEach((e, i) => e.setAttribute('data-hostile-field', String(i)))
        elements.find((e) => (e as HTMLButtonElement).type === 'submit' && visible(e))?.setAttribute('data-hostile-submit', '')
        // Only the panel holding this form stays open, as when a person uses it (the Columns
        // chooser, opened by `open`, would lie over the filter panel's button).
        document.querySelectorAll('details').forEach((details) => {
          if (!details.contains(element)) details.open = false
        })
        return elements.filter((e) => e.hasAttribute('data-hostile-field')).map((e) => (e as HTMLInputElement).name)
      }, TEXT_FIELDS)
      for (let i = 0; i < count.length; i++) await page.locator(`[data-hostile-field="${i}"]`).fill(NUL.text(unique()))
      const navigated = page.waitForResponse((response) => response.request().method() === 'GET' && response.url().includes('%00'), { timeout: 5_000 }).catch(() => null)
      await page.locator('[data-hostile-submit]').click()
      const answer = await navigated
      await page.waitForLoadState()
      // The answer renders (in the browser, after the data request): the 400 screen naming the fields.
      await expect.soft(page.getByTestId('error-status'), `NUL in the query of ${info.fields} on ${path}: the 400 screen`).toHaveText('400')
      await expect
        .soft(page.getByTestId('error-unsafe-text'), `NUL in the query of ${info.fields} on ${path}: the refusal names the fields`)
        .toHaveText(refusalText('en', [...new Set(count.filter(Boolean))]))
      const status = (await page.getByTestId('error-status').count()) > 0 ? await page.getByTestId('error-status').textContent() : null
      expect
        .soft(
          answers.filter((response) => response.status() >= 500).map((response) => `${response.status()} ${response.url()}`),
          `NUL in the query of ${info.fields} on ${path}: no 500`,
        )
        .toEqual([])
      done.push(`${path} GET ${info.fields}: ${answer ? answer.status() : 'not sent'}${status ? `, error screen ${status}` : ''}`)
    } finally {
      page.off('response', onResponse)
    }
  }
  return done
}

test.describe('hostile text in the portal forms (issue 15 item 5)', () => {
  test.describe('as the Acme admin', () => {
    test.use({ storageState: signedIn(ACME_ADMIN) })

    test('contacts, users, accounts and the domain screens refuse NUL with 400, never 500', async ({ page }) => {
      test.setTimeout(300_000)
      const api = await platform(ACME_ADMIN)
      let contact: { id: string }
      try {
        contact = await api.post<{ id: string }>(`/groups/${api.group}/contacts`, { name: `Hostile ${unique()}`, email: 'hostile@acme.example', country_code: 'ES' })
      } finally {
        await api.dispose()
      }
      const user = await newUser({ by: ACME_ADMIN, roles: ['domain-viewer'] })
      const [domain] = await newDomains(ACME_ADMIN, [`e2e-hostile-${unique()}.com`])
      const screens = [
        '/contacts/new',
        `/contacts/${contact.id}/edit`,
        '/users/invite',
        `/users/${user.id}`,
        '/domains/add',
        '/domains/order',
        '/domains/contacts',
        `/domains/${domain!.id}`,
        '/domains/bind-import',
      ]
      const probes = await probeAll(page, screens)
      // The DNS tab: a zone first (its own form has no text), then the record editor.
      await page.goto(`/domains/${domain!.id}/dns`)
      await hydrated(page)
      await page.getByRole('button', { name: 'Create zone' }).click()
      await expect(page.getByTestId('record-editor')).toBeVisible()
      probes.push(...(await probeAll(page, [`/domains/${domain!.id}/dns`])))
      // Every screen had at least one form probed, the DNS tab's record editor included.
      expect([...new Set(probes.map((probe) => probe.path))].sort()).toEqual([...screens, `/domains/${domain!.id}/dns`].sort())
    })

    test('the GET forms (filters, searches, the names to delete) refuse NUL in the query with 400 naming the field, never 500', async ({ page }) => {
      test.setTimeout(120_000)
      const done: string[] = []
      for (const path of ['/contacts', '/users', '/domains', '/domains/search', '/domains/delete', '/domains/search/records', '/domains/log']) done.push(...(await probeQueries(page, path)))
      console.log(done.join('\n'))
      expect(done.length).toBeGreaterThan(0)
      // A resource route (the CSV export of a list) and a data request answer 400 too, not 500.
      for (const url of ['/export/contacts?pql=a%00b', '/domains/search.data?q=a%00b']) {
        const answer = await page.request.get(url, { maxRedirects: 0 })
        expect.soft(answer.status(), `GET ${url}`).toBe(400)
      }
    })
  })

  test.describe('as staff', () => {
    test.use({ storageState: signedIn(STAFF) })

    test('accounts, an account, users and a TLD refuse NUL with 400, never 500', async ({ page }) => {
      test.setTimeout(180_000)
      const api = await platform(STAFF)
      let account: { id: string }
      let tld: { id: string }
      try {
        account = await api.post<{ id: string }>('/accounts', { name: `E2E Hostile ${unique()}` })
        tld = (await api.get<{ data: { id: string }[] }>('/tlds?limit=1&fields=id')).data[0]!
      } finally {
        await api.dispose()
      }
      await probeAll(page, ['/accounts/new', `/accounts/${account.id}/edit`, '/users/invite', `/tlds/${tld.id}`])
    })
  })

  test.describe('as a user of its own (profile and trays)', () => {
    const user = ownSignedInUser('hostile-forms', { by: ACME_ADMIN, roles: CLIENT_ADMIN_ROLES })

    test('my profile and the bulk trays refuse NUL with 400, never 500', async ({ page }) => {
      test.setTimeout(240_000)
      const [domain] = await newDomains(ACME_ADMIN, [`e2e-hostile-tray-${unique()}.com`])
      const api = await platform(user().email, user().password)
      try {
        const zone = await api.post<{ id: string }>(`/groups/${api.group}/zones`, { domain_id: domain!.id })
        await api.post(`/groups/${api.group}/zones/${zone.id}/changes`, { changes: [{ action: 'add', name: 'www', type: 'A', content: '192.0.2.10' }] })
        const records = await api.get<{ data: { id: string; type: string }[] }>(`/groups/${api.group}/zones/${zone.id}/records`)
        await api.post(`/groups/${api.group}/tray`, { entity_type: 'domain', ids: [domain!.id] })
        await api.post(`/groups/${api.group}/tray`, { entity_type: 'record', ids: records.data.filter((record) => record.type === 'A').map((record) => record.id) })
      } finally {
        await api.dispose()
      }
      await probeAll(page, ['/my-profile', '/tray', '/tray/records'])
    })
  })

  test.describe('signed out', () => {
    // An address of this test's own (the e2e server trusts the loopback proxy): the sign-in
    // failures it makes count against nobody else's.
    test.use({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${1 + Math.floor(Math.random() * 250)}` } })

    test('sign-in, password reset and an invitation refuse NUL with 400 and take a lone surrogate as U+FFFD, never 500', async ({ page }) => {
      test.setTimeout(120_000)
      const api = await platform(ACME_ADMIN)
      const email = `e2e-hostile-${unique()}@acme.example`
      try {
        await api.post(`/groups/${api.group}/users`, { email, roles: ['domain-viewer'] })
      } finally {
        await api.dispose()
      }
      const token = /\/invitations\/([\w%-]+)/.exec((await mailTo(email)).text)?.[1]
      expect(token).toBeTruthy()
      await probeAll(page, ['/login', '/reset', `/invitations/${token}`], [NUL, SURROGATE])
    })
  })

  test.describe('in Spanish', () => {
    test.use({ storageState: signedIn(GLOBEX_ADMIN) })

    test('the refusal is in the user language', async ({ page }) => {
      await probeAll(page, ['/contacts/new'], [NUL], 'es')
    })
  })
})
