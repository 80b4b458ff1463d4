import type { TFunction } from 'i18next'
import { z } from 'zod'
import { INVOICE_LANGUAGES, PAYMENT_KINDS, VAT_EXAMPLES, normaliseVatId, vatIdFits } from '#common/billing.ts'
import { unless } from '#app/lib/form-messages.ts'

/**
 * The billing screens' forms (issue 18), one zod schema each for conform: the browser checks what
 * it can say at once, the action parses the same schema and the API checks the rest (a refusal
 * comes back beside its field through `formErrorsOf`). Every message in the user's language: the
 * API's own codes' words (`billing:errors.billing.*`) where the form says the same thing first.
 */
function pieces(t: TFunction) {
  const required = t('validation:required')
  const code = (key: string, values: Record<string, unknown> = {}) => t(`billing:errors.billing.${key}`, values)
  const text = (max: number) => z.string({ error: required }).trim().min(1, required).max(max, t('validation:maxLength', { max }))
  const optional = (max: number) => z.string().trim().max(max, t('validation:maxLength', { max })).optional()
  const money = z
    .string({ error: required })
    .trim()
    .max(40, t('validation:maxLength', { max: 40 }))
    .regex(/^-?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/, t('billing:errors.invalidMonetaryValue'))
  const currency = z
    .string({ error: required })
    .trim()
    .regex(/^[A-Za-z]{3}$/, t('validation:format'))
    .transform((c) => c.toUpperCase())
  return { required, code, text, optional, money, currency }
}

/** A billing entity: new (with its credit limit) or edited. */
export function entitySchema(t: TFunction, withCredit: boolean) {
  const { code, text, optional, money, currency } = pieces(t)
  return z
    .object({
      name: text(200),
      country: z
        .string({ error: t('validation:required') })
        .trim()
        .regex(/^[A-Za-z]{2}$/, t('validation:format'))
        .transform((c) => c.toUpperCase()),
      vat_id: z
        .string()
        .trim()
        .max(40, t('validation:maxLength', { max: 40 }))
        .transform(normaliseVatId)
        .optional(),
      currency,
      billing_email: z
        .string({ error: t('validation:required') })
        .trim()
        .pipe(z.email(t('validation:email'))),
      invoice_language: z.enum(INVOICE_LANGUAGES, { error: code('invoice_language') }),
      payment_terms_days: z.coerce
        .number({ error: code('payment_terms') })
        .int(code('payment_terms'))
        .min(0, code('payment_terms'))
        .max(365, code('payment_terms'))
        .optional(),
      credit_limit: withCredit ? money.optional() : z.undefined().optional(),
      street1: optional(200),
      street2: optional(200),
      city: optional(200),
      state: optional(200),
      postcode: optional(40),
      version: z.coerce.number().int().optional(),
    })
    .refine((value) => !value.vat_id || vatIdFits(value.country, value.vat_id), {
      // The shape of the country's VAT ids (common/billing.ts), the one the API checks; said with the other fields' errors.
      path: ['vat_id'],
      when: unless(['country', 'vat_id']),
      error: (issue) => {
        const country = String((issue.input as { country?: string }).country ?? '')
        return code('vat_id_shape', { country, example: VAT_EXAMPLES[country] ?? '' })
      },
    })
}
export type EntityForm = z.output<ReturnType<typeof entitySchema>>
export const ENTITY_FIELDS = [
  'name',
  'country',
  'vat_id',
  'currency',
  'billing_email',
  'invoice_language',
  'payment_terms_days',
  'credit_limit',
  'street1',
  'street2',
  'city',
  'state',
  'postcode',
] as const

/** The form's values as the API's body: the address as one object, empty parts left out. */
export function entityBody(value: EntityForm) {
  const address = Object.fromEntries((['street1', 'street2', 'city', 'state', 'postcode'] as const).flatMap((k) => (value[k] ? [[k, value[k]]] : [])))
  return {
    name: value.name,
    country: value.country,
    vat_id: value.vat_id || null,
    currency: value.currency,
    billing_email: value.billing_email,
    invoice_language: value.invoice_language,
    ...(value.payment_terms_days === undefined ? {} : { payment_terms_days: value.payment_terms_days }),
    ...(value.credit_limit ? { credit_limit: value.credit_limit } : {}),
    address,
  }
}

/**
 * A payment or an adjustment. `held`: the currencies the entity holds, known on its page (the
 * browser says a wrong one at once); the action leaves that to the API, which says the same.
 */
export function paymentSchema(t: TFunction, held?: readonly string[]) {
  const { code, optional, money, currency } = pieces(t)
  return z
    .object({ kind: z.enum(PAYMENT_KINDS), currency, amount: money, reference: optional(200), reason: optional(500) })
    .refine((value) => !held || held.includes(value.currency), { path: ['currency'], when: unless(['currency']), error: code('wrong_currency', { held: held?.join(', ') ?? '' }) })
    .refine((value) => value.kind !== 'adjustment' || Boolean(value.reason), { path: ['reason'], when: unless(['kind', 'reason']), error: code('reason_required') })
}
export const PAYMENT_FIELDS = ['kind', 'currency', 'amount', 'reference', 'reason'] as const

/** A currency's credit limit and low-balance threshold. */
export function termsSchema(t: TFunction) {
  const { money, currency } = pieces(t)
  return z.object({ currency, credit_limit: money.optional(), low_balance: money.optional() })
}
export const TERMS_FIELDS = ['currency', 'credit_limit', 'low_balance'] as const

/** The monthly invoice run of a month (YYYY-MM; the API refuses one not over, or run already). */
export function runSchema(t: TFunction) {
  const invalid = t('billing:errors.billing.period_invalid')
  return z.object({
    period: z
      .string({ error: invalid })
      .trim()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/, invalid),
  })
}

/** A country's tax rate in the table staff keep. */
export function taxSchema(t: TFunction) {
  const rate = t('billing:errors.billing.tax_rate')
  return z.object({
    country: z
      .string({ error: t('validation:required') })
      .trim()
      .regex(/^[A-Za-z]{2}$/, t('validation:format'))
      .transform((c) => c.toUpperCase()),
    rate_percent: z
      .string({ error: rate })
      .trim()
      .regex(/^\d{1,2}(\.\d{1,2})?$/, rate)
      .transform(Number),
  })
}

/** A refund of a settled transaction: never without its reason. */
export function refundSchema(t: TFunction) {
  const reason = t('billing:errors.billing.reason_required')
  return z.object({
    reason: z
      .string({ error: reason })
      .trim()
      .min(1, reason)
      .max(500, t('validation:maxLength', { max: 500 })),
  })
}

/** An account the entity is to pay for (the one-button removes beside each account read their id directly). */
export function addAccountSchema(t: TFunction) {
  return z.object({ account_id: z.uuid({ error: t('validation:required') }) })
}
