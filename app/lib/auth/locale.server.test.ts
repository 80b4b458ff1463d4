import { describe, expect, it } from 'vitest'
import { RouterContextProvider } from 'react-router'
import { currentLocale } from './locale.server.ts'
import { getLocale, i18nextMiddleware } from '../i18n.server.ts'
import { languageDirection } from '../i18n.ts'

const request = (headers: Record<string, string>) => new Request('http://portal.test/login', { headers })

/** The language the shell renders a request in (the document's `lang`), through the real middleware. */
async function shellLocale(headers: Record<string, string>): Promise<string> {
  const context = new RouterContextProvider()
  await i18nextMiddleware({ request: request(headers), params: {}, context, unstable_pattern: '/' } as unknown as Parameters<typeof i18nextMiddleware>[0], async () => new Response())
  return getLocale(context)
}

describe('the interface language (issue 28: only the languages the screens have)', () => {
  it('a browser in Arabic or German gets English, left to right, on the sign-in screen and in the shell', async () => {
    for (const header of ['ar', 'ar-EG,ar;q=0.9', 'de-DE,de;q=0.9']) {
      expect(currentLocale(request({ 'accept-language': header }))).toBe('en')
      expect(await shellLocale({ 'accept-language': header })).toBe('en')
    }
    expect(languageDirection(await shellLocale({ 'accept-language': 'ar' }))).toBe('ltr')
  })

  it("the first language of the interface in the browser's list wins, and a cookie of another language is ignored", async () => {
    expect(currentLocale(request({ 'accept-language': 'de-DE,de;q=0.9,ja;q=0.5,en;q=0.1' }))).toBe('ja')
    expect(await shellLocale({ 'accept-language': 'de-DE,de;q=0.9,es;q=0.5' })).toBe('es')
    expect(currentLocale(request({ cookie: 'lng=ar', 'accept-language': 'es' }))).toBe('es')
    expect(await shellLocale({ cookie: 'lng=de', 'accept-language': 'fr' })).toBe('en')
    expect(await shellLocale({ cookie: 'lng=ja', 'accept-language': 'ar' })).toBe('ja')
  })
})
