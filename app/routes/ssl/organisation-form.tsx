import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { Field, SelectField } from '#app/components/forms.tsx'
import { formRules } from '#app/lib/form-messages.ts'
import { useTranslation } from '#app/lib/use-translation.ts'
import { SSL_BUSINESS_CATEGORIES } from '#common/ssl.ts'

/** The details of an OV/EV organisation, as the API takes them (POST and PUT /ssl-organisations). */
export const ORGANISATION_FIELDS = [
  'legal_name',
  'registration_number',
  'street1',
  'street2',
  'city',
  'region',
  'postcode',
  'country',
  'phone',
  'approver_name',
  'approver_email',
  'approver_phone',
  'jurisdiction_country',
  'jurisdiction_state',
  'jurisdiction_locality',
  'business_category',
  'incorporation_date',
] as const

const optional = (t: TFunction, max: number) => z.string().trim().max(max, t('validation:maxLength', { max })).optional()

/** The form's rules; the API checks them again, and the phones and the country besides (their errors come back beside the field). */
export function organisationSchema(t: TFunction) {
  const rules = formRules(t)
  return z
    .object({
      legal_name: rules.requiredText(200),
      registration_number: optional(t, 100),
      street1: rules.requiredText(200),
      street2: optional(t, 200),
      city: rules.requiredText(100),
      region: optional(t, 100),
      postcode: optional(t, 20),
      country: rules.requiredText(2),
      phone: rules.requiredText(40),
      approver_name: rules.requiredText(200),
      approver_email: rules.email(),
      approver_phone: optional(t, 40),
      // EV (decision 401): optional for OV; a state or locality needs the country, the date is a past day.
      jurisdiction_country: optional(t, 2),
      jurisdiction_state: optional(t, 100),
      jurisdiction_locality: optional(t, 100),
      business_category: z.enum(['', ...SSL_BUSINESS_CATEGORIES], { error: t('ssl:errors.ssl.business-category') }).optional(),
      incorporation_date: z
        .string()
        .trim()
        .optional()
        .refine((v) => !v || isDay(v), t('ssl:errors.date.invalid'))
        .refine((v) => !v || !isDay(v) || v <= new Date().toISOString().slice(0, 10), t('ssl:errors.ssl.incorporation-future')),
    })
    .superRefine((v, ctx) => {
      if (!v.jurisdiction_country && (v.jurisdiction_state || v.jurisdiction_locality))
        ctx.addIssue({ code: 'custom', path: ['jurisdiction_country'], message: t('ssl:errors.ssl.jurisdiction-country-required') })
    })
}

/** A calendar day as YYYY-MM-DD (2020-02-30 is none). */
const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v
export type OrganisationValues = z.infer<ReturnType<typeof organisationSchema>>

/** The body the API takes: optional fields sent as typed (empty clears them). */
export const organisationBody = (v: OrganisationValues) => Object.fromEntries(ORGANISATION_FIELDS.map((k) => [k, v[k] ?? '']))

/** The inputs of the organisation form: legal identity, address, phone, approver. */
export function OrganisationFields({
  fields,
  countries,
  prefix,
}: {
  fields: Record<(typeof ORGANISATION_FIELDS)[number], FieldMetadata<string | undefined>>
  countries: { code: string; name: string }[]
  prefix: string
}) {
  const { t } = useTranslation('ssl')
  const text = (
    name: Exclude<(typeof ORGANISATION_FIELDS)[number], 'country' | 'jurisdiction_country' | 'business_category'>,
    type: 'text' | 'email' | 'tel' | 'date' = 'text',
    className?: string,
  ) => (
    <Field
      className={className}
      labelProps={{ children: t(`organisations.fields.${name}`) }}
      inputProps={{ ...getInputProps(fields[name], { type }), id: `${prefix}-${name}`, autoComplete: 'off' }}
      errors={fields[name].errors}
    />
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
        <SelectField label={t('organisations.fields.country')} selectProps={{ ...getSelectProps(fields.country), id: `${prefix}-country` }} errors={fields.country.errors}>
          <option value="">{t('organisations.chooseCountry')}</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
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
        <SelectField
          label={t('organisations.fields.jurisdiction_country')}
          selectProps={{ ...getSelectProps(fields.jurisdiction_country), id: `${prefix}-jurisdiction_country` }}
          errors={fields.jurisdiction_country.errors}
        >
          <option value="">{t('organisations.chooseCountry')}</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
        {text('jurisdiction_state')}
        {text('jurisdiction_locality')}
      </fieldset>
    </div>
  )
}
