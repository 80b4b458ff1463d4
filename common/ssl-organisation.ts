import { z } from 'zod'
import { codedErrors, codedRules, GENERAL_WORDS, type SayCode } from './coded-schema.ts'
import { isCountryCode } from './countries.ts'
import { parsePhone, phoneErrorMessage, type PhoneError } from './phone.ts'
import { SSL_BUSINESS_CATEGORIES, SSL_CHECK_STATES, type SslBusinessCategory, type SslCheckState } from './ssl.ts'

/**
 * An OV/EV organisation's details (POST and PUT /ssl-organisations): the one statement of their
 * rules, parsed by the portal's form (conform + zod, the words in the user's language) and by the
 * Platform API's service (`codedErrors`: each field's code and English words), which stores what it
 * gives back — the phones in E.164, the countries upper case, the approver's email lower case.
 * The fields are listed in the order the API names their refusals in (`organisationErrors`).
 */
export const SSL_ORGANISATION_FIELDS = [
  'legal_name',
  'registration_number',
  'phone',
  'street1',
  'street2',
  'city',
  'region',
  'postcode',
  'country',
  'approver_name',
  'approver_email',
  'approver_phone',
  'jurisdiction_country',
  'jurisdiction_state',
  'jurisdiction_locality',
  'business_category',
  'incorporation_date',
] as const
export type SslOrganisationField = (typeof SSL_ORGANISATION_FIELDS)[number]

const PHONE_ERRORS: readonly PhoneError[] = ['phone.invalid', 'phone.missing_plus', 'phone.too_short', 'phone.too_long', 'phone.unknown_country_code']
const WORDS: Record<string, (values: { max?: number }) => string> = {
  ...GENERAL_WORDS,
  ...Object.fromEntries(PHONE_ERRORS.map((code) => [code, () => phoneErrorMessage(code)])),
  'ssl.jurisdiction-country-required': () => 'A state or locality of incorporation needs its country',
  'ssl.business-category': () => 'Choose a business category offered',
  'ssl.incorporation-future': () => 'The date of incorporation cannot be in the future',
  'ssl.check-state': () => 'Choose a state offered',
  'ssl.check-note-required': () => 'Say what the customer must do',
}

/** The English words of an organisation's refusal codes: the API's message, the portal's fallback. */
export const organisationWords: SayCode = (code, values = {}) => WORDS[code]?.(values) ?? code

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const DAY = /^\d{4}-\d{2}-\d{2}$/

export function sslOrganisationSchema(say: SayCode = organisationWords) {
  const rules = codedRules(say, [...PHONE_ERRORS, 'ssl.business-category', 'date.invalid', 'ssl.incorporation-future'])
  /** A phone as E.164 (common/phone.ts), refused with the reason it is none. */
  const phone = <Text extends z.ZodType<string, string | undefined>>(text: Text) =>
    text.transform((value, ctx) => {
      if (!value) return ''
      const parsed = parsePhone(value)
      if (parsed.ok) return parsed.e164
      rules.issue(ctx, parsed.error)
      return value
    })
  const country = (text: z.ZodString) => text.toUpperCase().refine((v) => !v || isCountryCode(v), rules.coded('country.invalid'))
  return (
    z
      .object({
        legal_name: rules.requiredText(200),
        registration_number: rules.optionalText(100),
        phone: phone(rules.requiredText()),
        street1: rules.requiredText(200),
        street2: rules.optionalText(200),
        city: rules.requiredText(100),
        region: rules.optionalText(100),
        postcode: rules.optionalText(20),
        country: country(rules.requiredText()),
        approver_name: rules.requiredText(200),
        approver_email: rules
          .requiredText(254)
          .toLowerCase()
          .refine((v) => !v || EMAIL.test(v), rules.coded('email.invalid')),
        approver_phone: phone(rules.optionalText()),
        // EV (Guidelines §7.1.4.2, decision 401): all optional for OV; a state or locality needs the country above it.
        jurisdiction_country: country(z.string().trim()).default(''),
        jurisdiction_state: rules.optionalText(100),
        jurisdiction_locality: rules.optionalText(100),
        business_category: z
          .string()
          .trim()
          .transform((value, ctx) => {
            if (value && !(SSL_BUSINESS_CATEGORIES as readonly string[]).includes(value)) rules.issue(ctx, 'ssl.business-category', { allowed: SSL_BUSINESS_CATEGORIES })
            return value as SslBusinessCategory | ''
          })
          .default(''),
        incorporation_date: z
          .string()
          .trim()
          .nullish()
          .transform((value, ctx) => {
            if (!value) return null
            const day = DAY.test(value) ? new Date(`${value}T00:00:00Z`) : null
            if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value || day.getUTCFullYear() < 1600) rules.issue(ctx, 'date.invalid')
            else if (day.getTime() > Date.now()) rules.issue(ctx, 'ssl.incorporation-future')
            return value
          }),
      })
      // Asked even when a field is refused, so that every refusal is said at once.
      .refine((v) => !!v.jurisdiction_country || !(v.jurisdiction_state || v.jurisdiction_locality), {
        ...rules.coded('ssl.jurisdiction-country-required'),
        path: ['jurisdiction_country'],
        when: (payload) => typeof payload.value === 'object' && payload.value !== null,
      })
  )
}

export type SslOrganisationInput = z.input<ReturnType<typeof sslOrganisationSchema>>
export type SslOrganisationDetails = z.output<ReturnType<typeof sslOrganisationSchema>>

/** A refused parse as the API answers it: each field's code and words, in the form's order of the fields. */
export const organisationErrors = (error: z.ZodError) => codedErrors(error, SSL_ORGANISATION_FIELDS)

/**
 * Staff mark one check of an organisation (PUT …/checks/{check}): a state offered and a note, which
 * "attention" needs (it says what the customer must do). `extra` are the form's own fields.
 */
export function sslCheckSchema<Extra extends z.ZodRawShape = Record<never, never>>(say: SayCode = organisationWords, extra?: Extra) {
  const rules = codedRules(say, ['ssl.check-state'])
  return z
    .object({
      ...(extra as Extra),
      state: z.string(rules.coded('ssl.check-state')).transform((value, ctx) => {
        if (!(SSL_CHECK_STATES as readonly string[]).includes(value)) rules.issue(ctx, 'ssl.check-state', { allowed: SSL_CHECK_STATES })
        return value as SslCheckState
      }),
      note: rules.optionalText(2000),
    })
    .refine((v) => (v as { state: string }).state !== 'attention' || !!(v as { note: string }).note, {
      ...rules.coded('ssl.check-note-required'),
      path: ['note'],
      when: (payload) => typeof payload.value === 'object' && payload.value !== null,
    })
}

/** A refused check as the API answers it. */
export const checkErrors = (error: z.ZodError) => codedErrors(error, ['state', 'note'])
