import type { TFunction } from 'i18next'
import { z } from 'zod'
import { unless } from '#app/lib/form-messages.ts'
import { isCurrencyCode, isMonetaryValue } from '#common/money.ts'
import { PRICING_RULE_KINDS, PRODUCT_KINDS, ROUNDING_MODES, RULE_NAME } from '#common/pricing.ts'
import type { Schema } from '#app/lib/platform-api.ts'

/**
 * The price lists' form (conform + zod, as the billing forms): a new list (name, currencies) and an
 * edited one (with its notice days and, once, "make default"). The currencies are typed as one text
 * ("EUR, USD") and sent as their list.
 */
export function pricingEntitySchema(t: TFunction) {
  const required = t('validation:required')
  const currencies = z
    .string({ error: t('pricing:errors.currency.invalid') })
    .transform((text) => [
      ...new Set(
        text
          .toUpperCase()
          .split(/[\s,]+/)
          .filter(Boolean),
      ),
    ])
    .refine((list) => list.length > 0 && list.every((c) => /^[A-Z]{3}$/.test(c)), t('pricing:errors.currency.invalid'))
  return z.object({
    name: z
      .string({ error: required })
      .trim()
      .min(1, required)
      .max(200, t('validation:maxLength', { max: 200 })),
    currencies,
  })
}

/** An edited price list: its notice days, "make default" (once), and the version it was read at. */
export function editPricingEntitySchema(t: TFunction) {
  const notice = t('pricing:errors.notice_days')
  return pricingEntitySchema(t).extend({
    notice_days: z.coerce.number({ error: notice }).int(notice).min(0, notice).max(365, notice),
    is_default: z.boolean().optional(),
    version: z.coerce.number().int(),
  })
}
export const PRICING_ENTITY_FIELDS = ['name', 'currencies', 'notice_days', 'is_default'] as const

const PERCENT_KINDS: readonly string[] = ['margin', 'minimum-margin']
const AMOUNT_KINDS: readonly string[] = ['markup', 'fixed', 'promotion']

/** A margin as the API takes it: a percentage above -100 (up to 10 000), two decimals at most; else null. */
export function percentOf(text: string | undefined): number | null {
  if (!text || !/^-?\d+([.,]\d{1,2})?$/.test(text)) return null
  const percent = Number(text.replace(',', '.'))
  return percent > -100 && percent <= 10_000 ? percent : null
}

/** Volume tiers typed as "10:5, 100:10" (quantity from 2, 0–100 % off); else null. */
export function tiersOf(text: string | undefined): { min_quantity: number; percent_off: number }[] | null {
  const tiers = (text ?? '')
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((pair) => {
      const [q, p] = pair.split(':')
      return { min_quantity: Number(q), percent_off: Number(p) }
    })
  return tiers.length && tiers.every((x) => Number.isInteger(x.min_quantity) && x.min_quantity >= 2 && x.percent_off > 0 && x.percent_off < 100) ? tiers : null
}

/** A selector's list typed as one text ("com, .net shop"): lowercase, no leading dot, once each. */
const listOf = (text: string | undefined) => [
  ...new Set(
    (text ?? '')
      .split(/[\s,]+/)
      .map((s) => s.trim().toLowerCase().replace(/^\./, ''))
      .filter(Boolean),
  ),
]

/**
 * A pricing rule window (issue 17, spec §5): new, another window of a rule, or a window changed.
 * The fields a kind reads are checked for that kind — a margin's percentage, a price's amount and
 * currency, a rounding's mode, a volume's tiers — as the API checks them, each beside its field;
 * the API's own refusals (below cost without a reason, an overlapping window, a taken name) come
 * back beside theirs. `custom`: the products are chosen by a selector (else the product is the
 * page's); `entity`: the rule is a price list's, which it names.
 */
export function ruleSchema(t: TFunction, { custom, entity }: { custom: boolean; entity: boolean }) {
  const code = (key: string) => t(`pricing:errors.pricing_rule.${key}`)
  const optional = (max: number) => z.string().trim().max(max, t('validation:maxLength', { max })).optional()
  const day = z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, code('date_invalid'))
    .refine((d) => !Number.isNaN(Date.parse(d)), code('date_invalid'))
    .optional()
  const is = (kinds: readonly string[]) => (v: { kind: string }) => kinds.includes(v.kind)
  return z
    .object({
      intent: z.enum(['preview', 'save']).default('save'),
      window_id: z.uuid().optional(),
      version: z.coerce.number().int().optional(),
      rule_name: z
        .string({ error: code('name_invalid') })
        .trim()
        .toLowerCase()
        .max(80, t('validation:maxLength', { max: 80 }))
        .regex(RULE_NAME, code('name_invalid')),
      pricing_entity_id: entity ? z.uuid({ error: t('validation:required') }) : z.undefined().optional(),
      product_id: custom ? z.undefined().optional() : z.uuid({ error: t('pricing:errors.product.not_found') }),
      kinds: z.array(z.enum(PRODUCT_KINDS)).optional(),
      actions: optional(400),
      tlds: optional(20_000),
      tags: optional(800),
      kind: z.enum(PRICING_RULE_KINDS, { error: code('kind_invalid') }),
      percent: optional(20),
      amount: optional(40),
      currency: z.string().trim().toUpperCase().optional(),
      mode: z.string().optional(),
      first_year_only: z.boolean().optional(),
      tiers: optional(2000),
      starts_at: day,
      ends_at: day,
      below_cost_reason: optional(500),
    })
    .refine((v) => !custom || Boolean(v.kinds?.length || listOf(v.actions).length || listOf(v.tlds).length || listOf(v.tags).length), {
      path: ['kinds'],
      when: unless(['kinds', 'actions', 'tlds', 'tags']),
      error: code('selector_empty'),
    })
    .refine((v) => !is(PERCENT_KINDS)(v) || percentOf(v.percent) !== null, { path: ['percent'], when: unless(['kind', 'percent']), error: code('percent_invalid') })
    .refine((v) => !is(AMOUNT_KINDS)(v) || isCurrencyCode(v.currency ?? ''), { path: ['currency'], when: unless(['kind', 'currency']), error: t('pricing:errors.currency.invalid') })
    .refine((v) => !is(AMOUNT_KINDS)(v) || (isMonetaryValue(v.amount, isCurrencyCode(v.currency ?? '') ? v.currency : 'EUR') && !v.amount?.startsWith('-')), {
      // Spec §5: the money format, no decimals in JPY.
      path: ['amount'],
      when: unless(['kind', 'amount']),
      error: t('validation:invalidMonetaryValue'),
    })
    .refine((v) => v.kind !== 'rounding' || (ROUNDING_MODES as readonly string[]).includes(v.mode ?? ''), { path: ['mode'], when: unless(['kind', 'mode']), error: code('mode_invalid') })
    .refine((v) => v.kind !== 'volume' || tiersOf(v.tiers) !== null, { path: ['tiers'], when: unless(['kind', 'tiers']), error: code('tiers_invalid') })
    .refine((v) => !v.starts_at || !v.ends_at || v.starts_at < v.ends_at, { path: ['ends_at'], when: unless(['starts_at', 'ends_at']), error: code('window_invalid') })
    .refine((v) => v.kind !== 'promotion' || Boolean(v.ends_at), { path: ['ends_at'], when: unless(['kind', 'ends_at']), error: code('promotion_end') })
}
export type RuleForm = z.output<ReturnType<typeof ruleSchema>>
/** The fields of the form an API refusal can be beside (`selector` is the products' checkboxes). */
export const RULE_FIELDS = ['rule_name', 'pricing_entity_id', 'kinds', 'kind', 'percent', 'amount', 'currency', 'mode', 'tiers', 'starts_at', 'ends_at', 'below_cost_reason'] as const
export const RULE_ALIAS = { selector: 'kinds' }

/** The form's values as the API's rule body: the fields its kind reads. */
export function ruleBody(v: RuleForm): Schema<'PricingRuleInput'> {
  const body: Record<string, unknown> = { rule_name: v.rule_name, kind: v.kind, starts_at: v.starts_at ?? null, ends_at: v.ends_at ?? null }
  if (v.pricing_entity_id) body.pricing_entity_id = v.pricing_entity_id
  if (v.product_id) body.product_id = v.product_id
  else body.selector = { kinds: v.kinds ?? [], actions: listOf(v.actions), tlds: listOf(v.tlds), tags: listOf(v.tags) }
  if (PERCENT_KINDS.includes(v.kind)) body.percent = percentOf(v.percent)
  if (AMOUNT_KINDS.includes(v.kind)) Object.assign(body, { amount: v.amount, currency: v.currency }, v.kind === 'promotion' ? { first_year_only: Boolean(v.first_year_only) } : {})
  if (v.kind === 'rounding') body.mode = v.mode
  if (v.kind === 'volume') body.tiers = tiersOf(v.tiers)
  if (v.below_cost_reason) body.below_cost_reason = v.below_cost_reason
  // Built field by field from the validated form: the rule's shape as the API takes it.
  return body as Schema<'PricingRuleInput'>
}

/**
 * An exchange rate staff keep (decision 103, on a TLD's page): one unit of `from` (the TLD's
 * currency) in `to`, another ISO 4217 currency, at a positive rate (below 10⁹, as the API takes it).
 */
export function rateSchema(t: TFunction, from: string) {
  const currency = t('directory:tlds.rates.currencyInvalid')
  const rate = t('directory:tlds.rates.rateInvalid')
  return z.object({
    to: z
      .string({ error: currency })
      .trim()
      .toUpperCase()
      .refine((to) => isCurrencyCode(to) && to !== from, currency),
    rate: z
      .string({ error: rate })
      .trim()
      .regex(/^\d+([.,]\d+)?$/, rate)
      .transform((text) => Number(text.replace(',', '.')))
      .refine((n) => n > 0 && n < 1e9, rate),
  })
}
export const RATE_FIELDS = ['to', 'rate'] as const

/**
 * A text file previewed before it is applied (the ECB's rates, product costs): previewed from the
 * file chosen, applied (`commit`) from the text the preview carried on in a hidden field; nothing,
 * or more than `maxBytes`, refused beside the file in the words given.
 */
const UPLOAD = { intent: z.enum(['preview', 'commit']).default('preview'), file: z.instanceof(File).optional() }
function refuseUpload(maxBytes: number, words: { required: string; tooLarge: string }) {
  return (file: File | undefined, carried: string | undefined, ctx: z.RefinementCtx) => {
    const size = file?.size ? file.size : carried?.trim() ? carried.length : 0
    const message = size === 0 ? words.required : size > maxBytes ? words.tooLarge : null
    if (message) ctx.addIssue({ code: 'custom', path: ['file'], message })
  }
}

/** The text a previewed upload sends: the file chosen, else the text the preview carried on. */
export const uploadedText = async (file: File | undefined, carried: string | undefined) => (file?.size ? await file.text() : (carried ?? ''))

/** The ECB's daily rates file (`xml` carried from the preview to the apply). */
export function ecbUploadSchema(t: TFunction, maxBytes: number) {
  const refuse = refuseUpload(maxBytes, { required: t('pricing:rates.fileRequired'), tooLarge: t('pricing:rates.tooLarge') })
  return z.object({ ...UPLOAD, xml: z.string().optional() }).superRefine((v, ctx) => refuse(v.file, v.xml, ctx))
}

/** A CSV of product costs (`csv` carried from the preview to the store). */
export function costUploadSchema(t: TFunction, maxBytes: number) {
  const refuse = refuseUpload(maxBytes, { required: t('pricing:costs.fileRequired'), tooLarge: t('pricing:costs.tooLarge') })
  return z.object({ ...UPLOAD, csv: z.string().optional() }).superRefine((v, ctx) => refuse(v.file, v.csv, ctx))
}
