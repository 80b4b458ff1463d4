import { type FieldMetadata } from '@conform-to/react'
import { getInputProps } from '#app/components/field-props.ts'
import type { TFunction } from 'i18next'
import { useTranslation } from '#app/lib/use-translation.ts'
import { z } from 'zod'
import { Field, SelectField } from '#app/components/forms.tsx'
import { formRules } from '#app/lib/form-messages.ts'
import type { Schema } from '#app/lib/platform-api.ts'

export const CONTACT_FIELDS = ['name', 'organisation', 'email', 'phone', 'mobile', 'fax', 'street1', 'street2', 'street3', 'city', 'state', 'postcode', 'country_code'] as const
export const PHONE_FIELDS = ['phone', 'mobile', 'fax'] as const

const optional = (max: number) => z.string().trim().max(max).optional()

/** The contact form; phones and country are checked by the Platform API (E.164 normalising). */
export function contactSchema(t: TFunction) {
  const rules = formRules(t)
  return z.object({
    name: rules.requiredText(200),
    organisation: optional(200),
    email: rules.email(),
    phone: optional(40),
    mobile: optional(40),
    fax: optional(40),
    street1: optional(200),
    street2: optional(200),
    street3: optional(200),
    city: optional(200),
    state: optional(200),
    postcode: optional(40),
    country_code: z.string({ error: t('validation:required') }).regex(/^[A-Z]{2}$/, t('validation:required')),
  })
}

export type ContactValues = z.infer<ReturnType<typeof contactSchema>>

/** The API body: empty phones are null (none), other empty texts are ''. */
export function contactBody(values: ContactValues, creating: boolean): Schema<'CreateContact'> {
  const out: Record<string, string | null> = {}
  for (const key of CONTACT_FIELDS) {
    const value = values[key] ?? ''
    if ((PHONE_FIELDS as readonly string[]).includes(key)) {
      if (value) out[key] = value
      else if (!creating) out[key] = null
    } else if (value || !creating) out[key] = value
  }
  // name, email and country_code are required by the form's schema, so always present.
  return out as Schema<'CreateContact'>
}

type Fields = { [K in (typeof CONTACT_FIELDS)[number]]: FieldMetadata<string | undefined, any, string[]> }

/** The inputs of a contact, each with its localised errors. */
export function ContactInputs({ fields, countries }: { fields: Fields; countries: { code: string; name: string }[] }) {
  const { t } = useTranslation('directory')
  const text = (key: Exclude<(typeof CONTACT_FIELDS)[number], 'country_code'>, type: 'text' | 'email' | 'tel' = 'text') => (
    <Field
      key={key}
      labelProps={{ children: t(`contacts.fields.${key}`) }}
      inputProps={{ ...getInputProps(fields[key], { type }), ...(type === 'tel' ? { placeholder: '+34 600 123 456' } : {}), 'data-testid': `contact-${key}` } as React.ComponentProps<'input'>}
      errors={fields[key].errors}
    />
  )
  const country = fields.country_code
  return (
    <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-2">
      {text('name')}
      {text('organisation')}
      {text('email', 'email')}
      {text('phone', 'tel')}
      {text('mobile', 'tel')}
      {text('fax', 'tel')}
      {text('street1')}
      {text('street2')}
      {text('street3')}
      {text('city')}
      {text('state')}
      {text('postcode')}
      <SelectField
        label={t('contacts.fields.country_code')}
        selectProps={{ id: country.id, name: country.name, defaultValue: country.initialValue ?? '', 'data-testid': 'contact-country_code' } as React.ComponentProps<'select'> & { id: string }}
        errors={country.errors}
        key={country.key}
      >
        <option value="">{t('contacts.chooseCountry')}</option>
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {c.name}
          </option>
        ))}
      </SelectField>
    </div>
  )
}
