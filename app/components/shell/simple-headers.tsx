import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, Link, useLocation } from 'react-router'
import { BrandIcon } from '#app/components/icons.tsx'
import { UI_LANGUAGES } from '#app/lib/i18n.ts'

/**
 * The login header: the brand and a language switch (a plain form, no JavaScript needed). The
 * docs layout gives it the section's title and a bottom border.
 */
export function LoginHeader({ title, className }: { title?: string; className?: string }) {
  const { t, i18n } = useTranslation('common')
  const location = useLocation()
  return (
    <header className={`flex items-center justify-between gap-3 px-4 py-3 ${className ?? ''}`}>
      <span className="flex min-w-0 items-center gap-3">
        <Link to="/" className="flex min-w-0 items-center gap-2 font-semibold">
          <BrandIcon className="size-6 shrink-0 text-blue-700 dark:text-blue-400" />
          <span className="truncate">{t('app.name')}</span>
        </Link>
        {title ? <span className="hidden truncate text-slate-500 sm:inline dark:text-slate-400">{title}</span> : null}
      </span>
      <Form method="post" action="/preferences/language" reloadDocument className="flex shrink-0 items-center gap-1 text-sm">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <label htmlFor="login-language" className="sr-only">
          {t('user.language')}
        </label>
        <select
          id="login-language"
          name="lng"
          defaultValue={i18n.language}
          className="rounded border border-slate-300 bg-transparent px-1 py-0.5 dark:border-slate-700"
          onChange={(e) => e.currentTarget.form?.requestSubmit()}
        >
          {UI_LANGUAGES.map((lng) => (
            <option key={lng} value={lng}>
              {t(`languages.${lng}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="rounded border border-slate-300 px-2 text-xs dark:border-slate-700">
          {t('actions.apply')}
        </button>
      </Form>
    </header>
  )
}

/** A plain header for the public and report layouts. */
export function PlainHeader({ title }: { title: string }) {
  const { t } = useTranslation('common')
  return (
    <header className="flex items-center gap-3 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
      <BrandIcon className="size-6 text-blue-700 dark:text-blue-400" />
      <span className="font-semibold">{t('app.name')}</span>
      <span className="text-slate-500">{title}</span>
    </header>
  )
}
