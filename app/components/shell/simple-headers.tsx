import { useTranslation } from '#app/lib/use-translation.ts'
import { Link, useLocation } from 'react-router'
import { BrandIcon } from '#app/components/icons.tsx'
import { LanguageForm } from './language-form.tsx'

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
      <LanguageForm id="login-language" value={i18n.language} redirectTo={location.pathname + location.search} className="flex shrink-0 items-center gap-1 text-sm" />
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
