import { getFormProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import type { TFunction } from 'i18next'
import { Form } from 'react-router'
import { z } from 'zod'
import { Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { formRules } from '#app/lib/form-messages.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { ACCOUNT_STATUSES } from '#common/lists/directory.ts'
import { UI_LANGUAGES } from '#common/vocabulary.ts'

export const ACCOUNT_FIELDS = ['name', 'currency', 'language', 'status'] as const

/** The account form (create and edit); the API's own codes come back beside the same fields. */
export function accountSchema(t: TFunction) {
  const rules = formRules(t)
  return z.object({
    name: rules.requiredText(),
    currency: z
      .string({ error: t('validation:required') })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{3}$/, t('validation:required')),
    language: z.enum(UI_LANGUAGES, { error: t('validation:required') }).default('en'),
    /** Staff only: others' posts leave it out. */
    status: z.enum(ACCOUNT_STATUSES).optional(),
  })
}

export type AccountValues = z.infer<ReturnType<typeof accountSchema>>

/** The body the API takes: the status only from staff. */
export const accountBody = ({ status, ...rest }: AccountValues, withStatus: boolean) => (withStatus ? { ...rest, status: status ?? 'active' } : rest)

/** A select of the account form, its options as value and label. */
function Choice({ field, id, label, options }: { field: FieldMetadata<string | undefined>; id: string; label: string; options: { value: string; label: string }[] }) {
  return (
    <SelectField label={label} selectProps={{ ...getSelectProps(field), id }} errors={field.errors} key={field.key}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </SelectField>
  )
}

/** The account's form, validated with the same schema in the browser and in the action. */
export function AccountForm({
  idPrefix,
  defaultValue,
  lastResult,
  withStatus,
  submitLabel,
  submitTestId,
  submitInFooter = false,
  children,
}: {
  idPrefix: string
  defaultValue: Partial<AccountValues>
  lastResult: SubmissionResult<string[]> | undefined
  withStatus: boolean
  submitLabel: string
  submitTestId?: string
  /** In a sheet, whose footer holds the submit button (`form={idPrefix}`). */
  submitInFooter?: boolean
  /** Hidden inputs (the version an edit was made from). */
  children?: React.ReactNode
}) {
  const { t } = useTranslation(['directory', 'common'])
  const schema = accountSchema(t)
  const [form, fields] = useZodForm(schema, { id: idPrefix, lastResult, defaultValue })
  return (
    <Form method="post" className="space-y-2" {...getFormProps(form)}>
      {children}
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        <Field labelProps={{ children: t('accounts.fields.name') }} inputProps={{ ...getInputProps(fields.name, { type: 'text' }), id: `${idPrefix}-name` }} errors={fields.name.errors} />
        <Field
          labelProps={{ children: t('accounts.fields.currency') }}
          inputProps={{ ...getInputProps(fields.currency, { type: 'text' }), id: `${idPrefix}-currency`, maxLength: 3, placeholder: 'EUR' }}
          errors={fields.currency.errors}
        />
        <Choice field={fields.language} id={`${idPrefix}-language`} label={t('accounts.fields.language')} options={UI_LANGUAGES.map((l) => ({ value: l, label: t(`common:languages.${l}`) }))} />
        {withStatus ? (
          <Choice field={fields.status} id={`${idPrefix}-status`} label={t('accounts.fields.status')} options={ACCOUNT_STATUSES.map((s) => ({ value: s, label: t(`accounts.status.${s}`) }))} />
        ) : null}
      </div>
      {submitInFooter ? null : (
        <Button type="submit" {...(submitTestId ? { 'data-testid': submitTestId } : {})}>
          {submitLabel}
        </Button>
      )}
    </Form>
  )
}
