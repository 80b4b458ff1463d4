import { Form } from 'react-router'
import { UI_LANGUAGES } from '#app/lib/i18n.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { cn } from '#app/lib/utils.ts'

/**
 * The language picker of the headers (the user menu, the sign-in pages): a choice posts to
 * /preferences/language and comes back to `redirectTo` in the new language; the Apply button is
 * for a browser without JavaScript.
 */
export function LanguageForm({
  id,
  value,
  redirectTo,
  className,
  selectClassName,
  submitTestId,
  children,
}: {
  id: string
  value: string
  redirectTo: string
  className?: string
  selectClassName?: string
  submitTestId?: string
  /** Shown before the select (an icon). */
  children?: React.ReactNode
}) {
  const { t } = useTranslation('common')
  return (
    <Form method="post" action="/preferences/language" reloadDocument className={className}>
      {children}
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label htmlFor={id} className="sr-only">
        {t('user.language')}
      </label>
      <select
        id={id}
        name="lng"
        defaultValue={value}
        className={cn('rounded border border-slate-300 bg-transparent px-1 py-0.5 dark:border-slate-700', selectClassName)}
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      >
        {UI_LANGUAGES.map((lng) => (
          <option key={lng} value={lng}>
            {t(`languages.${lng}`)}
          </option>
        ))}
      </select>
      <button type="submit" className="rounded border border-slate-300 px-2 text-xs dark:border-slate-700" data-testid={submitTestId}>
        {t('actions.apply')}
      </button>
    </Form>
  )
}
