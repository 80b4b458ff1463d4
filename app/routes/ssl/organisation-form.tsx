import { getFormProps, type FieldMetadata, type SubmissionResult } from '@conform-to/react'
import { getInputProps, getSelectProps } from '#app/components/field-props.ts'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { Form } from 'react-router'
import { Field, FormErrors, SelectField, useZodForm } from '#app/components/forms.tsx'
import { sayCodes } from '#app/lib/coded-words.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { SSL_BUSINESS_CATEGORIES } from '#common/ssl.ts'
import { organisationWords, SSL_ORGANISATION_FIELDS, sslOrganisationSchema, type SslOrganisationField } from '#common/ssl-organisation.ts'
import type { Schema } from '#app/lib/platform-api.ts'

/** The organisation form's rules: the API's own (common/ssl-organisation.ts), said in the user's language beside each field. */
export const organisationSchema = (t: TFunction) => sslOrganisationSchema(sayCodes(t, 'ssl', organisationWords))
export type OrganisationValues = z.output<ReturnType<typeof organisationSchema>>

/** The body the API takes: every field as the form made it (empty clears it). */
/** The API body: every field of the validated form ('' where left empty). */
export const organisationBody = (v: OrganisationValues) => Object.fromEntries(SSL_ORGANISATION_FIELDS.map((k) => [k, v[k] ?? ''])) as Schema<'SslOrganisationInput'>

/**
 * The organisation's form, to add one (/ssls/organisations/new) or change its details
 * (/ssls/organisations/{id}/edit), each in a sheet whose footer holds its submit (`form="<id>"`):
 * the API's rules checked as typed, a refusal beside its field, nothing typed lost. `children` are
 * the form's hidden inputs (the version read).
 */
export function OrganisationForm({
  id,
  prefix,
  countries,
  lastResult,
  defaultValue,
  children,
}: {
  id: string
  prefix: string
  countries: { code: string; name: string }[]
  lastResult: SubmissionResult<string[]> | undefined
  defaultValue?: Record<SslOrganisationField, string>
  children?: React.ReactNode
}) {
  const { t } = useTranslation('ssl')
  const [form, fields] = useZodForm(organisationSchema(t), { id, lastResult, defaultValue })
  return (
    <Form method="post" className="space-y-3" {...getFormProps(form)}>
      {children}
      <FormErrors id={form.errorId} errors={form.errors} />
      <OrganisationFields fields={fields} countries={countries} prefix={prefix} />
    </Form>
  )
}

/** The inputs of the organisation form: legal identity, address, phone, approver, EV. */
function OrganisationFields({
  fields,
  countries,
  prefix,
}: {
  fields: Record<SslOrganisationField, FieldMetadata<string | null | undefined>>
  countries: { code: string; name: string }[]
  prefix: string
}) {
  const { t } = useTranslation('ssl')
  const text = (name: Exclude<SslOrganisationField, 'country' | 'jurisdiction_country' | 'business_category'>, type: 'text' | 'email' | 'tel' | 'date' = 'text', className?: string) => (
    <Field
      className={className}
      labelProps={{ children: t(`organisations.fields.${name}`) }}
      inputProps={{ ...getInputProps(fields[name], { type }), id: `${prefix}-${name}`, autoComplete: 'off' }}
      errors={fields[name].errors}
    />
  )
  const country = (name: 'country' | 'jurisdiction_country') => (
    <SelectField label={t(`organisations.fields.${name}`)} selectProps={{ ...getSelectProps(fields[name]), id: `${prefix}-${name}` }} errors={fields[name].errors}>
      <option value="">{t('organisations.chooseCountry')}</option>
      {countries.map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </SelectField>
  )
  return (
    <div className="space-y-4">
      <fieldset className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t('organisations.identity')}</legend>
        {text('legal_name')}
        {text('registration_number')}
        {text('phone', 'tel')}
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t('organisations.address')}</legend>
        {text('street1')}
        {text('street2')}
        {text('city')}
        {text('region')}
        {text('postcode')}
        {country('country')}
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold">{t('organisations.approver')}</legend>
        <p className="mb-2 text-xs text-slate-500 sm:col-span-2 dark:text-slate-400">{t('organisations.approverHelp')}</p>
        {text('approver_name')}
        {text('approver_email', 'email')}
        {text('approver_phone', 'tel')}
      </fieldset>
      <fieldset className="grid grid-cols-1 gap-x-4 sm:grid-cols-2" data-testid="ssl-organisation-ev">
        <legend className="mb-2 text-sm font-semibold">{t('organisations.ev')}</legend>
        <p className="mb-2 text-xs text-slate-500 sm:col-span-2 dark:text-slate-400">{t('organisations.evHelp')}</p>
        <SelectField
          label={t('organisations.fields.business_category')}
          selectProps={{ ...getSelectProps(fields.business_category), id: `${prefix}-business_category` }}
          errors={fields.business_category.errors}
        >
          <option value="">{t('organisations.chooseCategory')}</option>
          {SSL_BUSINESS_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(`organisations.categories.${c}`)}
            </option>
          ))}
        </SelectField>
        {text('incorporation_date', 'date')}
        {country('jurisdiction_country')}
        {text('jurisdiction_state')}
        {text('jurisdiction_locality')}
      </fieldset>
    </div>
  )
}
