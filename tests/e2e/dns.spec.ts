import type { Page } from '@playwright/test'
import { expect, test, ACME_ADMIN, hydrated, newDomains, signedIn } from './support.ts'

test.use({ storageState: signedIn(ACME_ADMIN) })

/** A registration of the test's own in Acme's portfolio, without a zone. */
async function domainWithoutZone(): Promise<{ id: string; name: string }> {
  const [domain] = await newDomains(ACME_ADMIN, [`e2e-dns-${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}.com`])
  return domain!
}

/** The saved records of the zone with this name (as the editor shows it, relative) and content: the records table is the editor. */
const savedRecord = (page: Page, name: string, content: string) =>
  page
    .getByTestId('record-editor')
    .locator('[data-testid="editor-row"][data-saved]')
    .filter({ has: page.locator(`input[name$=".name"][value="${name}"]`) })
    .filter({ has: page.locator(`input[name$=".content"][value='${content}']`) })

test('a zone for a domain: create, edit many records with a preview, BIND import with a bad line, export', async ({ page, request }) => {
  const domain = await domainWithoutZone()
  await page.goto(`/domains/${domain.id}/dns`)
  await hydrated(page)

  // No zone yet: the DNS tab offers to create one.
  await expect(page.getByTestId('no-zone')).toBeVisible()
  await page.getByRole('button', { name: 'Create zone' }).click()
  await expect(page.getByTestId('zone-name')).toHaveText(`Zone ${domain.name}`)
  await expect(page.getByTestId('publish-state')).toContainText('Pending')
  await expect(page.getByTestId('publish-state')).toContainText('PowerDNS is not configured')

  // A, MX and TXT in one change: preview first, nothing is saved by it.
  const editor = page.getByTestId('record-editor')
  const newRows = editor.getByTestId('editor-row').filter({ hasNot: page.locator('input[type=checkbox]') })
  const fill = async (i: number, name: string, type: string, content: string) => {
    const row = newRows.nth(i)
    await row.locator('input[name$=".name"]').fill(name)
    await row.locator('select[name$=".type"]').selectOption(type)
    await row.locator('input[name$=".content"]').fill(content)
  }
  // One blank row to start with; a person adds the others.
  await expect(newRows).toHaveCount(1)
  await page.getByRole('button', { name: 'Add a row' }).click()
  await page.getByRole('button', { name: 'Add a row' }).click()
  await fill(0, 'www', 'A', '192.0.2.80')
  await fill(1, '@', 'MX', '10 mail')
  await fill(2, '@', 'TXT', '"v=spf1 -all"')
  // A row added by mistake is taken away again; the others keep what is typed.
  await page.getByRole('button', { name: 'Add a row' }).click()
  await fill(3, 'oops', 'A', '192.0.2.99')
  await newRows
    .nth(3)
    .getByRole('button', { name: /^Remove this row/ })
    .click()
  await expect(newRows).toHaveCount(3)
  // A TTL that is no number is refused beside its row before anything is sent.
  await newRows.nth(1).locator('input[name$=".ttl"]').fill('soon')
  await page.getByRole('button', { name: 'Preview changes' }).click()
  await expect(newRows.nth(1).getByTestId('field-error')).toHaveText('The TTL must be a number of seconds.')
  await expect(newRows.nth(0).getByTestId('field-error')).toHaveCount(0)
  await newRows.nth(1).locator('input[name$=".ttl"]').fill('')
  await expect(newRows.nth(1).getByTestId('field-error')).toHaveCount(0)
  await page.getByRole('button', { name: 'Preview changes' }).click()
  const preview = page.getByTestId('diff-preview')
  await expect(preview).toContainText(`+ www.${domain.name} 3600 A 192.0.2.80`)
  await expect(preview).toContainText(`+ ${domain.name} 3600 MX 10 mail.${domain.name}.`)
  await expect(preview).toContainText('3 to add, 0 to change, 0 to remove')
  await expect(page.getByTestId('list-total')).toHaveText(/^3 /) // SOA + 2 NS: not saved yet

  // A refused edit comes back as typed with the message on its field.
  await newRows.nth(0).locator('input[name$=".content"]').fill('192.0.2.300')
  await page.getByRole('button', { name: 'Apply changes' }).click()
  await expect(newRows.nth(0).getByTestId('field-error')).toContainText('IPv4')
  await expect(newRows.nth(0).locator('input[name$=".content"]')).toHaveValue('192.0.2.300')
  await expect(newRows.nth(2).locator('input[name$=".content"]')).toHaveValue('"v=spf1 -all"')
  await newRows.nth(0).locator('input[name$=".content"]').fill('192.0.2.80')
  await page.getByRole('button', { name: 'Apply changes' }).click()
  await expect(page.getByText(/3 changes saved/)).toBeVisible()
  await expect(savedRecord(page, 'www', '192.0.2.80')).toHaveCount(1)
  await expect(savedRecord(page, '@', `10 mail.${domain.name}.`)).toHaveCount(1)
  await expect(savedRecord(page, '@', '"v=spf1 -all"')).toHaveCount(1)
  await expect(page.getByTestId('list-total')).toHaveText(/^6 /)
  // The new rows start blank again after the change is saved.
  await expect(newRows).toHaveCount(1)
  await expect(newRows.first().locator('input[name$=".content"]')).toHaveValue('')
  await expect(page.getByTestId('publish-state')).toContainText('Pending')

  // BIND import: one bad line → its line and column, nothing written.
  await page.getByRole('link', { name: 'Import BIND file' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'BIND import' })).toBeVisible()
  const good = [`$ORIGIN ${domain.name}.`, '$TTL 600', 'www A 192.0.2.80', 'api A 192.0.2.81', '@ MX 10 mail', '@ TXT "v=spf1 -all"']
  await page.getByLabel('Zone file', { exact: true }).fill([...good, 'bad A 192.0.2'].join('\n'))
  await page.getByRole('button', { name: 'Import' }).click()
  await expect(page.getByTestId('import-error')).toHaveText("Line 7, column 7: '192.0.2' is not an IPv4 address")
  await expect(page.getByTestId('import-message')).toContainText('Nothing was imported')
  await expect(page.getByLabel('Zone file', { exact: true })).toHaveValue(/bad A 192\.0\.2$/)
  await page.goto(`/domains/${domain.id}/dns`)
  await expect(savedRecord(page, 'www', '192.0.2.80')).toHaveCount(1)
  await expect(page.getByTestId('record-editor').locator('input[name$=".name"][value="api"]')).toHaveCount(0)

  // Fixed, previewed and applied.
  await page.goto(`/domains/bind-import`)
  await page.getByLabel('Zone for pasted text').selectOption({ label: domain.name })
  await page.getByLabel('Zone file', { exact: true }).fill(good.join('\n'))
  await page.getByRole('button', { name: 'Preview' }).click()
  await expect(page.getByTestId('import-counts')).toHaveText('1 added, 3 changed, 0 removed, 2 unchanged.')
  await page.getByRole('button', { name: 'Import' }).click()
  await expect(page.getByText(/Imported 1 file/)).toBeVisible()
  await page.goto(`/domains/${domain.id}/dns`)
  await expect(savedRecord(page, 'api', '192.0.2.81')).toHaveCount(1)

  // Export downloads the zone as a BIND file with the records.
  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export BIND file' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe(`${domain.name}.zone`)
  const text = await (await request.get(`/domains/${domain.id}/dns/export`, { headers: { cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } })).text()
  expect(text).toContain(`$ORIGIN ${domain.name}.`)
  expect(text).toMatch(/api\t600\tIN\tA\t192\.0\.2\.81/)
  expect(text).toMatch(/\tMX\t10 mail/)

  // The DNS log of the zone shows the record changes with before and after.
  await page.goto(`/domains/${domain.id}/dns-log`)
  await expect(page.getByTestId('data-table')).toContainText('dns_record')
  await expect(page.getByTestId('data-table')).toContainText('192.0.2.80')
})

test('without JavaScript the editor is the same form: Add a row posts and comes back with the rows as typed and one more, a refusal beside its row', async ({ browser }) => {
  const domain = await domainWithoutZone()
  const context = await browser.newContext({ storageState: signedIn(ACME_ADMIN), javaScriptEnabled: false })
  const page = await context.newPage()
  try {
    await page.goto(`/domains/${domain.id}/dns`)
    await page.getByRole('button', { name: 'Create zone' }).click()
    await expect(page.getByTestId('zone-name')).toHaveText(`Zone ${domain.name}`)
    const newRows = page
      .getByTestId('record-editor')
      .getByTestId('editor-row')
      .filter({ hasNot: page.locator('input[type=checkbox]') })
    await expect(newRows).toHaveCount(1)
    await newRows.nth(0).locator('input[name$=".name"]').fill('www')
    await newRows.nth(0).locator('input[name$=".content"]').fill('192.0.2.7')
    await page.getByRole('button', { name: 'Add a row' }).click()
    await expect(newRows).toHaveCount(2)
    await expect(newRows.nth(0).locator('input[name$=".content"]')).toHaveValue('192.0.2.7')
    await expect(newRows.nth(1).locator('input[name$=".content"]')).toHaveValue('')
    // The platform refuses the second row's address: the message beside that row, both rows as typed.
    await newRows.nth(1).locator('input[name$=".name"]').fill('api')
    await newRows.nth(1).locator('input[name$=".content"]').fill('192.0.2.300')
    await page.getByRole('button', { name: 'Apply changes' }).click()
    await expect(newRows.nth(1).getByTestId('field-error')).toContainText('IPv4')
    await expect(newRows.nth(0).getByTestId('field-error')).toHaveCount(0)
    await expect(page.getByTestId('editor-error')).toBeVisible()
    await expect(newRows.nth(0).locator('input[name$=".content"]')).toHaveValue('192.0.2.7')
    await expect(newRows.nth(1).locator('input[name$=".name"]')).toHaveValue('api')
    await newRows.nth(1).locator('input[name$=".content"]').fill('192.0.2.8')
    await page.getByRole('button', { name: 'Apply changes' }).click()
    await expect(page.getByText(/2 changes saved/)).toBeVisible()
    await expect(savedRecord(page, 'api', '192.0.2.8')).toHaveCount(1)
  } finally {
    await context.close()
  }
})

test('the editor lists records apex first, refuses an address as a CNAME target beside the field in words, and edits a saved record in place (issue 28)', async ({ page }) => {
  const domain = await domainWithoutZone()
  await page.goto(`/domains/${domain.id}/dns`)
  await hydrated(page)
  await page.getByRole('button', { name: 'Create zone' }).click()
  await expect(page.getByTestId('zone-name')).toHaveText(`Zone ${domain.name}`)
  const editor = page.getByTestId('record-editor')
  const newRows = editor.getByTestId('editor-row').filter({ hasNot: page.locator('input[type=checkbox]') })
  const fill = async (i: number, name: string, type: string, content: string) => {
    const row = newRows.nth(i)
    await row.locator('input[name$=".name"]').fill(name)
    await row.locator('select[name$=".type"]').selectOption(type)
    await row.locator('input[name$=".content"]').fill(content)
  }
  await page.getByRole('button', { name: 'Add a row' }).click()
  await page.getByRole('button', { name: 'Add a row' }).click()
  await fill(0, 'www', 'A', '192.0.2.80')
  await fill(1, 'alias', 'CNAME', '192.0.2.159')
  await fill(2, '@', 'MX', '10 mail')

  // The address is refused beside the CNAME's content, in words that name the field: never saved as 192.0.2.159.<zone>.
  await page.getByRole('button', { name: 'Preview changes' }).click()
  await expect(newRows.nth(1).getByTestId('field-error')).toHaveText(
    'Content: 192.0.2.159 is an IP address, but a CNAME record points to a host name: put an address in an A or AAAA record. Example: www.example.com.',
  )
  await expect(editor.getByTestId('field-error')).toHaveCount(1)
  await expect(page.getByTestId('editor-error')).toHaveText('Some rows need a correction.')
  await expect(editor).not.toContainText(/column/i)
  await expect(newRows.nth(1).locator('input[name$=".content"]')).toHaveValue('192.0.2.159')
  await newRows.nth(1).locator('input[name$=".content"]').fill('www')
  await page.getByRole('button', { name: 'Apply changes' }).click()
  await expect(page.getByText(/3 changes saved/)).toBeVisible()

  // Saved: the apex first (after the managed SOA), then the names, each name's types in order.
  const saved = editor.locator('[data-testid="editor-row"][data-saved]')
  await expect(saved).toHaveCount(5)
  const rows: string[] = []
  for (let i = 0; i < 5; i++) rows.push(`${await saved.nth(i).locator('input[name$=".name"]').inputValue()} ${await saved.nth(i).locator('select[name$=".type"]').inputValue()}`)
  expect(rows).toEqual(['@ MX', '@ NS', '@ NS', 'alias CNAME', 'www A'])
  await expect(editor.getByTestId('soa-row')).toHaveCount(1)

  // A saved record's field is a visible box (not bare text), and is edited where it stands.
  const www = savedRecord(page, 'www', '192.0.2.80')
  const content = www.locator('input[name$=".content"]')
  expect(await content.evaluate((el) => getComputedStyle(el).borderTopColor)).not.toBe('rgba(0, 0, 0, 0)')
  await content.click()
  await content.fill('192.0.2.81')
  await page.getByRole('button', { name: 'Preview changes' }).click()
  await expect(page.getByTestId('diff-preview')).toContainText(`- www.${domain.name} 3600 A 192.0.2.80`)
  await expect(page.getByTestId('diff-preview')).toContainText(`+ www.${domain.name} 3600 A 192.0.2.81`)
  await page.getByRole('button', { name: 'Apply changes' }).click()
  await expect(page.getByText(/1 change saved/)).toBeVisible()
  await expect(savedRecord(page, 'www', '192.0.2.81')).toHaveCount(1)
})

test('record search across zones puts records into the tray; statistics is an honest empty state', async ({ page }) => {
  const domain = await domainWithoutZone()
  await page.goto(`/domains/${domain.id}/dns`)
  await hydrated(page)
  await page.getByRole('button', { name: 'Create zone' }).click()
  const row = page
    .getByTestId('record-editor')
    .getByTestId('editor-row')
    .filter({ hasNot: page.locator('input[type=checkbox]') })
    .first()
  await row.locator('input[name$=".name"]').fill('app')
  // An address no other record has.
  const address = `198.51.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`
  await row.locator('input[name$=".content"]').fill(address)
  await page.getByRole('button', { name: 'Apply changes' }).click()
  await expect(page.getByText(/1 change saved/)).toBeVisible()

  await page.goto(`/domains/search/records?pql=${encodeURIComponent(`content equals '${address}'`)}`)
  await expect(page.getByTestId('data-row')).toHaveCount(1)
  await expect(page.getByTestId('data-row')).toContainText(domain.name)
  await page.getByTestId('data-row').getByRole('checkbox').check()
  await page.getByRole('button', { name: 'Add selected to the bulk tray' }).click()
  await expect(page.getByText('1 item added to the bulk tray')).toBeVisible()
  // The zone's name leads to the zone: a domain's zone to its DNS tab.
  await page.getByTestId('data-row').getByRole('link', { name: domain.name, exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/domains/${domain.id}/dns`))
  await expect(page.getByTestId('zone-name')).toHaveText(`Zone ${domain.name}`)
  await page.goto('/tray/records')
  const trayRow = page.getByTestId('data-row').filter({ hasText: `app.${domain.name}` })
  await expect(trayRow).toHaveCount(1)
  await expect(trayRow.getByTestId('tray-record')).toHaveText(address)

  await page.goto(`/domains/${domain.id}/dns-statistics`)
  await expect(page.getByTestId('dns-statistics-empty')).toBeVisible()
  await page.goto(`/domains/${domain.id}/dnssec`)
  await expect(page.getByTestId('dnssec-state')).toHaveText('Not signed')
})

test('deleting a zone asks for its name, then the DNS tab offers to create one again', async ({ page }) => {
  const domain = await domainWithoutZone()
  await page.goto(`/domains/${domain.id}/dns`)
  await hydrated(page)
  await page.getByRole('button', { name: 'Create zone' }).click()
  await expect(page.getByTestId('zone-name')).toHaveText(`Zone ${domain.name}`)

  const section = page.getByTestId('delete-zone')
  await section.getByRole('textbox').fill('not-the-zone.example')
  await section.getByRole('button', { name: 'Delete zone' }).click()
  await expect(page.getByText(`Type the zone's name, ${domain.name}, to delete it.`)).toBeVisible()
  await expect(page.getByTestId('zone-name')).toBeVisible()

  await page.getByTestId('delete-zone').getByRole('textbox').fill(domain.name)
  await page.getByTestId('delete-zone').getByRole('button', { name: 'Delete zone' }).click()
  await expect(page.getByText(`Zone ${domain.name} deleted.`)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Create zone' })).toBeVisible()
})

test('a zone for a name registered elsewhere: created on the BIND import page, then filled from a file', async ({ page }) => {
  await page.goto('/domains/bind-import')
  await hydrated(page)
  const create = page.getByTestId('create-zone')
  await create.getByLabel('Zone name').fill('not a name')
  await create.getByRole('button', { name: 'Create zone' }).click()
  await expect(page.getByTestId('create-zone').getByTestId('field-error')).not.toBeEmpty()
  await expect(page.getByTestId('create-zone').getByLabel('Zone name')).toHaveValue('not a name')

  const name = `elsewhere-${Date.now()}.example`
  await page.getByTestId('create-zone').getByLabel('Zone name').fill(name)
  await page.getByTestId('create-zone').getByRole('button', { name: 'Create zone' }).click()
  // A name no account here holds waits for its proof of control (issue 26): said, marked in the list, and its page names the record to add.
  await expect(page.getByText(`Zone ${name} created: it waits for the proof that you control the name.`)).toBeVisible()
  await expect(page.locator('#import-zone option:checked')).toHaveText(name)
  const waiting = page.getByTestId('standalone-zones').getByRole('listitem').filter({ hasText: name })
  await expect(waiting.getByTestId('zone-waiting-proof')).toHaveText('(waiting for proof of control)')
  await waiting.getByRole('link', { name: 'Edit records' }).click()
  const proof = page.getByTestId('zone-proof')
  await expect(proof.getByTestId('zone-proof-name')).toHaveText(`_registrar-portal-challenge.${name}. TXT`)
  await expect(proof.getByTestId('zone-proof-value')).toHaveText(/^registrar-portal-verification=[\w-]+$/)
  await hydrated(page)
  await proof.getByRole('button', { name: 'Check now' }).click()
  await expect(page.getByText('The TXT record proving control of this name was not found yet', { exact: false })).toBeVisible()
  await expect(page.getByTestId('zone-proof')).toBeVisible()

  // A name inside another account's domain is refused beside the field, in the user's words.
  await page.goto('/domains/bind-import')
  await hydrated(page)
  await create.getByLabel('Zone name').fill('www.globex-archive.com')
  await create.getByRole('button', { name: 'Create zone' }).click()
  await expect(page.getByTestId('create-zone').getByTestId('field-error')).toHaveText('This name is at, inside or above a domain or DNS zone of another account: a zone for it can only be made there.')
  await page.locator('#import-zone').selectOption({ label: name })

  await page.locator('#import-text').fill(`$ORIGIN ${name}.\n$TTL 300\nwww IN A 192.0.2.44\n@ IN MX 10 mail\n`)
  await page.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(page.getByText('Imported 1 file(s): 2 record changes.')).toBeVisible()

  // Its own page, listed on the import page: the records, the editor, the export, the deletion.
  const listed = page.getByTestId('standalone-zones').getByRole('listitem').filter({ hasText: name })
  await listed.getByRole('link', { name: 'Edit records' }).click()
  await expect(page).toHaveURL(/\/domains\/zones\/[0-9a-f-]{36}/)
  const zonePage = page.url()
  await expect(page.getByRole('heading', { level: 1, name: `Zone ${name}` })).toBeVisible()
  await expect(page).toHaveTitle(new RegExp(`Zone ${name.replace(/\./g, '\\.')}`))
  await expect(savedRecord(page, 'www', '192.0.2.44')).toHaveCount(1)
  const row = page
    .getByTestId('record-editor')
    .getByTestId('editor-row')
    .filter({ hasNot: page.locator('input[type=checkbox]') })
    .first()
  await row.locator('input[name$=".name"]').fill('api')
  await row.locator('select[name$=".type"]').selectOption('AAAA')
  await row.locator('input[name$=".content"]').fill('2001:db8::44')
  await page.getByRole('button', { name: 'Apply changes' }).click()
  await expect(page.getByText(/1 changes? saved/)).toBeVisible()
  await expect(savedRecord(page, 'api', '2001:db8::44')).toHaveCount(1)

  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Export BIND file' }).click()
  const file = await (await download).path()
  const text = (await import('node:fs')).readFileSync(file!, 'utf8')
  expect(text).toContain('2001:db8::44')
  expect(text).toContain('192.0.2.44')

  await page.getByTestId('delete-zone').getByRole('textbox').fill(name)
  await page.getByTestId('delete-zone').getByRole('button').click()
  await expect(page).toHaveURL(/\/domains\/bind-import/)
  await expect(page.getByText(`Zone ${name} deleted.`)).toBeVisible()
  await expect(page.getByTestId('standalone-zones').getByText(name)).toHaveCount(0)
  // A zone that is gone (or another account's) is not found.
  const gone = await page.goto(zonePage)
  expect(gone?.status()).toBe(404)
})
