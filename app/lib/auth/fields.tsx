import type { ReactNode } from 'react'

/** A labelled input with its error list wired through aria-invalid / aria-describedby. */
export function Field({ label, errors, errorId, children }: { label: string; errors?: string[] | undefined; errorId?: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label className="block text-sm font-medium">
        <span>{label}</span>
        {children}
      </label>
      <ErrorList id={errorId} errors={errors} />
    </div>
  )
}

export function ErrorList({ id, errors }: { id?: string | undefined; errors?: string[] | undefined }) {
  if (!errors?.length) return null
  return (
    <ul id={id} className="text-sm text-red-700 dark:text-red-400">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  )
}

export const inputClass =
  'mt-1 block w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-slate-900 aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100'
export const buttonClass = 'w-full rounded bg-blue-700 px-3 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60'
export const secondaryButtonClass =
  'w-full rounded border border-slate-300 px-3 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800'
