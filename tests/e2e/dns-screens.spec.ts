import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { tmpdir } from 'node:os'
import type { Page } from '@playwright/test'
import { expect, test, ACME_ADMIN, ACME_VIEWER, hydrated, platform, signedIn, unique } from './support.ts'

// Issue 16 §2, §5, §6, §13 and §14 on the DNS screens, as a person uses them.
const SHOTS = process.env.SCREENSHOT_DIR ?? path.join(tmpdir(), 'dns-screens')
mkdirSync(SHOTS, { recursive: true })

/** A standalone zone of the test's own with an A, an MX and an HTTPS record (setup, through the API). */
async function zoneWithRecords(): Promise<{ id: string; name: string }> {
  const api = await platform(ACME_ADMIN)
  const zone = await api.post<{ id: string; name: string }>(`/groups/${api.group}/zones`, { name: `e2e-dns-${unique()}.example` })
  await api.post(`/groups/${api.group}/zones/${zone.id}/changes`, {
    changes: [
      { action: 'add', name: 'www', type: 'A', content: '192.0.2.10' },
      { action: 'add', name: '@', type: 'MX', content: '10 mail' },
      { action: 'add', name: '@', type: 'HTTPS', content: '1 . alpn=h2,h3' },
    ],
  })
  await api.dispose()
  return zone
}

/**
 * For every Type select of the editor: the width its selected option's text needs in the select's
 * own font, and the width there is for it inside the select (padding and the arrow aside).
 */
async function typeSelects(page: Page) {
  return page.locator('select[name$=".type"]').evaluateAll((selects) =>
    selects.map((el) => {
      const select = el as HTMLSelectElement
      const style = getComputedStyle(select)
      const canvas = document.createElement('canvas').getContext('2d')!
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
      const text = select.selectedOptions[0]?.text ?? ''
      // Chromium draws the native arrow inside the content box: about 16 px of it is not room for text.
      const arrow = 16
      return {
        text,
        needs: Math.ceil(canvas.measureText(text).width),
        room: select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow,
        width: select.getBoundingClientRect().width,
      }
    }),
  )
}

test.describe('the record editor', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`shows each row's type in full at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport)
      const zone = await zoneWithRecords()
      await page.goto(`/domains/zones/${zone.id}`)
      await hydrated(page)
      const editor = page.getByTestId('record-editor')
      await expect(editor.locator('select[name$=".type"]').first()).toBeVisible()
      const selects = await typeSelects(page)
      expect(selects.map((s) => s.text)).toEqual(expect.arrayContaining(['A', 'MX', 'HTTPS', 'NS']))
      for (const s of selects) {
        expect(s.room, `the select of a ${s.text} row has room for its text`).toBeGreaterThanOrEqual(s.needs)
        expect(s.width).toBeGreaterThanOrEqual(88)
      }
      // The longest type there is fits too: choose it on a new row.
      await editor.locator('select[name$=".type"]').last().selectOption('NAPTR')
      const last = (await typeSelects(page)).at(-1)!
      expect(last.text).toBe('NAPTR')
      expect(last.room).toBeGreaterThanOrEqual(last.needs)
      // Every field of a row is on the screen, none pushed past its right edge, none over another.
      const boxes: Record<string, { x: number; width: number }> = {}
      for (const field of ['name', 'type', 'ttl', 'content', 'remove']) {
        const box = (await editor.locator(`[name$=".${field}"]`).first().boundingBox())!
        expect(box.x + box.width, `the ${field} of the first row is in view`).toBeLessThanOrEqual(viewport.width)
        boxes[field] = box
      }
      expect(boxes.name!.x + boxes.name!.width, 'the name ends before the type').toBeLessThanOrEqual(boxes.type!.x)
      expect(boxes.type!.x + boxes.type!.width, 'the type ends before the TTL').toBeLessThanOrEqual(boxes.ttl!.x)
      const removeLabel = (await editor
        .locator('label')
        .filter({ has: page.locator('input[name$=".remove"]') })
        .first()
        .boundingBox())!
      expect(removeLabel.x + removeLabel.width, 'the remove box and its word are in view').toBeLessThanOrEqual(viewport.width)
      await page.screenshot({ path: path.join(SHOTS, `editor-${viewport.width}.png`), fullPage: true })
      await editor.screenshot({ path: path.join(SHOTS, `editor-form-${viewport.width}.png`) })
    })
  }

  test('a TTL changed on one record of a set changes the whole set, shown in the preview', async ({ page }) => {
    const zone = await zoneWithRecords()
    const api = await platform(ACME_ADMIN)
    await api.post(`/groups/${api.group}/zones/${zone.id}/changes`, { changes: [{ action: 'add', name: 'www', type: 'A', content: '192.0.2.11' }] })
    await api.dispose()
    await page.goto(`/domains/zones/${zone.id}`)
    await hydrated(page)
    const row = page.getByTestId('editor-row').filter({ has: page.locator('input[value="192.0.2.10"]') })
    await row.locator('input[name$=".ttl"]').fill('600')
    await page.getByRole('button', { name: 'Preview changes' }).click()
    const preview = page.getByTestId('diff-preview')
    await expect(preview).toContainText(`+ www.${zone.name} 600 A 192.0.2.10`)
    await expect(preview).toContainText(`+ www.${zone.name} 600 A 192.0.2.11`)
    await expect(preview).toContainText('0 to add, 2 to change, 0 to remove')
  })
})

test.describe('BIND import', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  test('a file for a zone the account lacks: no such zone, nothing imported, created with one click, then previewed with its adjusted lines and refused types', async ({ page }) => {
    const name = `e2e-missing-${unique()}.example`
    const file = path.join(SHOTS, `${name}.zone`)
    writeFileSync(
      file,
      [
        `$ORIGIN ${name}.`,
        '$TTL 300',
        `@ IN SOA ns1.${name}. hostmaster.${name}. 1 7200 3600 1209600 300`,
        '@ NS ns1.registrar.example.',
        'host 60 A 192.0.2.1',
        'host A 192.0.2.2',
        '@ HTTPS 1 . alpn=h2',
      ].join('\n'),
    )
    // Another zone is selected: the file must not go there.
    await zoneWithRecords()
    await page.goto('/domains/bind-import')
    await hydrated(page)
    await page.getByLabel('Or upload zone files').setInputFiles(file)
    await page.getByRole('button', { name: 'Preview', exact: true }).click()
    const outcome = page.getByTestId('import-outcome')
    await expect(outcome).toContainText(`This file is for the zone ${name}, which this account does not have. Nothing was imported`)
    await expect(outcome.getByTestId('import-error')).toHaveCount(0)
    await page.screenshot({ path: path.join(SHOTS, 'import-missing-zone.png'), fullPage: true })

    await outcome.getByRole('button', { name: `Create zone ${name}` }).click()
    await expect(page.getByText(`Zone ${name} created`)).toBeVisible()
    await expect(page.locator('#import-zone option:checked')).toHaveText(name)

    await hydrated(page)
    writeFileSync(
      file,
      [
        `$ORIGIN ${name}.`,
        '$TTL 300',
        '@ NS ns1.registrar.example.',
        'host 60 A 192.0.2.1',
        'host A 192.0.2.2',
        '@ HTTPS 1 . alpn=h2',
        'here LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m',
      ].join('\n'),
    )
    await page.getByLabel('Or upload zone files').setInputFiles(file)
    await page.getByRole('button', { name: 'Preview', exact: true }).click()
    await expect(page.getByTestId('import-error')).toHaveText([/^Line 7, column 6: Record type LOC is not supported here\./])
    await expect(page.getByTestId('import-warning')).toHaveText([`Line 5: TTL 300 becomes 60 for host.${name} A: the records of one name and type share one TTL, and this set got 60 on line 4.`])
    await page.screenshot({ path: path.join(SHOTS, 'import-preview.png'), fullPage: true })
  })
})

test.describe('BIND import as a viewer', () => {
  test.use({ storageState: signedIn(ACME_VIEWER) })

  test('offers no import (no Preview that ends in a refusal) and says why', async ({ page }) => {
    await page.goto('/domains/bind-import')
    await expect(page.getByTestId('import-needs-admin')).toContainText('Importing zone files needs the dns-admin role')
    await expect(page.getByRole('button', { name: 'Preview', exact: true })).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0)
    await expect(page.getByTestId('bind-import-form')).toHaveCount(0)
    await page.screenshot({ path: path.join(SHOTS, 'import-viewer.png'), fullPage: true })
  })

  test('a zone page offers a viewer the records and the export, no editor and no import', async ({ page }) => {
    const zone = await zoneWithRecords()
    await page.goto(`/domains/zones/${zone.id}`)
    await expect(page.getByTestId('data-table')).toContainText(`www.${zone.name}`)
    await expect(page.getByRole('link', { name: 'Export BIND file' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Import BIND file' })).toHaveCount(0)
    await expect(page.getByTestId('record-editor')).toHaveCount(0)
    await expect(page.getByTestId('delete-zone')).toHaveCount(0)
  })
})

test.describe('screens to look at', () => {
  test.use({ storageState: signedIn(ACME_ADMIN) })

  for (const look of [
    { name: 'dark', colorScheme: 'dark' as const, lng: 'en', width: 1440 },
    { name: 'ja-390', colorScheme: 'light' as const, lng: 'ja', width: 390 },
    { name: 'ja-dark', colorScheme: 'dark' as const, lng: 'ja', width: 1440 },
  ]) {
    test(`the zone page and the import page, ${look.name}`, async ({ browser, baseURL }) => {
      const zone = await zoneWithRecords()
      const context = await browser.newContext({ storageState: signedIn(ACME_ADMIN), colorScheme: look.colorScheme, viewport: { width: look.width, height: 900 } })
      await context.addCookies([
        { name: 'lng', value: look.lng, url: baseURL! },
        { name: 'theme', value: look.colorScheme, url: baseURL! },
      ])
      const page = await context.newPage()
      await page.goto(`/domains/zones/${zone.id}`)
      await expect(page.getByTestId('record-editor')).toBeVisible()
      for (const s of await typeSelects(page)) expect(s.room, `${s.text} fits`).toBeGreaterThanOrEqual(s.needs)
      await page.screenshot({ path: path.join(SHOTS, `zone-${look.name}.png`), fullPage: true })
      await page.goto('/domains/bind-import')
      await hydrated(page)
      await page.locator('#import-text').fill('$TTL 300\n@ NS ns1.registrar.example.\nhost 60 A 192.0.2.1\nhost A 192.0.2.2\nold SPF "v=spf1 -all"')
      await page.locator('#import-zone').selectOption({ label: zone.name })
      await page.locator('button[value="preview"]').click()
      await expect(page.getByTestId('import-error')).toHaveCount(1)
      await expect(page.getByTestId('import-warning')).toHaveCount(1)
      await page.screenshot({ path: path.join(SHOTS, `import-${look.name}.png`), fullPage: true })
      await context.close()
    })
  }
})
