import { Link, NavLink } from 'react-router'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { cn } from '#app/lib/utils.ts'

export type Tab = {
  to: string
  label: React.ReactNode
  /** Whether this is the screen shown; left out, the tab is current when the address is exactly its own. */
  current?: boolean
  testId?: string
}

const tabClass = (current: boolean) =>
  cn(
    '-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm transition-colors',
    current
      ? 'border-blue-600 font-medium text-slate-900 dark:border-blue-400 dark:text-slate-50'
      : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900 dark:text-slate-400 dark:hover:border-slate-600 dark:hover:text-slate-100',
  )

/**
 * The one tab bar of the portal (issue 28, Look: there were two, underlined links and this): the
 * sub-screens of an entity or an area as links under a line, the current one underlined in the
 * accent colour and marked aria-current. It scrolls sideways on a phone rather than wrapping. Each
 * link carries the account context.
 */
export function Tabs({ tabs, label, testId }: { tabs: Tab[]; label?: string; testId?: string }) {
  const href = useContextHref()
  return (
    <nav aria-label={label} className="-mx-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 sm:mx-0 sm:px-0 dark:border-slate-800" data-testid={testId}>
      {tabs.map((tab) =>
        tab.current === undefined ? (
          <NavLink key={tab.to} end to={href(tab.to)} className={({ isActive }) => tabClass(isActive)} data-testid={tab.testId}>
            {tab.label}
          </NavLink>
        ) : (
          <Link key={tab.to} to={href(tab.to)} aria-current={tab.current ? 'page' : undefined} className={tabClass(tab.current)} data-testid={tab.testId}>
            {tab.label}
          </Link>
        ),
      )}
    </nav>
  )
}
