import { useRef } from 'react'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, Link, useLocation } from 'react-router'
import { BrandIcon, BulkTrayEmptyIcon, BulkTrayFullIcon, LanguageIcon } from '#app/components/icons.tsx'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useAfterNavigation } from '#app/lib/use-after-navigation.ts'
import { LanguageForm } from './language-form.tsx'
import { Icon } from '#app/components/icon.tsx'
import { AccountBadge } from './account-switcher.tsx'
import { NAV_TOGGLE_ID } from './side-nav.tsx'
import type { AccountChoice } from '#app/lib/accounts.server.ts'

type Shell = {
  user: { name: string; email: string; group_id: string }
  isStaff: boolean
  accounts: AccountChoice[]
  context: string
  trayCount: number
  locale: string
  theme: 'light' | 'dark'
}

/** Closes a <details> menu after a client navigation (useAfterNavigation). */
function useCloseOnNavigate() {
  const ref = useRef<HTMLDetailsElement>(null)
  useAfterNavigation(() => {
    if (ref.current) ref.current.open = false
  })
  return ref
}

export function DefaultHeader({ shell }: { shell: Shell }) {
  const { t } = useTranslation('common')
  const href = useContextHref()
  const location = useLocation()
  const here = location.pathname + location.search
  const userMenu = useCloseOnNavigate()
  const TrayIcon = shell.trayCount > 0 ? BulkTrayFullIcon : BulkTrayEmptyIcon
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
      <div className="flex h-14 items-center gap-2 px-4">
        {/* Below lg (1280 px) the side navigation is a drawer: this label ticks its checkbox (no JavaScript needed). */}
        <label
          htmlFor={NAV_TOGGLE_ID}
          className="flex size-9 cursor-pointer items-center justify-center rounded hover:bg-slate-100 lg:hidden dark:hover:bg-slate-800"
          title={t('nav.openMenu')}
          data-testid="nav-open"
        >
          <Icon name="menu" className="size-5" />
        </label>
        <Link to={href('/')} className="flex items-center gap-2 font-semibold" aria-label={t('app.name')}>
          <BrandIcon className="size-6 text-blue-700 dark:text-blue-400" />
          <span className="hidden sm:inline">{t('app.name')}</span>
        </Link>
        {shell.isStaff ? (
          <div className="ml-2 min-w-0">
            <AccountBadge accounts={shell.accounts} context={shell.context} ownGroup={shell.user.group_id} />
          </div>
        ) : null}
        <div className="ml-auto flex items-center gap-1">
          <Link
            to={href('/tray')}
            className="relative flex size-9 items-center justify-center rounded hover:bg-slate-100 dark:hover:bg-slate-800"
            aria-label={shell.trayCount > 0 ? t('tray.full', { count: shell.trayCount }) : t('tray.empty')}
            data-testid="tray-indicator"
            data-count={shell.trayCount}
          >
            <TrayIcon className="size-5" />
            {shell.trayCount > 0 ? <span className="absolute -right-0.5 -top-0.5 rounded-full bg-blue-700 px-1 text-[10px] text-white">{shell.trayCount}</span> : null}
          </Link>
          <details ref={userMenu} className="relative" data-testid="user-menu">
            <summary className="flex h-9 cursor-pointer list-none items-center gap-2 rounded px-2 hover:bg-slate-100 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden">
              <Icon name="user" className="size-5" />
              {/* The name shown is part of the accessible name (WCAG 2.5.3), after what the control is. */}
              <span className="sr-only">{t('user.menu')}: </span>
              <span className="hidden max-w-40 truncate text-sm md:inline">{shell.user.name}</span>
            </summary>
            <div className="absolute right-0 z-40 mt-1 w-64 rounded-md border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-800 dark:bg-slate-900 rtl:left-0 rtl:right-auto">
              <p className="truncate px-2 py-1 text-xs text-slate-500">{shell.user.email}</p>
              <Link to={href('/my-profile')} className="flex items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
                <Icon name="user" className="size-4" /> {t('user.profile')}
              </Link>
              <LanguageForm id="menu-language" value={shell.locale} redirectTo={here} className="flex items-center gap-2 px-2 py-1.5" selectClassName="flex-1 text-sm" submitTestId="language-submit">
                <LanguageIcon className="size-4" />
              </LanguageForm>
              <Form method="post" action="/preferences/theme" className="px-2 py-1.5">
                <input type="hidden" name="redirectTo" value={here} />
                <button type="submit" name="theme" value={shell.theme === 'dark' ? 'light' : 'dark'} className="flex w-full items-center gap-2 rounded text-sm" data-testid="theme-toggle">
                  {shell.theme === 'dark' ? <Icon name="sun" className="size-4" /> : <Icon name="moon" className="size-4" />}
                  {shell.theme === 'dark' ? t('user.themeLight') : t('user.themeDark')}
                </button>
              </Form>
              {/* Signing out changes state: a POST (spec §4), which works with and without JavaScript; a
                  full page load, since it may end at the single sign-on provider's logout. */}
              <Form method="post" action="/logout" reloadDocument>
                <button type="submit" className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-start text-sm hover:bg-slate-100 dark:hover:bg-slate-800" data-testid="menu-logout">
                  <Icon name="log-out" className="size-4" /> {t('user.logout')}
                </button>
              </Form>
            </div>
          </details>
        </div>
      </div>
    </header>
  )
}
