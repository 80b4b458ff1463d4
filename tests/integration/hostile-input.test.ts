import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_PASSWORD } from '#server/seed/demo.ts'
import { createTestPlatform } from '#tests/support/platform.ts'

// What an attacker sends: NUL, a lone surrogate and very long text, into every parameter and body
// field of every operation of the OpenAPI document. Nothing may answer 500; NUL and lone
// surrogates are refused with 400 naming the field.

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; $ref?: string; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] }
type Operation = { parameters?: { name: string; in: string }[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }

let platform: Awaited<ReturnType<typeof createTestPlatform>>
let acme: string
let document: { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } }

const NUL = 'a\u0000b'
const SURROGATE = 'x\uD800y'
const LONG = 'x'.repeat(200_000)
const SOME_ID = '00000000-0000-4000-8000-000000000001'

beforeAll(async () => {
  platform = await createTestPlatform({}, { seed: { domainsPerAccount: [3, 1] } })
  acme = (await platform.db.selectFrom('accounts').select('id').where('name', '=', 'Acme Corp').executeTakeFirstOrThrow()).id
  document = (await platform.call('GET', '/openapi.json')).json
})
afterAll(() => platform?.close())

const login = async (username: string) => (await platform.call('POST', '/login', { body: { username, password: DEMO_PASSWORD }, client: { ip: '192.0.2.77' } })).json.access_token as string

function resolve(schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema
  return resolve(document.components?.schemas?.[schema.$ref.split('/').at(-1)!])
}

/** Every property of a JSON body schema (one level, the alternatives of a union merged). */
function bodyFields(schema: Schema | undefined): string[] {
  const s = resolve(schema)
  if (!s) return []
  const parts = [s, ...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])].map(resolve)
  return [...new Set(parts.flatMap((part) => Object.keys(part?.properties ?? {})))]
}

function operations() {
  return Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })))
}

/** The operation's path with its parameters filled: the context, an id, or `encoded` as sent (already percent-encoded). */
function concretePath(path: string, encoded?: string) {
  return path.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, (_, name: string) => (name === 'context' ? acme : (encoded ?? SOME_ID)))
}

describe('hostile input into every operation', () => {
  it('the document lists the operations to probe', () => {
    expect(operations().length).toBeGreaterThan(60)
  })

  // A lone surrogate cannot travel in a URL (its UTF-8 bytes do not decode): the path gets those
  // bytes, and no query can hold one (URLSearchParams reads them as U+FFFD).
  it.each([
    ['NUL', NUL, '%00', true],
    ['a lone surrogate', SURROGATE, '%ED%A0%80', false],
  ])(
    'refuses %s in any query parameter, path parameter or body field with 400 naming the field',
    async (_, bad, inPath, inQuery) => {
      const failures: string[] = []
      for (const { path, method, operation } of operations()) {
        const token = await login('admin@acme.example')
        const query = (operation.parameters ?? []).filter((p) => p.in === 'query')
        for (const parameter of inQuery ? query : []) {
          const res = await platform.call(method, `${concretePath(path)}?${new URLSearchParams({ [parameter.name]: bad })}`, {
            token,
            ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
          })
          if (res.status !== 400 || !res.json?.errors?.some((e: { field: string }) => e.field === parameter.name))
            failures.push(`${method} ${path} ?${parameter.name}: ${res.status} ${res.text.slice(0, 200)}`)
        }
        if ((operation.parameters ?? []).some((p) => p.in === 'path' && p.name !== 'context')) {
          const res = await platform.call(method, concretePath(path, `a${inPath}b`), { token, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) })
          if (res.status !== 400) failures.push(`${method} ${path} (path): ${res.status} ${res.text.slice(0, 200)}`)
        }
        const schema = operation.requestBody?.content?.['application/json']?.schema
        for (const field of bodyFields(schema)) {
          for (const value of [bad, [bad], { nested: bad }]) {
            const res = await platform.call(method, concretePath(path), { token, body: { [field]: value } })
            if (res.status !== 400 || !res.json?.errors?.some((e: { field: string }) => e.field.startsWith(field)))
              failures.push(`${method} ${path} body.${field}=${JSON.stringify(value).slice(0, 30)}: ${res.status} ${res.text.slice(0, 200)}`)
          }
        }
      }
      expect(failures).toEqual([])
    },
    120_000,
  )

  it('answers very long text anywhere without a 500', async () => {
    const failures: string[] = []
    for (const { path, method, operation } of operations()) {
      const token = await login('staff@example.com')
      for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
        const res = await platform.call(method, `${concretePath(path)}?${new URLSearchParams({ [parameter.name]: LONG.slice(0, 20_000) })}`, {
          token,
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
        })
        if (res.status >= 500) failures.push(`${method} ${path} ?${parameter.name}: ${res.status} ${res.text.slice(0, 200)}`)
      }
      for (const field of bodyFields(operation.requestBody?.content?.['application/json']?.schema)) {
        const res = await platform.call(method, concretePath(path), { token, body: { [field]: LONG.slice(0, 60_000) } })
        if (res.status >= 500) failures.push(`${method} ${path} body.${field}: ${res.status} ${res.text.slice(0, 200)}`)
      }
    }
    expect(failures).toEqual([])
  }, 120_000)

  it('refuses NUL in the sign-in and reset calls without a sign-in', async () => {
    for (const [path, body] of [
      ['/login', { username: `admin${NUL}@acme.example`, password: DEMO_PASSWORD }],
      ['/login', { username: 'admin@acme.example', password: `x${SURROGATE}` }],
      ['/password_resets', { email: `a${NUL}@acme.example` }],
    ] as const) {
      const res = await platform.call('POST', path, { body })
      expect(res.status, `${path} ${res.text}`).toBe(400)
      expect(res.headers.get('content-type')).toContain('application/problem+json')
      expect(res.json.errors[0].field).toMatch(/username|password|email/)
    }
  })

  it('marks every answer nosniff, and an answer behind a token private and not stored', async () => {
    const token = await login('admin@acme.example')
    const listed = await platform.call('GET', `/groups/${acme}/domains`, { token })
    expect(listed.status).toBe(200)
    expect(listed.headers.get('x-content-type-options')).toBe('nosniff')
    expect(listed.headers.get('cache-control')).toBe('private, no-store')
    const refused = await platform.call('GET', `/groups/${acme}/domains`)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff')
    expect(refused.headers.get('cache-control')).toBe('no-cache')
  })
})
