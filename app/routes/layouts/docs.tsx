import { useTranslation } from '#app/lib/use-translation.ts'
import { Link, Outlet } from 'react-router'
import { LoginFooter } from '#app/components/shell/footers.tsx'
import { PlainHeader } from '#app/components/shell/simple-headers.tsx'

/** Layout docs (spec §2): the public API documentation, reachable without login. */
export default function DocsLayout() {
  const { t } = useTranslation('common')
  const pages = [
    ['/api', 'docs.overview'],
    ['/api/context', 'docs.context'],
    ['/api/reference', 'docs.reference'],
    ['/api/authentication', 'docs.authentication'],
  ] as const
  return (
    <div className="flex min-h-screen flex-col">
      <PlainHeader title={t('docs.title')} />
      <div className="mx-auto flex w-full max-w-screen-xl flex-1 gap-6 p-4">
        <nav aria-label={t('docs.title')} className="w-48 shrink-0">
          <ul className="flex flex-col gap-1 text-sm">
            {pages.map(([to, key]) => (
              <li key={to}>
                <Link to={to} className="hover:underline">
                  {t(key)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main className="min-w-0 flex-1">
          <Outlet />
        </main>
      </div>
      <LoginFooter />
    </div>
  )
}
