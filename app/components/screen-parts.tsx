import { getFormProps, type FormMetadata } from '@conform-to/react'
import { Children, cloneElement, createContext, isValidElement, useContext } from 'react'
import type { TFunction } from 'i18next'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Form } from 'react-router'
import { FormErrors } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardTitle } from '#app/components/ui/card.tsx'
import { Tabs } from '#app/components/tabs.tsx'
import { cn } from '#app/lib/utils.ts'

/**
 * Pieces of detail and list screens every area uses: read-only detail rows, a confirmed POST button, the sub-navigation of
 * an entity's tabs, a form folded in a card (and the form above a list in one), a short table inside a card, yes/no and a list's column labels.
 */

/** Label/value rows of a detail screen. */
export function DetailList({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-600 dark:text-slate-300">{label}</dt>
          <dd data-testid={`detail-${label}`}>{value === '' || value === null || value === undefined ? '—' : value}</dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * A POST action behind a confirmation that needs no JavaScript: the button opens a native
 * disclosure that holds the real submit button.
 */
export function ConfirmAction({
  intent,
  label,
  question,
  confirmLabel,
  variant = 'outline',
}: {
  intent: string
  label: string
  question: string
  confirmLabel: string
  variant?: 'outline' | 'destructive'
}) {
  return (
    <details className="rounded-md border border-slate-200 p-2 dark:border-slate-800" data-testid={`confirm-${intent}`}>
      <summary className="cursor-pointer text-sm font-medium">{label}</summary>
      <Form method="post" className="mt-2 flex flex-wrap items-center gap-2">
        <p className="text-sm">{question}</p>
        <Button type="submit" name="intent" value={intent} variant={variant} size="sm">
          {confirmLabel}
        </Button>
      </Form>
    </details>
  )
}

/**
 * A form folded in a card (an order or an import above a list, an entity's details to change): its
 * title opens it, and it is open when the action answered it, so that a refusal shows beside the
 * fields as typed. The title is also the card's heading for those who move by headings.
 */
export function FoldedFormCard({ title, testId, open, children }: { title: string; testId: string; open: boolean; children: React.ReactNode }) {
  return (
    <Card>
      <details open={open ? true : undefined}>
        <summary className="cursor-pointer text-lg font-semibold" data-testid={testId}>
          {title}
        </summary>
        <CardTitle className="sr-only">{title}</CardTitle>
        {children}
      </details>
    </Card>
  )
}

/**
 * A form above a list (an order, an import), folded in a `FoldedFormCard`: two columns from md, its
 * help and its own errors at the top, its submit at the foot; `children` are its inputs (a child
 * spans both columns with `md:col-span-2`).
 */
export function FoldedForm<Shape extends Record<string, unknown>>({
  title,
  testId,
  open,
  form,
  help,
  submit,
  className,
  children,
}: {
  title: string
  testId: string
  open: boolean
  form: FormMetadata<Shape, string[]>
  help?: string
  submit: { label: string; testId: string; variant?: 'outline' }
  /** The grid's gaps, where the inputs bring their own spacing. */
  className?: string
  children: React.ReactNode
}) {
  return (
    <FoldedFormCard title={title} testId={testId} open={open}>
      <Form method="post" className={cn('mt-4 grid gap-4 md:grid-cols-2', className)} {...getFormProps(form)}>
        {help ? <p className="text-sm text-slate-600 md:col-span-2 dark:text-slate-400">{help}</p> : null}
        <div className="md:col-span-2">
          <FormErrors id={form.errorId} errors={form.errors} />
        </div>
        {children}
        <div className="md:col-span-2">
          <Button type="submit" variant={submit.variant} data-testid={submit.testId}>
            {submit.label}
          </Button>
        </div>
      </Form>
    </FoldedFormCard>
  )
}

/** The tabs of an entity's sub-screens (detail, log, …), carrying the context: the one tab bar (`Tabs`). */
export function SubNav({ links }: { links: { to: string; label: string; current?: boolean }[] }) {
  return <Tabs tabs={links.map((l) => ({ ...l, current: Boolean(l.current) }))} />
}

/** Form errors (not tied to a field) in an alert. */
export const yesNo = (t: TFunction, value: unknown) => (value ? t('directory:yes') : t('directory:no'))

/** The translated heading for a list column. */
export const useColumnLabels = (area: string) => {
  const { t } = useTranslation('directory')
  return (key: string) => t(`${area}.fields.${key}`, { defaultValue: t(`fields.${key}`, { defaultValue: key }) })
}

/**
 * A short table inside a card (an account's webhook endpoints, an endpoint's deliveries, a user's
 * API tokens; a long list is a `DataTable`): it scrolls sideways on a phone rather than squeezing
 * its columns below `minWidth`, the headings in small capitals, each item a `CardTableRow` of
 * `render`; with no items, the `empty` text instead.
 */
export function CardTable<T>({
  items,
  render,
  headings,
  minWidth,
  testId,
  empty,
}: {
  items: readonly T[]
  render: (item: T) => React.ReactNode
  headings: { label: React.ReactNode; className?: string }[]
  /** A Tailwind class such as `min-w-[40rem]`. */
  minWidth: string
  testId: string
  empty: { text: string; testId: string }
}) {
  if (!items.length)
    return (
      <p className="text-sm text-slate-500" data-testid={empty.testId}>
        {empty.text}
      </p>
    )
  return (
    <div className="-mx-4 overflow-x-auto px-4">
      <table className={cn('card-rows w-full text-sm', minWidth)} data-testid={testId}>
        <thead className="text-left text-xs uppercase tracking-wide text-slate-500">
          <tr className="border-b border-slate-200 dark:border-slate-800">
            {headings.map((heading, i) => (
              <th key={i} className={cn('py-2 font-medium', i < headings.length - 1 && 'pr-3', heading.className)}>
                {heading.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <CardTableLabels.Provider value={headings.map((heading) => (typeof heading.label === 'string' ? heading.label : undefined))}>{items.map(render)}</CardTableLabels.Provider>
        </tbody>
      </table>
    </div>
  )
}

/** The column labels of a `CardTable`, which its rows give their cells for the phone's card rows (app.css, card-rows). */
const CardTableLabels = createContext<(string | undefined)[]>([])

/** A row of a `CardTable`: each cell named by its column's heading, so on a phone it reads "label: value". */
export function CardTableRow({ testId, children }: { testId?: string; children: React.ReactNode }) {
  const labels = useContext(CardTableLabels)
  return (
    <tr className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/60" data-testid={testId}>
      {Children.toArray(children).map((cell, i) => (labels[i] && isValidElement<{ 'data-label'?: string }>(cell) ? cloneElement(cell, { 'data-label': labels[i] }) : cell))}
    </tr>
  )
}
