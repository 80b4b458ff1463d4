import { useId } from 'react'
import { cn } from '#app/lib/utils.ts'
import { Input } from './ui/input.tsx'
import { Label } from './ui/label.tsx'

export type ListOfErrors = Array<string | null | undefined> | null | undefined

/** The errors of a field or form, wired to inputs through aria-describedby. */
export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter(Boolean)
  if (!shown?.length) return null
  return (
    <ul id={id} className="flex flex-col gap-1">
      {shown.map((e) => (
        <li key={e} className="text-xs text-red-700 dark:text-red-400" data-testid="field-error">
          {e}
        </li>
      ))}
    </ul>
  )
}

/** A labelled input with its errors: aria-invalid and aria-describedby set when it has errors. */
export function Field({ labelProps, inputProps, errors, className }: { labelProps: React.ComponentProps<'label'>; inputProps: React.ComponentProps<'input'>; errors?: ListOfErrors; className?: string }) {
  const fallbackId = useId()
  const id = inputProps.id ?? fallbackId
  const errorId = errors?.length ? `${id}-error` : undefined
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id} {...labelProps} />
      <Input id={id} aria-invalid={errorId ? true : undefined} aria-describedby={errorId} {...inputProps} />
      <div className="min-h-4">{errorId ? <ErrorList id={errorId} errors={errors} /> : null}</div>
    </div>
  )
}
