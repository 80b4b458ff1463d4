import { useEffect } from 'react'
import { Link, useLocation } from 'react-router'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useAfterNavigation } from '#app/lib/use-after-navigation.ts'
import { AREA_GROUPS, type AreaGroup, type AreaKey } from '#app/lib/navigation.ts'
import { cn } from '#app/lib/utils.ts'
import { AccountSwitcher } from './account-switcher.tsx'
import { Icon } from '#app/components/icon.tsx'
import type { IconName } from '#app/components/icon-names.ts'
import type { AccountChoice } from '#app/lib/accounts.server.ts'

export type NavArea = { key: AreaKey; group: AreaGroup; href: string; prefixes: string[] }

/** The id of the checkbox that opens the navigation as a drawer below lg (works without JavaScript). */
export const NAV_TOGGLE_ID = 'nav-toggle'

const ICONS: Record<AreaKey, IconName> = {
  pulse: 'activity',
  domains: 'globe',
  dns: 'network',
  ssl: 'shield-check',
  blocks: 'ban',
  tlds: 'list-tree',
  changeSets: 'layers',
  watch: 'eye',
  brandProtection: 'shield-alert',
  intelligence: 'radar',
  products: 'package',
  invoicing: 'receipt',
  reports: 'chart-column',
  accounts: 'building-2',
  users: 'users',
  contacts: 'contact',
}

/** The area a path belongs to among those shown: the longest matching prefix, as areaForPath. */
function activeArea(areas: NavArea[], pathname: string): AreaKey | null {
  let active: AreaKey | null = null
  let best = -1
  for (const area of areas) {
    for (const p of area.prefixes) {
      if ((pathname === p || pathname.startsWith(`${p}/`)) && p.length > best) {
        active = area.key
        best = p.length
      }
    }
  }
  return active
}

const linkClass = (current: boolean) =>
  cn(
    'flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-950 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white',
    current && 'bg-blue-50 font-medium text-blue-800 hover:bg-blue-50 hover:text-blue-800 dark:bg-blue-950/60 dark:text-blue-200 dark:hover:bg-blue-950/60 dark:hover:text-blue-200',
  )

/**
 * Unchecks the drawer's checkbox after a client navigation and on Escape (without JavaScript the
 * page reloads, and the backdrop — a label of the same checkbox — closes it).
 */
function useDrawerClosing() {
  useAfterNavigation(() => {
    const toggle = document.getElementById(NAV_TOGGLE_ID)
    if (toggle instanceof HTMLInputElement) toggle.checked = false
  })
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const toggle = document.getElementById(NAV_TOGGLE_ID)
      if (event.key === 'Escape' && toggle instanceof HTMLInputElement && toggle.checked) toggle.checked = false
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
}

/**
 * The portal's one navigation (issue 28): the areas the user may see in named, collapsible
 * sections, and staff's account switcher at the top. From lg up it is a sticky column beside the
 * page; below, the same element is a drawer opened by the header's ☰ (a checkbox and labels: it
 * opens and closes without JavaScript).
 */
export function SideNav({ areas, staff }: { areas: NavArea[]; staff: { accounts: AccountChoice[]; context: string; ownGroup: string } | null }) {
  const { t } = useTranslation('common')
  const href = useContextHref()
  const { pathname } = useLocation()
  useDrawerClosing()
  const active = activeArea(areas, pathname)
  const sections = AREA_GROUPS.map((group) => ({ group, areas: areas.filter((a) => a.group === group) })).filter((s) => s.areas.length > 0)
  return (
    <>
      <input type="checkbox" id={NAV_TOGGLE_ID} className="peer sr-only" aria-label={t('nav.openMenu')} aria-controls="side-nav" data-testid="nav-toggle" />
      {/* The dimmed page behind the open drawer: a click on it closes the drawer. */}
      <label htmlFor={NAV_TOGGLE_ID} aria-hidden className="fixed inset-0 top-14 z-30 hidden bg-slate-950/40 peer-checked:block lg:peer-checked:hidden" data-testid="nav-backdrop" />
      <aside
        id="side-nav"
        className={cn(
          'fixed bottom-0 left-0 top-14 z-40 w-72 max-w-[85vw] -translate-x-full overflow-y-auto border-r border-slate-200 bg-white shadow-xl transition-transform duration-150 invisible peer-checked:visible peer-checked:translate-x-0 dark:border-slate-800 dark:bg-slate-950 rtl:left-auto rtl:right-0 rtl:translate-x-full rtl:border-l rtl:border-r-0',
          // From lg the column runs the page's whole height (its border and tint), and what it holds stays in view.
          'lg:visible lg:static lg:z-auto lg:w-60 lg:max-w-none lg:shrink-0 lg:self-stretch lg:overflow-visible lg:translate-x-0 lg:bg-slate-50/60 lg:shadow-none lg:transition-none dark:lg:bg-slate-950 rtl:lg:translate-x-0',
        )}
        data-testid="side-nav"
      >
        <div className="lg:sticky lg:top-14 lg:max-h-[calc(100dvh-3.5rem)] lg:overflow-y-auto">
          {staff ? <AccountSwitcher accounts={staff.accounts} context={staff.context} ownGroup={staff.ownGroup} /> : null}
          <nav aria-label={t('nav.main')} className="flex flex-col gap-4 p-3">
            <ul className="flex flex-col gap-0.5">
              <li>
                <Link to={href('/')} className={linkClass(pathname === '/')} aria-current={pathname === '/' ? 'page' : undefined}>
                  <Icon name="house" className="size-4 shrink-0" />
                  {t('nav.home')}
                </Link>
              </li>
              {sections
                .filter((s) => s.group === 'overview')
                .flatMap((s) => s.areas)
                .map((area) => (
                  <AreaLink key={area.key} area={area} current={active === area.key} to={href(area.href)} />
                ))}
            </ul>
            {sections
              .filter((s) => s.group !== 'overview')
              .map((section) => (
                <details key={section.group} open className="group/section" data-testid={`nav-section-${section.group}`}>
                  <summary className="flex cursor-pointer list-none items-center justify-between rounded px-2.5 py-1 text-xs font-semibold uppercase tracking-wide text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-slate-200 [&::-webkit-details-marker]:hidden">
                    {t(`nav.groups.${section.group}`)}
                    <Icon name="chevron-down" className="size-3.5 -rotate-90 transition-transform group-open/section:rotate-0" />
                  </summary>
                  <ul className="mt-1 flex flex-col gap-0.5">
                    {section.areas.map((area) => (
                      <AreaLink key={area.key} area={area} current={active === area.key} to={href(area.href)} />
                    ))}
                  </ul>
                </details>
              ))}
          </nav>
        </div>
      </aside>
    </>
  )
}

function AreaLink({ area, current, to }: { area: NavArea; current: boolean; to: string }) {
  const { t } = useTranslation('common')
  return (
    <li>
      <Link to={to} aria-current={current ? 'page' : undefined} className={linkClass(current)}>
        <Icon name={ICONS[area.key]} className="size-4 shrink-0" />
        {t(`nav.${area.key}`)}
      </Link>
    </li>
  )
}
