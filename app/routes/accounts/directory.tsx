import type { TFunction } from 'i18next'
import { useTranslation } from '#app/lib/use-translation.ts'
import { Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import type { ListDefinition } from '#app/lib/lists.ts'
import { LISTS } from '#app/lib/lists.ts'
import { useContextHref } from '#app/lib/use-context-href.ts'

/**
 * Pieces shared by the directory screens of issue 5 (accounts, users, contacts, TLDs): localised
 * API error codes, per-entity log lists, read-only detail rows and confirmed POST buttons.
 */

export type ProblemBody = { code?: string; detail?: string; errors?: { field?: string; code?: string; message?: string }[] } | null

/**
 * The Platform API's problem as conform errors: each coded field error localised beside its field
 * (`directory:errors.<code>`, the English message when the code is new); unknown fields and the
 * problem's own code go to the form.
 */
export function problemErrors(body: ProblemBody, t: TFunction, fields: readonly string[], fieldAlias: Record<string, string> = {}) {
  const fieldErrors: Record<string, string[]> = {}
  const formErrors: string[] = []
  const say = (code: string | undefined, fallback: string | undefined) =>
    code ? t(`directory:errors.${code}`, { defaultValue: fallback ?? t('directory:errors.unknown') }) : (fallback ?? t('directory:errors.unknown'))
  for (const e of body?.errors ?? []) {
    const raw = e.field ?? ''
    // Array items (roles.0) belong to their array's field.
    const name = fieldAlias[raw] ?? (fields.includes(raw) ? raw : raw.split('.')[0]!)
    const message = say(e.code, e.message)
    if (fields.includes(name)) (fieldErrors[name] ??= []).push(message)
    else if (!formErrors.includes(message)) formErrors.push(message)
  }
  if (Object.keys(fieldErrors).length === 0 && formErrors.length === 0) formErrors.push(say(body?.code, body?.detail))
  return { fieldErrors, formErrors }
}

/** An audit list fixed to one entity (the /…/{id}/log screens). */
export function entityLogList(listId: 'users-log' | 'contacts-log' | 'accounts-log', entityId: string): ListDefinition {
  const base = LISTS[listId]!
  return { ...base, fixedFilters: [...base.fixedFilters, { field: 'entity_id', operator: 'equals', values: [entityId] }] }
}

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
export function ConfirmAction({ intent, label, question, confirmLabel, variant = 'outline' }: { intent: string; label: string; question: string; confirmLabel: string; variant?: 'outline' | 'destructive' }) {
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

/** The tabs of an entity's sub-screens (detail, log, …), carrying the context. */
export function SubNav({ links }: { links: { to: string; label: string; current?: boolean }[] }) {
  const href = useContextHref()
  return (
    <nav className="flex flex-wrap gap-3 border-b border-slate-200 pb-2 text-sm dark:border-slate-800">
      {links.map((l) => (
        <Link key={l.to} to={href(l.to)} aria-current={l.current ? 'page' : undefined} className={l.current ? 'font-semibold underline' : 'text-blue-700 hover:underline dark:text-blue-400'}>
          {l.label}
        </Link>
      ))}
    </nav>
  )
}

/** Form errors (not tied to a field) in an alert. */
export function FormErrors({ id, errors }: { id?: string; errors?: string[] | undefined }) {
  if (!errors?.length) return null
  return (
    <div id={id} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid="form-error">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  )
}

export const yesNo = (t: TFunction, value: unknown) => (value ? t('directory:yes') : t('directory:no'))

/** The translated heading for a list column. */
export const useColumnLabels = (area: string) => {
  const { t } = useTranslation('directory')
  return (key: string) => t(`${area}.fields.${key}`, { defaultValue: t(`fields.${key}`, { defaultValue: key }) })
}
