import { useTranslation } from '#app/lib/use-translation.ts'
import { NavLink, Outlet } from 'react-router'
import { LoginFooter } from '#app/components/shell/footers.tsx'
import { LoginHeader } from '#app/components/shell/simple-headers.tsx'
import { cn } from '#app/lib/utils.ts'

const PAGES = [
  ['/api', 'docs.overview'],
  ['/api/authentication', 'docs.authentication'],
  ['/api/context', 'docs.context'],
  ['/api/reference', 'docs.reference'],
] as const

/**
 * Layout docs (spec §2): the public API documentation, reachable without login and readable
 * without JavaScript. The side navigation becomes a row of tabs on a phone; print drops both.
 */
export default function DocsLayout() {
  const { t } = useTranslation('common')
  return (
    <div className="flex min-h-screen flex-col">
      <LoginHeader title={t('docs.title')} className="border-b border-slate-200 print:hidden dark:border-slate-800" />
      <div className="mx-auto flex w-full max-w-screen-xl flex-1 flex-col gap-6 px-4 py-6 md:flex-row md:gap-10">
        <nav aria-label={t('docs.title')} className="shrink-0 print:hidden md:w-48">
          <ul className="-mx-2 flex overflow-x-auto text-sm md:sticky md:top-6 md:mx-0 md:flex-col md:gap-1">
            {PAGES.map(([to, key]) => (
              <li key={to}>
                <NavLink
                  to={to}
                  // The reference's own pages (/api/reference/<area>) keep its tab current.
                  end={to !== '/api/reference'}
                  className={({ isActive }) =>
                    cn(
                      'block whitespace-nowrap rounded-md px-2 py-1.5 md:px-2.5',
                      isActive
                        ? 'bg-slate-100 font-medium text-slate-900 dark:bg-slate-800 dark:text-slate-100'
                        : 'text-slate-600 hover:bg-slate-50 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-900 dark:hover:text-slate-100',
                    )
                  }
                >
                  {t(key)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main className="min-w-0 flex-1">
          <Outlet />
        </main>
      </div>
      <div className="print:hidden">
        <LoginFooter />
      </div>
    </div>
  )
}
