import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { answerChecker } from '#tests/support/openapi-answers.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// Issue 26, item 14: the OpenAPI document says what the API answers (operation ids, one path per
// resource, every status the edge answers), the integration tests check every answer against it,
// a body is refused where an operation takes none, and a method a path lacks is a 405.

const run = promisify(execFile)
type Operation = { operationId?: string; requestBody?: unknown; security?: unknown[]; responses: Record<string, unknown> }
type Document = { paths: Record<string, Record<string, Operation>>; webhooks: Record<string, Record<string, Operation>>; tags?: { name: string }[] }

let platform: Awaited<ReturnType<typeof createTestPlatform>>
let server: ReturnType<typeof serve>
let base: string
let doc: Document

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [2, 2] } })
  server = serve({ fetch: platform.api.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  doc = (await platform.call('GET', '/openapi.json')).json as Document
})
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await platform?.close()
})

const login = async (username: string) => (await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD } })).json.access_token as string
const operations = () => Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op })))

describe('the OpenAPI document', () => {
  it('names every operation and webhook with a unique operationId, and lists every tag it uses', () => {
    const all = [...operations().map((o) => o.op), ...Object.values(doc.webhooks).flatMap((item) => Object.values(item))]
    const ids = all.map((op) => op.operationId)
    expect(ids.filter((id) => !id)).toEqual([])
    expect(new Set(ids).size).toBe(ids.length)
    expect(doc.paths['/v1/groups/{context}/domains/{id}']!.get!.operationId).toBe('getGroupsByContextDomainsById')
    const used = new Set(all.flatMap((op) => (op as { tags?: string[] }).tags ?? []))
    expect(new Set(doc.tags?.map((t) => t.name))).toEqual(used)
  })

  it('has no two paths that differ only by a parameter name (the pricing rules are one path)', () => {
    const shapes = Object.keys(doc.paths).map((path) => path.replace(/\{[^}]+\}/g, '{}'))
    expect(shapes.filter((shape, i) => shapes.indexOf(shape) !== i)).toEqual([])
    expect(Object.keys(doc.paths['/v1/pricing-rules/{set_or_id}']!).sort()).toEqual(['delete', 'patch', 'post'])
  })

  it('declares security on every webhook, and what the edge answers on every operation: 413 and 415 with a body, 409 on a change', () => {
    expect(Object.entries(doc.webhooks).filter(([, item]) => Object.values(item).some((op) => !op.security))).toEqual([])
    const missing = operations().flatMap(({ method, path, op }) => [
      ...(op.requestBody ? ['413', '415'] : []).filter((s) => !op.responses[s]).map((s) => `${method} ${path} ${s}`),
      ...(['post', 'put', 'patch', 'delete'].includes(method) && !op.responses['409'] ? [`${method} ${path} 409`] : []),
    ])
    expect(missing).toEqual([])
  })
})

describe('answers checked against the document', () => {
  it('passes an answer as documented and names what disagrees: an undeclared status, a body off its schema', async () => {
    const check = answerChecker(doc as never)
    const headers = new Headers({ 'content-type': 'application/problem+json' })
    const forbidden = { type: 'x', title: 'Forbidden', status: 403, detail: 'This needs the staff permission', code: 'forbidden', permission: 'staff' }
    expect(check('PATCH', '/v1/pricing-rules/0b9c4a55-6f1e-4c38-9d2a-5f8e7c1d2b3a', { status: 403, headers, json: forbidden, text: JSON.stringify(forbidden) })).toEqual([])
    expect(check('GET', '/v1/me', { status: 418, headers, json: forbidden, text: '{}' })[0]).toMatch(/not 418/)
    expect(check('PATCH', '/v1/pricing-rules/x', { status: 403, headers, json: { ...forbidden, permission: 7 }, text: '{}' })[0]).toMatch(/permission must be string/)
    expect(check('GET', '/v1/nowhere', { status: 200, headers, json: {}, text: '{}' })[0]).toMatch(/no operation/)
    // The hook in the tests' API helper fails the call on such an answer: a real one that is declared passes.
    const viewer = await login('viewer@acme.example')
    const refused = await platform.call('GET', '/pricing-rules', { token: viewer })
    expect(refused.status).toBe(403)
    expect(refused.json.permission).toBe('staff')
  })
})

describe('the edge', () => {
  it('answers a method the path does not have with 405 naming the methods it has (Allow), not 404', async () => {
    const token = await login('admin@acme.example')
    const refused = await platform.call('DELETE', '/profile', { token })
    expect(refused.status).toBe(405)
    expect(refused.headers.get('allow')).toBe('PATCH')
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(refused.json).toMatchObject({ status: 405, code: 'method-not-allowed', allowed: ['PATCH'] })
    expect((await platform.call('PUT', '/groups/0b9c4a55-6f1e-4c38-9d2a-5f8e7c1d2b3a/domains/0b9c4a55-6f1e-4c38-9d2a-5f8e7c1d2b3a', { token })).headers.get('allow')).toBe('GET, HEAD, PATCH')
    expect((await platform.call('DELETE', '/no-such-thing', { token })).status).toBe(404)
  })

  it('refuses a body sent to an operation that takes none (400 body-not-allowed), and takes a POST with no body at all, over HTTP too', async () => {
    const token = await login('admin@acme.example')
    const refused = await platform.call('POST', '/logout', { token, body: { everywhere: true } })
    expect(refused.status).toBe(400)
    expect(refused.json).toMatchObject({ code: 'body-not-allowed', errors: [{ field: '(body)' }] })
    expect((await platform.call('GET', '/me', { token })).status).toBe(200)
    // curl -X POST: neither Content-Length nor Content-Type. It was refused as 415 (not JSON).
    const curl = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', '-H', `Authorization: Bearer ${token}`, `${base}/logout`])
    expect(curl.stdout).toBe('204')
    expect((await platform.call('GET', '/me', { token })).status).toBe(401)
    // A body that is not JSON is still refused where one is taken.
    const other = await login('admin@acme.example')
    const text = await fetch(`${base}/contacts`, { method: 'POST', headers: { authorization: `Bearer ${other}`, 'content-type': 'text/plain' }, body: 'name=x' })
    expect(text.status).toBe(415)
  })
})
