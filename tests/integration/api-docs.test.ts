import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'
import { quickStart, quickStartScript, QUICK_START_STEPS } from '#app/routes/api/quick-start.ts'
import { areaSlug, REFERENCE_PARTS, referenceView, schemaAnchor, slug, type OpenApiDocument } from '#app/routes/api/reference-model.ts'
import { isPermission } from '#common/permissions.ts'
import { referenceDocuments } from '#tests/support/portal-document.ts'

// The public API documentation against a demo server: the quick start's commands as /api shows
// them, run by bash and curl over HTTP; and the reference built from the live document.

let platform: Awaited<ReturnType<typeof createTestPlatform>>
let server: ReturnType<typeof serve>
let base: string

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [3, 3] } })
  server = serve({ fetch: platform.api.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await platform?.close()
})

/** Runs a script with bash (errexit, pipefail) and the given standard input. */
function bash(script: string, input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('bash', ['-euo', 'pipefail', '-c', script], { timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
    child.stdin?.end(input)
  })
}

describe('the quick start of /api', () => {
  it('runs as the page shows it: sign in, the context, a list, a filter, a change, a refusal, sign out', async () => {
    const steps = quickStart(base)
    const run = await bash(quickStartScript(base), `admin@acme.example\n${DEMO_PASSWORD}\n`)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
    // Each step's output, in order: the context, the list, the filter, the created contact, the refusal.
    const out = run.stdout
    expect(out.startsWith(`${acme}\n`)).toBe(true)
    const docs = [...out.slice(acme.length + 1).matchAll(/^[[{][\s\S]*?^[\]}]$/gm)].map((m) => JSON.parse(m[0]))
    expect(docs).toHaveLength(4)
    const [list, filtered, created, refusal] = docs
    expect(list.total).toBeGreaterThan(0)
    expect(list.names).toEqual([...list.names].sort((a: string, b: string) => a.localeCompare(b)))
    expect(filtered.length).toBeGreaterThan(0)
    expect(filtered.every((name: string) => name.endsWith('.com'))).toBe(true)
    expect(created).toMatchObject({ name: 'Ada Lovelace', version: 1 })
    expect(refusal).toMatchObject({ status: 400, code: 'invalid-request' })
    expect(refusal.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['name', 'email']))
    // The last step ended the sign-in: its token is revoked.
    expect(steps.logout).toContain('/logout')
    const live = await platform.db.selectFrom('auth_tokens').select('id').where('revoked_at', 'is', null).execute()
    expect(live).toEqual([])
    expect(QUICK_START_STEPS.map((step) => steps[step]).join('\n')).toBe(quickStartScript(base))
  }, 120_000)
})

describe('the API reference', () => {
  it('declares who may call every operation, and shows every operation of the live document grouped by area', async () => {
    const doc = (await platform.call('GET', '/openapi.json')).json as OpenApiDocument
    const undeclared = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => !op['x-permission'])
        .map(([method]) => `${method} ${path}`),
    )
    expect(undeclared).toEqual([])
    // Each declared access is `public`, `signed-in` or a name of the permission registry (decision 025).
    const declared = new Set(Object.values(doc.paths ?? {}).flatMap((item) => Object.values(item).map((op) => op['x-permission']!)))
    expect([...declared].filter((name) => name !== 'public' && name !== 'signed-in' && !isPermission(name))).toEqual([])
    expect([...declared]).toEqual(expect.arrayContaining(['public', 'signed-in', 'staff', 'domain-viewer', 'user-admin']))
    const view = referenceView(doc)
    expect(view.matched).toBe(view.total)
    const shown = view.areas.flatMap((area) => area.operations.map((op) => op.id))
    expect(new Set(shown).size).toBe(shown.length)
    const ssl = view.areas.find((area) => area.name === 'SSL certificates')!.operations.find((op) => op.method === 'post' && op.path === '/v1/groups/{context}/ssls')!
    expect(ssl.permission).toBe('ssl-manager')
    expect(ssl.body?.schema).toEqual({ $ref: '#/components/schemas/SslOrder' })
    expect(ssl.responses.filter((r) => r.isProblem).map((r) => r.status)).toEqual(expect.arrayContaining(['400', '401', '403', '404', '429']))
    expect(view.schemas.SslOrder).toBeDefined()
    expect(view.schemas.Problem).toBeDefined()
    // The webhook events of the document, whatever it holds, are rendered with the operations.
    expect(view.webhooks.map((hook) => hook.event).sort()).toEqual(Object.keys(doc.webhooks ?? {}).sort())
    // A search keeps the matching operations and the schemas they reach.
    const found = referenceView(doc, 'ssl revoke')
    expect(found.areas.flatMap((a) => a.operations.map((op) => `${op.method} ${op.path}`))).toEqual(['post /v1/groups/{context}/ssls/{id}/revoke'])
    expect(Object.keys(found.schemas)).toContain('SslRevoke')
    expect(Object.keys(found.schemas)).not.toContain('SslOrder')
  })

  it('is a first page of at most 300 KB whose links lead to every operation, each in full on exactly one area page', async () => {
    const doc = (await platform.call('GET', '/openapi.json')).json as OpenApiDocument
    const render = referenceDocuments(platform)
    const first = await render('/api/reference')
    expect(first.status).toBe(200)
    // The whole document as the server sends it; the built manifest's asset names add ~7 KB to the
    // placeholders of this render, so it is held 16 KB under (the browser test reads the built one).
    expect(Buffer.byteLength(first.html) + 16 * 1024).toBeLessThanOrEqual(300 * 1024)
    // Every operation of the document is a line of the first page, linked to its area's page…
    const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ id: slug(`${method} ${path}`), page: areaSlug(op.tags?.[0] ?? 'Other') })),
    )
    expect(operations.length).toBeGreaterThan(200)
    const linked = new Map([...first.html.matchAll(/href="\/api\/reference\/([a-z0-9-]+)#([a-z0-9-]+)"/g)].map((m) => [m[2]!, m[1]!]))
    expect(operations.filter((op) => linked.get(op.id) !== op.page)).toEqual([])
    // …and is rendered in full on exactly that one page of all the area pages the first page links.
    const areaPages = [...new Set(linked.values())].filter((page) => !Object.values<string>(REFERENCE_PARTS).includes(page))
    const shownOn = new Map<string, string[]>()
    const pages = new Map<string, string>()
    for (const page of areaPages) {
      const answer = await render(`/api/reference/${page}`)
      expect(answer.status, page).toBe(200)
      pages.set(page, answer.html)
      for (const op of operations) if (answer.html.includes(` id="${op.id}"`)) shownOn.set(op.id, [...(shownOn.get(op.id) ?? []), page])
    }
    expect(operations.filter((op) => shownOn.get(op.id)?.join() !== op.page)).toEqual([])
    // An operation's link from the first page resolves: its page holds the anchor, and the schema
    // its body names is a link to an anchor of that same page.
    const [page, anchor] = /href="\/api\/reference\/([a-z0-9-]+)#(post-v1-groups-context-ssls)"/.exec(first.html)!.slice(1)
    const entry = pages.get(page!)!.split(` id="${anchor}"`)[1]!
    expect(entry).toContain(`href="#${schemaAnchor('SslOrder')}"`)
    expect(pages.get(page!)).toContain(` id="${schemaAnchor('SslOrder')}"`)
    // Every link between the pages of the reference (and within one) lands on an anchor that is there:
    // the first page's, every area page's, and the webhook events', errors' and schemas' pages'.
    pages.set('', first.html)
    for (const part of Object.values(REFERENCE_PARTS)) pages.set(part, (await render(`/api/reference/${part}`)).html)
    const broken = [...pages].flatMap(([from, html]) =>
      [...html.matchAll(/href="(?:\/api\/reference(?:\/([a-z0-9-]+))?)?#([a-z0-9-]+)"/g)]
        .filter((m) => !pages.get(m[0].startsWith('href="#') ? from : (m[1] ?? ''))?.includes(` id="${m[2]}"`))
        .map((m) => `${from || '(first page)'}: ${m[0]}`),
    )
    expect(broken).toEqual([])
    expect((await render('/api/reference/no-such-area')).status).toBe(404)
  })
})
