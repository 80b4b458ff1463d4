import { useTranslation } from '#app/lib/use-translation.ts'
import { Field } from '#app/components/forms.tsx'
import { ErrorList } from '#app/components/forms.tsx'
import { Select } from '#app/components/ui/select.tsx'

export const ACCOUNT_LANGUAGES = ['en', 'es', 'ja'] as const
export const ACCOUNT_FIELDS = ['name', 'currency', 'language', 'status'] as const
export type AccountValues = { name: string; currency: string; language: string; status?: string }
type Errors = Record<string, string[] | undefined>

export function accountValues(formData: FormData, withStatus: boolean): AccountValues {
  const values: AccountValues = {
    name: String(formData.get('name') ?? '').trim(),
    currency: String(formData.get('currency') ?? '').trim().toUpperCase(),
    language: String(formData.get('language') ?? 'en'),
  }
  if (withStatus) values.status = String(formData.get('status') ?? 'active')
  return values
}

/** Checks the form before the API does; the API's own codes come back beside the same fields. */
export function checkAccount(values: AccountValues, required: string): Errors {
  const errors: Errors = {}
  if (!values.name) errors.name = [required]
  if (!/^[A-Z]{3}$/.test(values.currency)) errors.currency = [required]
  return errors
}

const selectRow = (id: string, label: string, name: string, value: string, options: { value: string; label: string }[], errors?: string[]) => (
  <div className="flex flex-col gap-1.5">
    <label htmlFor={id} className="text-sm font-medium">
      {label}
    </label>
    <Select id={id} name={name} defaultValue={value}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Select>
    <div className="min-h-4">
      <ErrorList errors={errors} />
    </div>
  </div>
)

export function AccountInputs({ values, errors, withStatus, idPrefix }: { values: AccountValues; errors: Errors; withStatus: boolean; idPrefix: string }) {
  const { t } = useTranslation(['directory', 'common'])
  return (
    <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
      <Field labelProps={{ children: t('accounts.fields.name') }} inputProps={{ id: `${idPrefix}-name`, name: 'name', defaultValue: values.name, required: true }} errors={errors.name} />
      <Field labelProps={{ children: t('accounts.fields.currency') }} inputProps={{ id: `${idPrefix}-currency`, name: 'currency', defaultValue: values.currency, required: true, maxLength: 3, placeholder: 'EUR' }} errors={errors.currency} />
      {selectRow(`${idPrefix}-language`, t('accounts.fields.language'), 'language', values.language, ACCOUNT_LANGUAGES.map((l) => ({ value: l, label: t(`common:languages.${l}`) })), errors.language)}
      {withStatus
        ? selectRow(`${idPrefix}-status`, t('accounts.fields.status'), 'status', values.status ?? 'active', ['active', 'suspended'].map((s) => ({ value: s, label: t(`accounts.status.${s}`) })), errors.status)
        : null}
    </div>
  )
}
