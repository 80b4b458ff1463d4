/** The sign-in pages' own control styles (the clean layout); their fields and errors are app/components/forms.tsx's. */
export const inputClass =
  'mt-1 block w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-slate-900 aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100'
export const buttonClass = 'w-full rounded bg-blue-700 px-3 py-2 font-medium text-white hover:bg-blue-800 disabled:opacity-60'
export const secondaryButtonClass = 'w-full rounded border border-slate-300 px-3 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800'
