import { useTranslation } from '#app/lib/use-translation.ts'
import { useRouteLoaderData } from 'react-router'

function SupportLine() {
  const { t } = useTranslation('common')
  const root = useRouteLoaderData('root') as { supportEmail?: string; appEnv?: string } | undefined
  return (
    <p>
      {t('footer.support')}{' '}
      {root?.supportEmail ? (
        <a className="underline" href={`mailto:${root.supportEmail}`}>
          {root.supportEmail}
        </a>
      ) : null}
      {root?.appEnv && root.appEnv !== 'production' ? <span className="ml-2 rounded bg-amber-100 px-1 text-amber-900">{root.appEnv}</span> : null}
    </p>
  )
}

export function DefaultFooter() {
  const { t } = useTranslation('common')
  return (
    <footer className="border-t border-slate-200 px-4 py-3 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
      <div className="mx-auto flex max-w-screen-2xl flex-wrap justify-between gap-2">
        <span>{t('app.name')}</span>
        <SupportLine />
      </div>
    </footer>
  )
}

export function LoginFooter() {
  return (
    <footer className="px-4 py-3 text-center text-xs text-slate-500">
      <SupportLine />
    </footer>
  )
}
