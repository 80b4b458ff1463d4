import { useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { useId } from 'react'
import { constraintOf, withConstraints } from './field-props.ts'
import type { z } from 'zod'
import { cn } from '#app/lib/utils.ts'
import { Input } from './ui/input.tsx'
import { Label } from './ui/label.tsx'
import { Select } from './ui/select.tsx'

/**
 * The one way a form is wired (conform + zod): checked in the browser on submit and again as the
 * person corrects it (a form may say otherwise), with the same schema the action parses; `lastResult` brings back the
 * action's answer (its field errors, a refusal beside its field) with what was typed.
 */
export function useZodForm<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  options: Pick<ZodFormOptions<Schema>, 'id' | 'lastResult' | 'defaultValue'> & Partial<Pick<ZodFormOptions<Schema>, 'constraint' | 'shouldValidate' | 'shouldRevalidate'>>,
) {
  const constraint = options.constraint ?? constraintOf(schema)
  const [form, fields] = useForm<FormShape<Schema>, z.output<Schema>, string[]>({
    shouldValidate: 'onSubmit',
    shouldRevalidate: options.shouldValidate ?? 'onInput',
    ...options,
    constraint,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  })
  // The fields answer their ids and constraint themselves: field-props.ts.
  return [form, withConstraints(fields, form.id, constraint)] as const
}

// `any`, not `unknown`: conform reads an unknown value as a string, so a field list (an array) could not be given a default value.
type FormShape<Schema extends z.ZodType<Record<string, unknown>>> = z.input<Schema> & Record<string, any>
type ZodFormOptions<Schema extends z.ZodType<Record<string, unknown>>> = Parameters<typeof useForm<FormShape<Schema>, z.output<Schema>, string[]>>[0]

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

/** The errors of a whole form (a refusal naming no field of it): the page's alert above the form. */
export function FormErrors({ id, errors, testId = 'form-error' }: { id?: string; errors?: string[] | undefined; testId?: string }) {
  if (!errors?.length) return null
  return (
    <div id={id} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200" data-testid={testId}>
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  )
}

/** A labelled input with its errors: aria-invalid and aria-describedby set when it has errors. */
export function Field({
  labelProps,
  inputProps,
  errors,
  className,
}: {
  labelProps: React.ComponentProps<'label'>
  inputProps: React.ComponentProps<'input'>
  errors?: ListOfErrors
  className?: string
}) {
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

/** A label around any control (a select, a bare input with its own classes), with the field's errors below it. */
export function LabelledField({ label, errors, errorId, children }: { label: string; errors?: ListOfErrors; errorId?: string; children: React.ReactNode }) {
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

/** A labelled select with its errors: aria-invalid and aria-describedby set when it has errors. */
export function SelectField({
  label,
  selectProps,
  errors,
  children,
}: {
  label: React.ReactNode
  selectProps: React.ComponentProps<'select'> & { id: string }
  errors?: ListOfErrors
  children: React.ReactNode
}) {
  const errorId = errors?.length ? `${selectProps.id}-error` : undefined
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={selectProps.id} className="text-sm font-medium">
        {label}
      </label>
      <Select {...selectProps} aria-invalid={errorId ? true : undefined} aria-describedby={errorId}>
        {children}
      </Select>
      <div className="min-h-4">
        <ErrorList id={errorId} errors={errors} />
      </div>
    </div>
  )
}
