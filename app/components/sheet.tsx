import { useEffect, useId, useRef } from 'react'
import { Link, useNavigate } from 'react-router'
import { useContextHref } from '#app/lib/use-context-href.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Icon } from './icon.tsx'
import { Button } from './ui/button.tsx'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * The one side sheet of the portal (issue 28, Look): a create or edit form in a panel sliding in
 * from the end side over the screen it belongs to, which stays in sight behind it. A sheet is a
 * route of its own, a child of that screen's (/contacts/new over /contacts, /contacts/{id}/edit
 * over the contact), so its address can be opened, reloaded and shared, and without JavaScript it
 * is a plain page: the server draws the screen and the sheet over it, the form posts to the
 * sheet's route, and the close button and the shade around the panel are links back to `closeTo`.
 * With JavaScript it is a modal dialog: focus moves into it and stays there (Tab wraps), Escape
 * closes it, the page behind does not scroll, and focus goes back to what opened it.
 *
 * `footer` holds the form's buttons, always in sight under the panel's scrolling body: a submit
 * button there names its form (`form="<id>"`).
 */
export function Sheet({
  title,
  description,
  closeTo,
  footer,
  testId,
  children,
}: {
  title: React.ReactNode
  description?: React.ReactNode
  /** Where closing goes: the screen under the sheet, with its list's query. */
  closeTo: string
  footer?: React.ReactNode
  testId?: string
  children: React.ReactNode
}) {
  const { t } = useTranslation('common')
  const href = useContextHref()
  const navigate = useNavigate()
  const panel = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const descriptionId = useId()
  const close = href(closeTo)

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const root = document.documentElement
    const overflow = root.style.overflow
    root.style.overflow = 'hidden'
    const focusables = () => [...(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((el) => el.offsetParent !== null || el === document.activeElement)
    // The first field of the form (a field with an error once the server refused it), else the panel itself.
    const first = panel.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? panel.current?.querySelector<HTMLElement>('input:not([type="hidden"]), select, textarea')
    ;(first ?? panel.current)?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) {
        e.preventDefault()
        void navigate(close, { preventScrollReset: true })
        return
      }
      if (e.key !== 'Tab') return
      const items = focusables()
      if (!items.length) return
      const [head, tail] = [items[0]!, items.at(-1)!]
      const inside = panel.current?.contains(document.activeElement)
      if (e.shiftKey && (document.activeElement === head || !inside)) {
        e.preventDefault()
        tail.focus()
      } else if (!e.shiftKey && (document.activeElement === tail || !inside)) {
        e.preventDefault()
        head.focus()
      }
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      root.style.overflow = overflow
      if (opener?.isConnected) opener.focus({ preventScroll: true })
    }
  }, [close, navigate])

  return (
    <div className="fixed inset-0 z-50 flex justify-end" data-testid={testId}>
      {/* The shade: a press on it closes the sheet, a link without JavaScript; not a stop for the keyboard (the close button is). */}
      <Link to={close} preventScrollReset aria-hidden="true" tabIndex={-1} className="sheetshade absolute inset-0 bg-slate-950/40 dark:bg-black/60" />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className="sheet relative flex h-full w-full max-w-xl flex-col border-slate-200 bg-white shadow-2xl outline-none sm:border-s dark:border-slate-800 dark:bg-slate-950"
      >
        <header className="flex items-start justify-between gap-4 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
          <div className="min-w-0 space-y-1">
            <h2 id={titleId} className="break-words text-lg font-semibold tracking-tight">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="text-sm text-slate-600 dark:text-slate-400">
                {description}
              </p>
            ) : null}
          </div>
          <Link
            to={close}
            preventScrollReset
            aria-label={t('actions.close')}
            data-testid="sheet-close"
            className="shrink-0 rounded-md p-1.5 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100"
          >
            <Icon name="x" className="size-5" />
          </Link>
        </header>
        <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
        {footer ? <footer className="flex flex-wrap items-center justify-end gap-2 border-t border-slate-200 bg-slate-50 px-5 py-3 dark:border-slate-800 dark:bg-slate-900">{footer}</footer> : null}
      </div>
    </div>
  )
}

/** The sheet's Cancel: back to the screen under it, as the close button. */
export function SheetCancel({ closeTo, children }: { closeTo: string; children: React.ReactNode }) {
  const href = useContextHref()
  return (
    <Button asChild variant="outline" className="bg-white dark:bg-slate-900">
      <Link to={href(closeTo)} preventScrollReset data-testid="sheet-cancel">
        {children}
      </Link>
    </Button>
  )
}

/** A form sheet's footer: Cancel back to `closeTo`, and the submit button of the form `form` (its id) named by `children`. */
export function SheetSubmit({ closeTo, form, testId, children }: { closeTo: string; form: string; testId: string; children: React.ReactNode }) {
  const { t } = useTranslation('common')
  return (
    <>
      <SheetCancel closeTo={closeTo}>{t('actions.cancel')}</SheetCancel>
      <Button type="submit" form={form} data-testid={testId}>
        {children}
      </Button>
    </>
  )
}
