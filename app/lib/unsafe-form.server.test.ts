import { isRouteErrorResponse } from 'react-router'
import { describe, expect, it } from 'vitest'
import { unsafeFormFields, unsafeFormMiddleware, unsafeQueryFields } from './unsafe-form.server.ts'
import { isUnsafeTextRefusal } from './unsafe-text.ts'

const post = (body: BodyInit, type?: string) => new Request('http://portal.test/contacts', { method: 'POST', body, ...(type ? { headers: { 'content-type': type } } : {}) })

describe('unsafe text in a form post', () => {
  it('names the urlencoded fields holding NUL, in the name too; other text passes', async () => {
    expect(await unsafeFormFields(post(new URLSearchParams({ name: 'a\0b', city: 'Valencia', note: 'a\uFFFDb 日本' })))).toEqual(['name'])
    expect(await unsafeFormFields(post('na%00me=x&ok=1', 'application/x-www-form-urlencoded'))).toEqual(['na\uFFFDme'])
    expect(await unsafeFormFields(post(new URLSearchParams({ name: 'Olivia Carter' })))).toEqual([])
  })

  it('reads multipart forms: text values and file names, not file contents', async () => {
    const form = new FormData()
    form.set('zone', 'example.com')
    form.set('text', 'www IN A 192.0.2.1\0')
    form.set('file', new File(['a\0b'], 'zone.txt'))
    expect(await unsafeFormFields(post(form))).toEqual(['text'])
    const named = new FormData()
    named.set('file', new File(['x'], 'z\0.txt'))
    expect(await unsafeFormFields(post(named))).toEqual(['file'])
  })

  it('finds lone surrogates and NUL in JSON submissions, by path', async () => {
    expect(await unsafeFormFields(post('{"items":[{"name":"a\\ud800b"}],"ok":"x","n":"\\u0000"}', 'application/json'))).toEqual(['items.0.name', 'n'])
  })

  it('leaves GET, other types and unreadable bodies to the route', async () => {
    expect(await unsafeFormFields(new Request('http://portal.test/contacts?name=a%00b'))).toEqual([])
    expect(await unsafeFormFields(post('a\0b', 'text/plain'))).toEqual([])
    expect(await unsafeFormFields(post('{', 'application/json'))).toEqual([])
    expect(await unsafeFormFields(post('--x\r\nbroken', 'multipart/form-data; boundary=y'))).toEqual([])
  })

  it('names the query parameters holding NUL, of a page or of its data request', () => {
    expect(unsafeQueryFields(new Request('http://portal.test/domains/search?q=a%00b&page=2'))).toEqual(['q'])
    expect(unsafeQueryFields(new Request('http://portal.test/domains/search.data?q%00=x&_routes=routes%2Fdomains%2Fsearch'))).toEqual(['q\uFFFD'])
    // The bytes nearest a lone surrogate arrive as U+FFFD, an ordinary character.
    expect(unsafeQueryFields(new Request('http://portal.test/domains/search?q=a%ED%A0%80b'))).toEqual([])
    expect(unsafeQueryFields(new Request('http://portal.test/domains?pql=name%20contains%20%27acme%27'))).toEqual([])
  })

  it('the middleware answers 400 before the action, and the action can still read the body otherwise', async () => {
    const refused = await Promise.resolve()
      .then(() => unsafeFormMiddleware({ request: post(new URLSearchParams({ name: 'a\0b' })) } as never, async () => new Response('action ran')))
      .catch((error: unknown) => error)
    expect(refused).toMatchObject({ init: { status: 400 }, data: { code: 'unsafe_text', fields: ['name'] } })
    expect(isUnsafeTextRefusal((refused as { data: unknown }).data)).toBe(true)
    expect(isRouteErrorResponse(refused)).toBe(false)
    const query = await Promise.resolve()
      .then(() => unsafeFormMiddleware({ request: new Request('http://portal.test/domains/delete?names=a%00b') } as never, async () => new Response('loader ran')))
      .catch((error: unknown) => error)
    expect(query).toMatchObject({ init: { status: 400 }, data: { code: 'unsafe_text', fields: ['names'] } })
    const request = post(new URLSearchParams({ name: 'Olivia' }))
    const passed = await unsafeFormMiddleware({ request } as never, async () => new Response(String((await request.formData()).get('name'))))
    expect(await (passed as Response).text()).toBe('Olivia')
  })
})
