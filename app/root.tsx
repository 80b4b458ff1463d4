import { lazy, useEffect } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { data, Links, Meta, Outlet, redirect, Scripts, ScrollRestoration, useRouteLoaderData, type MiddlewareFunction } from 'react-router'
import type { Route } from './+types/root.ts'
import { useErrorTexts } from './components/error-texts.ts'
import { Toaster } from './components/toaster.tsx'
import { appServicesContext } from './lib/app-context.ts'
import { browserTranslator, inlineNamespaces } from './lib/browser-translator.ts'
import { useNonce } from './lib/csp.ts'
import { contextCarryMiddleware } from './lib/context-carry.server.ts'
import { carryContext } from './lib/context-param.ts'
import { readCookie } from './lib/cookies.server.ts'
import { takeFlash } from './lib/flash.server.ts'
import { sameOriginReferer } from './lib/safe-redirect.ts'
import { documentI18nScript, languageDirection } from './lib/i18n.ts'
import { getLocale, i18nextMiddleware } from './lib/i18n.server.ts'
import { isTheme, SYSTEM_THEME_SCRIPT, type Theme } from './lib/theme.ts'
import { unsafeFormMiddleware } from './lib/unsafe-form.server.ts'
import './app.css'

// After the language is known: a query or a post holding a NUL or a lone surrogate gets the 400 screen in it.
export const middleware = [i18nextMiddleware, contextCarryMiddleware, unsafeFormMiddleware]

// In the browser the same rule runs before a client navigation, without a server round trip.
const clientContextCarry: MiddlewareFunction<undefined> = async ({ request }, next) => {
  if (request.method === 'GET' && typeof window !== 'undefined') {
    const url = new URL(request.url)
    const target = url.pathname + url.search
    const carried = carryContext(target, new URLSearchParams(window.location.search))
    if (carried !== target) throw redirect(carried)
  }
  await next()
}

// The document inlined only the texts of its first render; before any client navigation renders,
// the rest of the language arrives (once, in parallel with the loaders).
const clientTexts: MiddlewareFunction<undefined> = async (_args, next) => {
  const translator = browserTranslator()
  const texts = import('./lib/i18n.client.ts').then(({ loadLanguage }) => loadLanguage(translator, translator.language)).catch((error: unknown) => console.warn(error))
  await next()
  await texts
}
export const clientMiddleware = [clientContextCarry, clientTexts]

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(appServicesContext)
  const locale = getLocale(context)
  const themeCookie = readCookie(request, 'theme')
  const flash = takeFlash(request)
  return data(
    {
      locale,
      theme: isTheme(themeCookie) ? themeCookie : null,
      supportEmail: services.env.supportEmail,
      appEnv: services.env.appEnv,
      // Where the error screen's Back leads without JavaScript: the page this request came from, when it is ours.
      back: sameOriginReferer(request),
      flash: flash.messages,
    },
    flash.header ? { headers: { 'Set-Cookie': flash.header } } : undefined,
  )
}

export type RootData = Awaited<ReturnType<typeof loader>>['data']
export const useRootData = () => useRouteLoaderData<typeof loader>('root')

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData()
  const { i18n } = useTranslation()
  const lng = root?.locale ?? i18n.language ?? 'en'
  const theme: Theme | null = root?.theme ?? null
  const nonce = useNonce()
  return (
    <html
      lang={lng}
      dir={languageDirection(lng)}
      className={theme === 'dark' ? 'dark' : undefined}
      data-theme={theme ?? 'system'}
      style={{ colorScheme: theme ?? 'light dark' }}
      suppressHydrationWarning
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.ico" sizes="32x32" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* No stored preference: follow the system before first paint (the nonce attribute is ready for a CSP). */}
        {theme ? null : <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: SYSTEM_THEME_SCRIPT }} />}
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        {/* After everything else, so the whole page has rendered and asked for its namespaces. */}
        <DocumentTexts />
      </body>
    </html>
  )
}

/**
 * The texts of the current language that this render used, for the client entry to start with
 * (a classic inline script runs before the deferred module scripts). In the browser the element is
 * kept as the server wrote it.
 */
function DocumentTexts() {
  const { i18n } = useTranslation()
  const html = typeof document === 'undefined' ? documentI18nScript(i18n) : ''
  return <script nonce={useNonce()} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: html }} />
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { i18n } = useTranslation()
  useEffect(() => {
    const translator = browserTranslator()
    const client = import('./lib/i18n.client.ts')
    if (i18n.language !== loaderData.locale) {
      // A language chosen without a reload (the profile form): its texts first, then the switch.
      void client
        .then(({ loadLanguage }) => loadLanguage(translator, loaderData.locale))
        .catch((error: unknown) => console.warn(error))
        .then(() => translator.changeLanguage(loaderData.locale))
    } else {
      // The document inlined only the texts its render used; what renders only in the browser (a
      // menu opened, a check's message) finds the rest of those namespaces.
      const namespaces = inlineNamespaces()
      if (namespaces.length) void client.then(({ loadNamespaces }) => loadNamespaces(translator, loaderData.locale, namespaces)).catch((error: unknown) => console.warn(error))
    }
    document.documentElement.lang = loaderData.locale
    document.documentElement.dir = languageDirection(loaderData.locale)
  }, [loaderData.locale, i18n])
  useEffect(() => {
    // A stored choice wins; without one the inline script's system choice stays.
    if (!loaderData.theme) return
    const html = document.documentElement
    html.classList.toggle('dark', loaderData.theme === 'dark')
    html.dataset.theme = loaderData.theme
    html.style.colorScheme = loaderData.theme
  }, [loaderData.theme])
  return (
    <>
      <Outlet />
      <Toaster initial={loaderData.flash} />
    </>
  )
}

// Only an error page needs it (and the Trans machinery it brings): not part of every first load.
// The server render waits for it (no Suspense boundary, so pages without JavaScript get it whole);
// hydration waits for the chunk before it takes over the page. Its texts are asked for first
// (useErrorTexts), so the document carries them even when the chunk arrives after they were written.
const ErrorScreen = lazy(() => import('./components/error-screen.tsx').then((m) => ({ default: m.ErrorScreen })))

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  useErrorTexts()
  return <ErrorScreen error={error} />
}
