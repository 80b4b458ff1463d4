import { createInstance, type i18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { createContext, RouterContextProvider, type MiddlewareFunction } from 'react-router'
import { createI18nextMiddleware } from 'remix-i18next'
import { DEFAULT_LANGUAGE, UI_LANGUAGES, type UiLanguage } from './i18n.ts'
import { serverI18nOptions } from './i18n-resources.server.ts'
import { readCookie } from './cookies.server.ts'
import { addTextFormats } from '#common/translator.ts'

/**
 * Language of a request: the `lng` cookie (set by sign-in and the language switch), else
 * Accept-Language, else en, among the interface's languages (`negotiateLanguage`), through
 * remix-i18next's middleware, run once per distinct pair of the two (see `locale`).
 */
const uiLanguage = (value: string | null | undefined): UiLanguage | null => {
  if (!value) return null
  const exact = UI_LANGUAGES.find((l) => l.toLowerCase() === value.toLowerCase())
  if (exact) return exact
  const base = value.split('-')[0]!.toLowerCase()
  return UI_LANGUAGES.find((l) => l === base) ?? null
}

/**
 * The language a request is shown in, the one rule of the sign-in screens and the shell: the `lng`
 * cookie when it names an interface language, else the first interface language of Accept-Language
 * by its q-values (`de-DE,de;q=0.9,es;q=0.5` is Spanish), else en.
 */
export function negotiateLanguage(cookie: string | null | undefined, acceptLanguage: string | null | undefined): UiLanguage {
  const fromCookie = uiLanguage(cookie)
  if (fromCookie) return fromCookie
  const accepted = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      const weight = q ? Number(q.slice(2)) : 1
      return { tag: tag!.trim(), q: Number.isFinite(weight) ? weight : 0, index }
    })
    .filter((a) => a.tag && a.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { tag } of accepted) {
    const match = uiLanguage(tag)
    if (match) return match
  }
  return 'en'
}

const [negotiate, negotiated] = createI18nextMiddleware({
  detection: {
    // The interface's languages only: a cookie or header naming another gets the default.
    supportedLanguages: [...UI_LANGUAGES],
    fallbackLanguage: DEFAULT_LANGUAGE,
    // Our one rule (negotiateLanguage above), the sign-in screens' too: the whole Accept-Language list is weighed.
    order: ['custom'],
    findLocale: async ({ request }) => negotiateLanguage(readCookie(request, 'lng'), request.headers.get('accept-language')),
  },
  i18next: serverI18nOptions,
  plugins: [initReactI18next],
})

const localeContext = createContext<string>()
const instanceContext = createContext<i18n>()

// The language for a (cookie, Accept-Language) pair. remix-i18next makes and initialises a whole
// i18next instance for every request it negotiates (~0.7 ms, issue 13): here it runs once per
// distinct pair, a bounded set (a browser sends the same header every time).
const locales = new Map<string, string>()
async function locale(request: Request): Promise<string> {
  const key = `${readCookie(request, 'lng') ?? ''}\n${request.headers.get('accept-language') ?? ''}`
  let found = locales.get(key)
  if (found === undefined) {
    const scratch = new RouterContextProvider()
    await negotiate({ request, params: {}, context: scratch } as unknown as Parameters<typeof negotiate>[0], async () => new Response())
    found = negotiated(scratch)
    if (locales.size >= 1000) locales.clear()
    locales.set(key, found)
  }
  return found
}

// One initialised i18next per language, shared by every request (the texts are read-only). A
// request gets a view of it with its own `reportNamespaces` and `usedTexts`: the namespaces and the
// texts its render used, which the document inlines (i18n.ts `documentResources`).
const shared = new Map<string, Promise<i18n>>()
function sharedInstance(lng: string): Promise<i18n> {
  let instance = shared.get(lng)
  if (!instance) {
    const made = createInstance(serverI18nOptions)
    made.use(initReactI18next)
    instance = made.init({ lng }).then(() => (addTextFormats(made), made))
    shared.set(lng, instance)
  }
  return instance
}

/** The request's language and i18next instance, for loaders (`getLocale`, `getInstance`) and the render. */
export const i18nextMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const lng = await locale(request)
  context.set(localeContext, lng)
  const base = await sharedInstance(lng)
  context.set(
    instanceContext,
    Object.create(base, {
      reportNamespaces: { value: undefined, writable: true, enumerable: true, configurable: true },
      usedTexts: { value: new Set<string>(), enumerable: true },
    }) as i18n,
  )
  return next()
}

export const getLocale = (context: Readonly<RouterContextProvider>): string => context.get(localeContext)
export const getInstance = (context: Readonly<RouterContextProvider>): i18n => context.get(instanceContext)
