import { Link } from 'react-router'
import { usePopover } from '#app/lib/use-popover.ts'
import { Icon } from './icon.tsx'
import { useTranslation } from '#app/lib/use-translation.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { Button } from './ui/button.tsx'

type Crumb = { label: string; to: string }

/**
 * The head of every list and detail screen: a breadcrumb back up the path, the title with its
 * status beside it, one primary action and the secondary ones, all the same size (issue 16).
 * Actions are links or forms given as `HeaderAction`s; the first primary one leads.
 */
export function PageHeader({
  title,
  breadcrumb,
  status,
  description,
  actions,
  testId,
}: {
  title: React.ReactNode
  breadcrumb?: Crumb[]
  status?: React.ReactNode
  description?: React.ReactNode
  actions?: React.ReactNode
  testId?: string
}) {
  const { t } = useTranslation('common')
  const href = useContextHref()
  return (
    <header className="space-y-2" data-testid={testId ?? 'page-header'}>
      {breadcrumb?.length ? (
        <nav aria-label={t('nav.breadcrumb')}>
          <ol className="flex flex-wrap items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
            {breadcrumb.map((crumb) => (
              <li key={crumb.to} className="flex items-center gap-1">
                <Link to={href(crumb.to)} className="hover:text-slate-900 hover:underline dark:hover:text-slate-100">
                  {crumb.label}
                </Link>
                <Icon name="chevron-right" className="size-3 rtl:rotate-180" />
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h1 className="break-words text-xl font-semibold tracking-tight sm:text-2xl">{title}</h1>
            {status}
          </div>
          {description ? <p className="text-sm text-slate-600 dark:text-slate-400">{description}</p> : null}
        </div>
        {actions ? <div className="flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
    </header>
  )
}

/**
 * An action of the page header: a link, primary (filled) or secondary (outlined), one size for all.
 * `to` is a path, or `#id` for a part of the same page (the edit form below the details).
 */
export function HeaderAction({ to, primary = false, children, ...props }: { to: string; primary?: boolean; children: React.ReactNode } & Omit<React.ComponentProps<typeof Link>, 'to'>) {
  const href = useContextHref()
  return (
    <Button asChild size="sm" variant={primary ? 'default' : 'outline'} className={primary ? undefined : 'bg-white shadow-sm dark:bg-slate-900'}>
      {to.startsWith('#') ? (
        <a href={to} className={props.className} data-testid={(props as { 'data-testid'?: string })['data-testid']}>
          {children}
        </a>
      ) : (
        <Link to={href(to)} {...props}>
          {children}
        </Link>
      )}
    </Button>
  )
}

/**
 * The page header's secondary actions behind one "⋯" button (issue 28, Look): a <details> menu, so
 * it opens without JavaScript; with it, Escape, a press outside and a navigation close it. Its
 * items are `HeaderMenuItem`s.
 */
export function HeaderMenu({ children, testId = 'header-menu' }: { children: React.ReactNode; testId?: string }) {
  const { t } = useTranslation('common')
  const menu = usePopover()
  return (
    <details ref={menu} className="group relative" data-testid={testId}>
      <summary
        className="inline-flex h-8 cursor-pointer list-none items-center justify-center rounded-md border border-slate-300 bg-white px-2.5 shadow-sm hover:bg-slate-50 group-open:bg-slate-100 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800 dark:group-open:bg-slate-800 [&::-webkit-details-marker]:hidden"
        title={t('actions.more')}
      >
        <Icon name="ellipsis" className="size-4" />
        <span className="sr-only">{t('actions.more')}</span>
      </summary>
      <ul className="absolute right-0 z-30 mt-1 min-w-48 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-xl dark:border-slate-800 dark:bg-slate-900 rtl:left-0 rtl:right-auto">
        {children}
      </ul>
    </details>
  )
}

/** An entry of the "⋯" menu: a link to another screen. */
export function HeaderMenuItem({ to, children, ...props }: { to: string; children: React.ReactNode } & Omit<React.ComponentProps<typeof Link>, 'to'>) {
  const href = useContextHref()
  return (
    <li>
      <Link to={href(to)} className="block whitespace-nowrap rounded-md px-3 py-1.5 hover:bg-slate-100 dark:hover:bg-slate-800" {...props}>
        {children}
      </Link>
    </li>
  )
}
