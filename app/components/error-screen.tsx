import { Trans } from '#app/lib/trans.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { isRouteErrorResponse, Link, useRouteLoaderData } from 'react-router'
import { TriangleAlert } from 'lucide-react'
import { isUnsafeTextRefusal } from '#app/lib/unsafe-text.ts'
import { Button } from './ui/button.tsx'

type RootLike = { supportEmail?: string; back?: string | null } | undefined

/** What the error screen knows about an error: its status (when any) and its raw value. */
export function describeError(error: unknown): { status: number | null; raw: string | null } {
  if (isRouteErrorResponse(error)) {
    const raw = error.data === undefined || error.data === null || error.data === '' ? null : typeof error.data === 'string' ? error.data : JSON.stringify(error.data, null, 2)
    return { status: error.status, raw }
  }
  if (error instanceof Error) return { status: null, raw: error.message || error.name }
  if (error === undefined || error === null) return { status: null, raw: null }
  return { status: null, raw: typeof error === 'string' ? error : JSON.stringify(error) }
}

/**
 * The error screen of spec §2 and §8: warning icon, status, heading (403 access denied, else
 * "an error has occurred"), the text for the code, Back and Home only with a status, and the raw
 * error. The document title is always "an error has occurred" (spec §2). `inShell`: shown inside the default layout (a signed-in
 * person stays in the app: header and navigation around it), else a page of its own.
 */
export function ErrorScreen({ error, inShell = false }: { error: unknown; inShell?: boolean }) {
  const { t } = useTranslation('common')
  const root = useRouteLoaderData('root') as RootLike
  const supportEmail = root?.supportEmail ?? 'support@registrar.example'
  const described = describeError(error)
  const { status } = described
  // A post holding text no field may hold (app/lib/unsafe-form.server.ts): say which, in words.
  const unsafe = isRouteErrorResponse(error) && isUnsafeTextRefusal(error.data) ? error.data.fields : null
  const raw = unsafe ? null : described.raw
  const heading = status === 403 ? t('error.accessDenied') : t('error.heading')
  const mail = (subject: string) => `mailto:${supportEmail}?subject=${encodeURIComponent(subject)}`
  let text: React.ReactNode
  if (status === 403) text = t('error.403')
  else if (status === 404) text = <Trans t={t} i18nKey="error.404" values={{ email: supportEmail }} components={{ mail: <a className="underline" href={mail('404 error')} /> }} />
  else if (status === 429) text = <Trans t={t} i18nKey="error.429" components={{ mail: <a className="underline" href={mail('429 error')} /> }} />
  else if (unsafe) text = <span data-testid="error-unsafe-text">{t('error.unsafeText', { count: unsafe.length, fields: unsafe.map((field) => `“${field}”`).join(', ') })}</span>
  else text = t('error.500')
  const Frame = inShell ? 'section' : 'main'
  return (
    <Frame
      className={inShell ? 'mx-auto flex max-w-2xl flex-col items-start gap-4 py-12' : 'mx-auto flex min-h-screen max-w-2xl flex-col items-start justify-center gap-4 p-8'}
      data-testid="error-screen"
    >
      {/* Spec §2: the page title is the "an error has occurred" text for every code, 403 too (its heading says access was denied). */}
      <title>{t('error.heading')}</title>
      <TriangleAlert aria-hidden className="size-12 text-amber-500" />
      {status !== null ? (
        <p className="text-5xl font-bold tabular-nums" data-testid="error-status">
          {status}
        </p>
      ) : null}
      <h1 className="text-2xl font-semibold">{heading}</h1>
      <p className="text-slate-700 dark:text-slate-300">{text}</p>
      {status !== null ? (
        <div className="flex gap-2">
          {/* The previous page: the browser's history with JavaScript, the address it came from (same origin) without. */}
          <Button asChild variant="outline">
            <a
              href={root?.back ?? '/'}
              onClick={(event) => {
                if (window.history.length > 1) {
                  event.preventDefault()
                  window.history.back()
                }
              }}
            >
              {t('error.back')}
            </a>
          </Button>
          <Button asChild>
            <Link to="/" reloadDocument>
              {t('error.home')}
            </Link>
          </Button>
        </div>
      ) : null}
      {raw ? (
        <pre className="w-full overflow-auto rounded bg-slate-100 p-3 text-sm dark:bg-slate-900">
          <code>{raw}</code>
        </pre>
      ) : null}
    </Frame>
  )
}
